#!/bin/bash
# together.sh <out> <reps> <query>...: base and new started at the same moment (same load), each a fresh JVM on its own database copy
OUT=$1; shift
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
run() {
  B=/tmp/plan11c/$1; DB=$2; shift 2
  OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
  $J/java $OPTS -cp "/tmp/plan11c/drv/plantime.jar:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*" PlanTime $DB "$@" 2>&1 | grep -E "^(first|warm)" | sed "s/^/build=$(basename $B) /"
}
L=$(cut -d' ' -f1 /proc/loadavg)
run base /tmp/plan11c/dbF "$@" > $OUT.base &
run new /tmp/plan11c/dbG "$@" > $OUT.new &
wait
sed "s/^/load=$L /" $OUT.base $OUT.new >> $OUT
