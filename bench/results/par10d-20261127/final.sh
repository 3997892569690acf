#!/bin/bash
# final.sh <tag> <newdir>: steady-state runs, one JVM at a time: base (/tmp/lead/b0: main at 767f10d0), new (<newdir>), DuckDB; MAXDOP 1 then 2.
tag=$1; NEW=$2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
DUCK=$(ls ~/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/*.jar)
OPTS="-Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false"
Q=$(for i in $(seq -w 1 22); do printf "q%s " $i; done)
W=${W:-3}; P=${P:-9}
for d in 1 2; do
  for v in base new; do
    dir=/tmp/lead/b0; db=/tmp/lead/dbR
    [ $v = new ] && dir=$NEW && db=/tmp/lead/dbS
    echo "$v dop$d start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    $J/java $OPTS -Ddop=$d -cp "/tmp/lead/drv4:$dir/classes:$dir/lib/*:$DUCK" Drive columba $db $W $P $Q > /tmp/lead/fin.$tag.$v.$d 2>&1
  done
  echo "duck t$d start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  $J/java $OPTS -Ddthreads=$d -cp "/tmp/lead/drv4:/tmp/lead/b0/lib/*:$DUCK" Drive duck /tmp/lead/data/tpch-sf1/duckdb/tpch.duckdb $W $P $Q > /tmp/lead/fin.$tag.duck.$d 2>&1
done
echo "done $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
