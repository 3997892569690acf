#!/bin/bash
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
B=${B:-/tmp/scan9d/base/bench}
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/scan9d/drv:$B/classes:$B/lib/*" Cold "$@"
