#!/bin/bash
# quiet.sh <round>: one JVM at a time on a quiet machine: Columba (main) MAXDOP 1 and 2, DuckDB threads 1 and 2; 22 queries, 7 executions each (+1 warm-up)
r=$1
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
DUCK=$(ls ~/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/*.jar)
OPTS="-Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false"
Q=$(for i in $(seq -w 1 22); do printf "q%s " $i; done)
CP="/tmp/lead/drv2:/work/main/cli/target/classes:/work/main/cli/target/lib/*:$DUCK"
for d in 1 2; do
  $J/java $OPTS -Ddop=$d -cp "$CP" Drive columba /tmp/lead/dbB 7 $Q > /tmp/lead/qt.col.$d.$r 2>&1
  $J/java $OPTS -Ddthreads=$d -cp "$CP" Drive duck /tmp/lead/data/tpch-sf1/duckdb/tpch.duckdb 7 $Q > /tmp/lead/qt.duck.$d.$r 2>&1
done
echo "round $r done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
