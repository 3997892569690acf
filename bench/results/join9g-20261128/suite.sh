#!/bin/bash
# suite.sh <tree> <results-dir> <queries>: the tpch suite as ./columba bench runs it, from a built tree's bench/target
T=$1; R=$2; Q=$3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
options=$(cat "$T/bench/target/classes/dev/columba/bench/jvm.options")
exec $J/java $options -cp "$T/bench/target/classes:$T/bench/target/lib/*" dev.columba.bench.BenchMain tpch \
  --data-dir /tmp/join9g/data --results-dir "$R" --warmup 4 --iterations 3 -p cache=WARM -p threads=1 -p query=$Q
