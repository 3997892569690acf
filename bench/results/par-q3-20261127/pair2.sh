#!/bin/bash
# pair2.sh <tag> <rounds> <queries> : base and new builds in two JVMs started together, each on its own copy of the data;
# each JVM alternates MAXDOP 1 and MAXDOP 2 per round (Drive)
tag=$1; R=$2; QS=$3
cd /tmp/par-q3
echo "# $tag start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > m/$tag.txt
./h/run.sh /tmp/par-q3/base /tmp/par-q3/db1 $R $QS 2>/dev/null > m/$tag-base.txt &
./h/run.sh /tmp/par-q3/new /tmp/par-q3/db2 $R $QS 2>/dev/null > m/$tag-new.txt &
wait
echo "# $tag end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> m/$tag.txt
