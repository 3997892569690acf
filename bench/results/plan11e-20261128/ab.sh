#!/bin/bash
# ab.sh <out> <pairs>: CsInsert 6 300 in fresh JVMs of base (/tmp/plan11e/base) and new (the worktree), alternating.
OUT=$1; PAIRS=$2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
for pair in $(seq 1 $PAIRS); do
  if [ $((pair % 2)) = 1 ]; then order="base new"; else order="new base"; fi
  for b in $order; do
    B=/tmp/plan11e/base; [ $b = new ] && B=/work/wt/plan11e
    OPTS=$(cat $B/bench/target/classes/dev/columba/bench/jvm.options)
    echo "pair=$pair build=$b load=$(cut -d' ' -f1 /proc/loadavg) $($J/java $OPTS -cp "/tmp/plan11e/drv:$B/bench/target/lib/*" CsInsert 6 300 2>&1 | grep cpu_us)" >> $OUT
  done
done
