#!/bin/bash
# Issue 15's SQL fuzzing from the frozen rel15e class path, seed 20261204, in chunks of 10,000
# statements that each write their own report; run until stopped (or 100,000 statements).
cd /tmp/rel15e
CP=/tmp/rel15e/cp-seal
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for first in 0 10000 20000 30000 40000 50000 60000 70000 80000 90000; do
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed 20261204 --first $first --statements 10000 --flips 0 --kills 0 \
    --work-dir /tmp/rel15e/work-fuzz --results-dir /tmp/rel15e/results-fuzz
done
