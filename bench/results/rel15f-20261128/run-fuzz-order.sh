#!/bin/bash
# run-fuzz.sh's chunks of seed 20261204 in another order once the chunk now running ($1, a pid) ends:
# first those holding rel15e's five internal errors (11169 was in the running chunk, 46231, 64288,
# 80997, 98722), then the rest, so that a run cut short by the session's end covers them.
while kill -0 $1 2>/dev/null; do sleep 10; done
seed=20261204
cd /tmp/rel15f
CP=/tmp/rel15f/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for first in 40000 60000 80000 90000 20000 30000 50000 70000; do
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed $seed --first $first --statements 10000 --flips 0 --kills 0 \
    --work-dir /tmp/rel15f/work-fuzz-$seed --results-dir /tmp/rel15f/results-fuzz-$seed
done
