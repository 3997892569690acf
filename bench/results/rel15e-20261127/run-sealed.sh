#!/bin/bash
# Issue 15 flip campaigns with columba.properties checksummed, from a frozen copy of the rel15e
# build's bench class path (/tmp/rel15e/cp-seal), in chunks that each write their own report
# (a campaign writes its report only when it ends). $1: clean | crash
cd /tmp/rel15e
CP=/tmp/rel15e/cp-seal
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
run() { # seed, name, arguments...
  local seed=$1 name=$2; shift 2
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability --seed $seed --statements 1 "$@" --work-dir /tmp/rel15e/work-$name --results-dir /tmp/rel15e/results-$name
}
case "$1" in
  clean) # 4 x 250 flips after a clean close, each flip in a fresh copy
    for seed in 20261203 20261204 20261205 20261206; do run $seed clean --flips 250 --kills 0; done ;;
  crash) # kills with flips after each crash, the rowstore (heap, overflow) and checkpoint (filegroup) workloads in turn
    for chunk in 0 1 2 3 4 5 6 7 8 9; do
      if [ $((chunk % 2)) = 0 ]; then workload=rowstore; else workload=checkpoint; fi
      run $((20261210 + chunk)) crash --flips 0 --kills 5 --crash-flips 100 --workload $workload
    done ;;
  *) echo "usage: $0 clean|crash"; exit 2 ;;
esac
