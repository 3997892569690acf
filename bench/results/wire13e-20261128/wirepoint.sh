#!/bin/bash
# wirepoint.sh <pairs> <seconds> (WirePoint.java compiled here): WirePoint alternating base and new builds, a fresh database each run.
cd "$(dirname "$0")"  # beside base-lib/ and new-lib/: the two builds' bench/target/lib
OPTS=$(cat new-bench-classes/dev/columba/bench/jvm.options)
for i in $(seq 1 $1); do
  for b in base new; do
    rm -rf db-$b
    echo -n "$b $i: "
    /usr/lib/jvm/temurin-25-jdk-amd64/bin/java $OPTS -Xmx2g -cp ".:$b-lib/*" WirePoint db-$b $2 2>/dev/null | tail -1
  done
done
