#!/bin/bash
# run.sh <builddir> <db> <out> <warm> <passes> queries...  (extra JVM opts in $XOPTS)
dir=$1; db=$2; out=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
OPTS="-Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false"
cd /tmp/par10f
$J/java $OPTS $XOPTS -cp "/tmp/par10f/drv:$dir/cli/target/columba-cli-0.1.0-SNAPSHOT.jar:$dir/cli/target/lib/*" Drive $db "$@" > $out 2>&1
