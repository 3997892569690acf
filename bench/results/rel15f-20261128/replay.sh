#!/bin/bash
# rel15e's five internal errors of seed 20261204, one statement each, from the frozen class path.
cd /tmp/rel15f
CP=/tmp/rel15f/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for first in 11169 46231 80997 64288 98722; do
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed 20261204 --first $first --statements 1 --flips 0 --kills 0 \
    --work-dir /tmp/rel15f/work-replay --results-dir /tmp/rel15f/results-replay
done
