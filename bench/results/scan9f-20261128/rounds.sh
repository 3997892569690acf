#!/bin/bash
# rounds.sh <new build> <log>: base and a new build alternating (each a fresh JVM, scan9e's Cold driver on a copy of
# the peers suite's SF 1 databases: per query a check run, 2 unmeasured runs, then 3 pairs of a warm and a cold run),
# DuckDB between them.
D=/tmp/scan9f/peers-sf1
S=/work/wt/scan9f/bench/results/scan9f-20261128/cold.sh
NEW=$1
export XOPTS="-Ddb.name=lineitem"
run() { echo "=== $1 $2 $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; $S /tmp/scan9f/frozen-$1 $2 $D 3 2>&1 | grep -v -e WARNING -e '^\s*$'; }
run base CS; run base DUCK; run $NEW CS
run $NEW CS; run base CS; run base DUCK
run base CS; run $NEW CS
echo "=== done $(date +%T)"
