#!/bin/bash
# usage: m.sh <classes root (has cli/target)> <cs|duck> <q> <runs> <dop> [java opts]
root=$1; kind=$2; q=$3; runs=$4; dop=$5; shift 5
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
H=/work/wt/harness
J="--add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Darrow.enable_null_check_for_get=false -Darrow.enable_unsafe_memory_access=true -Xmx6g"
if [ $kind = cs ]; then cp="$H:$root/cli/target/classes:$root/cli/target/lib/*"; url="jdbc:columba:/tmp/par-dop/v3db";
else cp="$H:$(ls /work/wt/par-dop/bench/target/lib/duckdb_jdbc-*.jar | head -1)"; url="jdbc:duckdb:/tmp/par-dop/tpch.duckdb"; fi
nice -n 19 java $J -Ddop=$dop "$@" -cp "/tmp/par-dop/h:$cp" Drive2 "$url" $H/q/$q.sql $runs | tail -1
