#!/bin/bash
# The checkpoint kill campaign (issue 15), from a frozen copy of main a066257a's bench class path.
cd /tmp/rel15e
CP=/tmp/rel15e/cp-main
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
exec nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
  reliability --seed 20261202 --statements 1 --flips 0 --kills 100 --crash-flips 100 --workload checkpoint \
  --work-dir /tmp/rel15e/work-checkpoint --results-dir /tmp/rel15e/results-checkpoint
