#!/bin/bash
# rounds.sh <new build> [runs] [queries]: base and a new build alternating (each a fresh JVM, scan9e's Cold driver on a
# copy of the peers suite's SF 1 databases: per query a check run, 2 unmeasured runs, then <runs> pairs of a warm and a
# cold run), DuckDB between them.
D=/tmp/scan9g/peers-sf1
S=/work/wt/scan9g/bench/results/scan9g-20261128/run.sh
NEW=$1; RUNS=${2:-3}; Q=$3
export XOPTS="-Ddb.name=lineitem"
run() { echo "=== $1 $2 $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; $S /tmp/scan9g/frozen-$1 Cold $2 $D $RUNS $Q 2>&1 | grep -v -e WARNING -e '^\s*$'; }
run base CS; run base DUCK; run $NEW CS
run $NEW CS; run base CS; run base DUCK
run base CS; run $NEW CS
echo "=== done $(date +%T)"
