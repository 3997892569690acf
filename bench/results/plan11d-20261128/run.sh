#!/bin/bash
# run.sh <build dir> <out dir> <rows> <rounds> <statements per round> [workloads]: OltpCpu on a build's bench class path (JOPTS: extra JVM options)
B=$1; shift; D=$1; shift
rm -rf $D; mkdir -p $D
exec /usr/lib/jvm/temurin-25-jdk-amd64/bin/java --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Djava.awt.headless=true -Darrow.enable_unsafe_memory_access=true -Darrow.enable_null_check_for_get=false $JOPTS -cp "/tmp/plan11d/drv:$B/bench/target/columba-bench-0.1.0-SNAPSHOT.jar:$B/bench/target/lib/*" OltpCpu $D "$@"
