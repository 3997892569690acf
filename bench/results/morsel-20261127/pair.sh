#!/bin/bash
# pair.sh <tag> <rounds> <queries> [newdir]: base and new builds in two JVMs started together, each on its own copy of the data;
# each JVM alternates MAXDOP 1 and MAXDOP 2 per round (Drive)
tag=$1; R=$2; QS=$3; NEW=${4:-/tmp/morsel/new1}
cd /tmp/morsel
echo "# $tag start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > m/$tag.txt
./h/run.sh /tmp/morsel/base /tmp/morsel/dbA $R $QS 2>m/$tag-base.err > m/$tag-base.txt &
./h/run.sh $NEW /tmp/morsel/dbB $R $QS 2>m/$tag-new.err > m/$tag-new.txt &
wait
echo "# $tag end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> m/$tag.txt
