#!/bin/bash
# fresh.sh <tree> <engine> <db> <runs> <queries> [explain]  (extra JVM opts in $XOPTS)
T=$1; shift
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
exec $J/java -Xmx6g --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $XOPTS \
  -cp "/tmp/join9h/drv:${PRE:-}:$T/bench/target/classes:$T/bench/target/lib/*" Fresh "$@"
