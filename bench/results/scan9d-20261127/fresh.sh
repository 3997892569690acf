#!/bin/bash
# fresh.sh <libdir> <engine> <db> <runs> <queries>  (extra JVM opts in $XOPTS)
L=$1; shift
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
DUCK=$(ls ~/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/*.jar)
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/scan9d/drv/fresh.jar:$L/*:$DUCK" Fresh "$@"
