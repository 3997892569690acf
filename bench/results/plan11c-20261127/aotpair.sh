#!/bin/bash
# aotpair.sh <build dir> <aot> <out>: fresh JVMs, first EXPLAIN of Q2 / Q21 / Q1, without and with the cache, alternating
B=$1; AOT=$2; OUT=$3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
CP="/tmp/plan11c/drv/plantime.jar:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*"
for round in 1 2 3; do for q in Q2 Q21 Q1; do
  for mode in none cache; do
    X=""; [ $mode = cache ] && X="-XX:AOTCache=$AOT -Xlog:aot=off -Xlog:cds=off"
    r=$($J/java $OPTS $X -cp "$CP" PlanTime /tmp/plan11c/dbA 0 $q 2>&1 | grep "^first")
    echo "round=$round mode=$mode load=$(cut -d' ' -f1 /proc/loadavg) $r" >> $OUT
  done
done; done
