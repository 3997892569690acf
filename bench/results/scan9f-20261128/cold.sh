#!/bin/bash
# cold.sh <frozen bench target dir> <CS|DUCK> <databases dir> <runs> [queries]: scan9e's Cold (or, MAIN=Warm, Warm) driver
# (bench/results/scan9e-20261127/*.java, compiled unchanged into /tmp/scan9f/drv) on one build.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
B=$1; shift
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/scan9f/drv:$B/classes:$B/lib/*" ${MAIN:-Cold} "$@"
