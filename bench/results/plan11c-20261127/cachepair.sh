#!/bin/bash
# cachepair.sh <out> <rounds> <query>...: fresh JVMs, each build with its own cache trained on EXPLAIN of the 22 queries
# (/tmp/plan11c/drv/<build>-tpch.aot), the JVM's first EXPLAIN of each query; base and new alternate, order swapped each round
OUT=$1; ROUNDS=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
for round in $(seq 1 $ROUNDS); do
  if [ $((round % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for q in "$@"; do for b in $order; do
    B=/tmp/plan11c/$b; DB=/tmp/plan11c/dbC; [ $b = new ] && DB=/tmp/plan11c/dbD
    OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
    CP="/tmp/plan11c/drv/plantime.jar:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*"
    L=$(cut -d' ' -f1 /proc/loadavg)
    $J/java $OPTS -XX:AOTCache=/tmp/plan11c/drv/$b-tpch.aot -Xlog:aot=off -Xlog:cds=off -cp "$CP" PlanTime $DB 0 $q 2>&1 | grep -E "^first" | sed "s/^/round=$round build=$b cache=trained load=$L /" >> $OUT
  done; done
done
