#!/bin/bash
# run.sh <classesdir> <libdir> <columbaDb> <duckdbFile> <rounds> q...  (extra JVM opts in $XOPTS, -D in $DOPTS)
C=$1; L=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
exec $J/java -Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS $DOPTS \
  -cp "/tmp/par10b/drv:$C:$L/*:/root/.m2/repository/org/duckdb/duckdb_jdbc/2.0.0.1/duckdb_jdbc-2.0.0.1.jar" ${MAIN:-Par10b} "$@"
