#!/bin/bash
# qq.sh <tag> <newdir>: quiet-machine steady-state runs, one JVM at a time, at MAXDOP 1 then 2:
# base (main's build), new (the branch's build) with and without -Dio.netty.tryReflectionSetAccessible=true, DuckDB at threads 1 and 2.
# 22 queries; W warm-up passes over all queries, then P measured passes (queries interleaved); medians per query.
tag=$1; NEW=$2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
DUCK=$(ls ~/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/*.jar)
OPTS="-Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false"
Q=$(for i in $(seq -w 1 22); do printf "q%s " $i; done)
W=${W:-3}; P=${P:-11}
for d in 1 2; do
  for v in base newnf new; do
    dir=/tmp/lead/qbase; flag=""; db=/tmp/lead/dbR
    [ $v != base ] && dir=$NEW && db=/tmp/lead/dbS
    [ $v = new ] && flag="-Dio.netty.tryReflectionSetAccessible=true"
    echo "$v dop$d start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
    $J/java $OPTS $flag -Ddop=$d -cp "/tmp/lead/drv4:$dir/classes:$dir/lib/*:$DUCK" Drive columba $db $W $P $Q > /tmp/lead/qq.$tag.$v.$d 2>&1
  done
  echo "duck t$d start $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
  $J/java $OPTS -Ddthreads=$d -cp "/tmp/lead/drv4:/tmp/lead/qbase/lib/*:$DUCK" Drive duck /tmp/lead/data/tpch-sf1/duckdb/tpch.duckdb $W $P $Q > /tmp/lead/qq.$tag.duck.$d 2>&1
done
echo "done $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)"
