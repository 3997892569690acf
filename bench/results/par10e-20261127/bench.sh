#!/bin/bash
# Side by side: main's build (base) and this branch (new), each on its own copy of TPC-H SF 1, started together.
# Each JVM alternates MAXDOP 1 and 2 per query; 1 warm-up pass, then $2 measured passes.
cd /tmp/par10e
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OPTS=$(cat /work/main/cli/target/classes/dev/columba/cli/jvm.options)
W=/work/wt/par10e
Q="q09=/tmp/lead/q/q09.sql sortli=/tmp/par10e/sql/sortli.sql sortstr=/tmp/par10e/sql/sortstr.sql"
tag=$1
uptime > res/$tag.load
$J $OPTS -Xmx6g -cp "drive:/tmp/par10e/base/cli/lib/*" Drive db-base 1,2 1 $2 $Q > res/$tag-base.txt 2>&1 &
$J $OPTS -Xmx6g -cp "drive:/tmp/par10e/pc:$W/cli/target/lib/*" Drive db-new 1,2 1 $2 $Q > res/$tag-new.txt 2>&1 &
wait
uptime >> res/$tag.load
