#!/bin/bash
tag=$1; R=$2; QS=$3; NEW=${4:-/tmp/morsel/new1}
cd /tmp/morsel
echo "# $tag start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > m/$tag.txt
./h/run.sh /tmp/morsel/base /tmp/morsel/dbA $R $QS -Dwaits=true 2>m/$tag-base.err > m/$tag-base.txt &
./h/run.sh $NEW /tmp/morsel/dbB $R $QS -Dwaits=true 2>m/$tag-new.err > m/$tag-new.txt &
wait
echo "# $tag end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> m/$tag.txt
