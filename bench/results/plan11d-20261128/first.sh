#!/bin/bash
# first.sh <out> <rounds> <query>...: per round and query, a fresh JVM of base and of new (order
# swapped each round), each running `PlanTime <db> 0 <query>`: the JVM's first statement is that
# query's EXPLAIN. Builds: /tmp/plan11d/base and /tmp/plan11d/new (jars), databases dbA / dbB.
OUT=$1; ROUNDS=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
for round in $(seq 1 $ROUNDS); do
  for q in "$@"; do
    if [ $((round % 2)) = 1 ]; then order="base new"; else order="new base"; fi
    for b in $order; do
      B=/tmp/plan11d/$b; DB=/tmp/plan11d/dbA; [ $b = new ] && DB=/tmp/plan11d/dbB
      OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
      CP="/tmp/plan11d/drv/plantime.jar:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*"
      L=$(cut -d' ' -f1 /proc/loadavg)
      $J/java $OPTS ${ABX:-} -cp "$CP" PlanTime $DB 0 $q 2>&1 | grep -E "^(first|connect)" | tr '\n' ' ' | sed "s/^/round=$round build=$b load=$L /" >> $OUT
      echo >> $OUT
    done
  done
done
