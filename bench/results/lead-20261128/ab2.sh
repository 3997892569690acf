#!/bin/bash
# ab2.sh <base> <new> <dop> <rounds> <queries...>: the suite's sequence (Drv4: EXPLAIN, check, 9 EXPLAINs, 4 warm-ups, 3 measured), alternating; median measured wall and CPU
cd /tmp/lead/p10
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; OPTS=$(cat /tmp/lead/b9/classes/dev/columba/bench/jvm.options)
A=$1; B=$2; D=$3; R=$4; shift 4
for q in "$@"; do for r in $(seq $R); do for b in $A $B; do
  line=$($J $OPTS -cp ".:/tmp/lead/$b/classes:/tmp/lead/$b/lib/*" Drv4 db $q $D 4 3 9 2>&1 | tail -1)
  echo "$b $q dop$D $(echo "$line" | sed 's/.*|| //' | python3 -c "
import sys,statistics
v=[x.split('/') for x in sys.stdin.read().split()]
print('wall', statistics.median(int(a[0]) for a in v), 'cpu', statistics.median(int(a[1]) for a in v), 'jit', statistics.median(int(a[2]) for a in v))")"
done; done; done
