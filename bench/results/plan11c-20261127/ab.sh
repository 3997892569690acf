#!/bin/bash
# ab.sh <out> <rounds> <args...>: fresh JVMs of base and new alternating (order swapped each round), each `PlanTime <db> args`
OUT=$1; ROUNDS=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
for round in $(seq 1 $ROUNDS); do
  if [ $((round % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for b in $order; do
    B=/tmp/plan11c/$b; DB=/tmp/plan11c/dbA; [ $b = new ] && DB=/tmp/plan11c/dbB
    OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
    CP="/tmp/plan11c/drv/plantime.jar:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*"
    L=$(cut -d' ' -f1 /proc/loadavg)
    $J/java $OPTS ${ABX:-} -cp "$CP" PlanTime $DB "$@" 2>&1 | grep -E "^(first|warm)" | sed "s/^/round=$round build=$b load=$L /" >> $OUT
  done
done
