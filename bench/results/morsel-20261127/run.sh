#!/bin/bash
# usage: run.sh <build dir (classes, lib)> <db dir> <rounds> <q01,q02,...> [java opts]
root=$1; db=$2; rounds=$3; qs=$4; shift 4
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O="--add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Dio.netty.noUnsafe=false -Darrow.enable_null_check_for_get=false -Darrow.enable_unsafe_memory_access=true -Xmx6g"
exec $J $O "$@" -cp "/tmp/morsel/h:$root/classes:$root/lib/*" Drive "jdbc:columba:$db" /tmp/lead/q $rounds $qs
