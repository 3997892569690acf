#!/bin/bash
# run.sh <classesdir> <libdir> <db> <rounds> q...  (extra JVM opts in $XOPTS)
C=$1; L=$2; shift 2
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
exec $J/java -Xmx8g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/paragg/drv:$C:$L/*" ${MAIN:-Pair} "$@"
