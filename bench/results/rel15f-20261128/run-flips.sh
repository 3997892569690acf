#!/bin/bash
# Issue 15's flip campaign after a clean close (the rowstore table now on a filegroup, so the
# database has data/files.properties, checksummed since manifest version 2), from the frozen class
# path: 4 x 250 flips, each one bit in a fresh copy, seeds 20261223-20261226.
cd /tmp/rel15f
CP=/tmp/rel15f/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for seed in 20261223 20261224 20261225 20261226; do
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed $seed --statements 1 --flips 250 --kills 0 \
    --work-dir /tmp/rel15f/work-clean --results-dir /tmp/rel15f/results-clean
done
