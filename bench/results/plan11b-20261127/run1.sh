#!/bin/bash
# run1.sh <dir> <db> <query file> [extra jvm opts...]: one fresh JVM, STATISTICS TIME on, max_dop 1
D=$1; DB=$2; Q=$3; shift 3
AOT=""; [ -f $D/cache.aot ] && AOT="-XX:AOTCache=$D/cache.aot -Xlog:aot=off -Xlog:cds=off"
/usr/bin/time -f "PROC user=%U sys=%S wall=%e" java $(cat $D/jvm.options) $AOT "$@" -cp "$(ls $D/columba-cli-*.jar):$D/lib/*" dev.columba.cli.Main sql $DB -c "SET max_dop = 1" -c "SET STATISTICS TIME ON" -f $Q
