#!/bin/bash
# After the clean-close flips: kills of the checkpoint workload (rowstore table on a filegroup of two
# files, so data/files.properties exists) with flips after each crash, from the frozen class path.
# Arguments: seed, kills, flips (run: 20261227 4 68, then 20261229 12 204).
cd /tmp/rel15f
CP=/tmp/rel15f/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
  reliability --seed ${1:-20261227} --statements 1 --flips 0 --kills ${2:-4} --crash-flips ${3:-68} --workload checkpoint \
  --work-dir /tmp/rel15f/work-crash --results-dir /tmp/rel15f/results-crash
