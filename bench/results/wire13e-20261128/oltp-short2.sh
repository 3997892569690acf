#!/bin/bash
# oltp.sh <pairs>: the oltp suite's wire workloads, base and new builds alternating.
cd "$(dirname "$0")"
OPTS=$(cat new-bench-classes/dev/columba/bench/jvm.options)
for i in $(seq 1 $1); do
  for b in new base; do
    mkdir -p oltp-results2/$b-$i oltp-data-$b
    echo "== $b $i $(date -u +%H:%M:%S)"
    /usr/lib/jvm/temurin-25-jdk-amd64/bin/java $OPTS -cp "$b-bench-classes:$b-lib/*" dev.columba.bench.BenchMain oltp \
      --short -p engine=COLUMBA_WIRE -p workload=POINT_PREPARED \
      --data-dir oltp-data-$b --results-dir oltp-results2/$b-$i 2>&1 | grep -E "^Benchmark|^OltpBench|report in|Error|Exception" | head -20
  done
done
