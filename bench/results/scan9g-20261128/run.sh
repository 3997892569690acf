#!/bin/bash
# run.sh <frozen bench target dir> <Cold|Warm|Runs> <args...>: one driver (scan9e's Cold/Warm, this session's Runs,
# compiled unchanged into /tmp/scan9g/drv) on one build, with the bench's JVM options.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
B=$1; M=$2; shift 2
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/scan9g/drv:$B/classes:$B/lib/*" $M "$@"
