#!/bin/bash
# cold.sh <frozen bench target dir> <CS|DUCK> <databases dir> <runs> [queries]: scan9d's Cold driver on one build.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
B=$1; shift
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/scan9e/drv:$B/classes:$B/lib/*" ${MAIN:-Cold} "$@"
