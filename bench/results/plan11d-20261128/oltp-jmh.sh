#!/bin/bash
# oltp-jmh.sh <round>: the oltp suite (--short, Columba and H2, four workloads) on base, then new
# (order swapped on even rounds), each from its own build's class path, own data and results dirs.
R=$1
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
if [ $((R % 2)) = 1 ]; then order="base new"; else order="new base"; fi
for b in $order; do
  B=/tmp/plan11d/$b
  OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
  mkdir -p /tmp/plan11d/jmh-$b-$R
  $J/java $OPTS -cp "$B/bench/target/classes:$B/bench/target/lib/*" dev.columba.bench.BenchMain oltp --short \
    --data-dir /tmp/plan11d/jmh-data-$b --results-dir /tmp/plan11d/jmh-$b-$R \
    -p engine=COLUMBA,H2 -p workload=POINT_PREPARED,INSERT_PREPARED,INSERT_BATCH,UPDATE_BY_KEY \
    > /tmp/plan11d/jmh-$b-$R.log 2>&1
done
