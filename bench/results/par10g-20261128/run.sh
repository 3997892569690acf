#!/bin/bash
# run.sh <builddir> <db> <out> <warm> <passes> queries...  (extra JVM opts in $XOPTS)
dir=$1; db=$2; out=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
OPTS="-Xmx6g $(cat $dir/bench/target/classes/dev/columba/bench/jvm.options)"
cd /tmp/par10g
$J/java $OPTS $XOPTS -cp "/tmp/par10g/drv:$dir/cli/target/columba-cli-0.1.0-SNAPSHOT.jar:$dir/cli/target/lib/*" Drive $db "$@" > $out 2>&1
