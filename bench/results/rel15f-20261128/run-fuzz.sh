#!/bin/bash
# Issue 15's SQL fuzzing from a frozen copy of the rel15f build's bench class path (/tmp/rel15f/cp),
# in chunks of 10,000 statements that each write their own report. $1: the seed (20261204 is the
# seed of rel15e's run, whose five internal errors this branch fixes; 20261228 a new one).
seed=$1
cd /tmp/rel15f
CP=/tmp/rel15f/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for first in 0 10000 20000 30000 40000 50000 60000 70000 80000 90000; do
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed $seed --first $first --statements 10000 --flips 0 --kills 0 \
    --work-dir /tmp/rel15f/work-fuzz-$seed --results-dir /tmp/rel15f/results-fuzz-$seed
done
