#!/bin/bash
# The scan aggregate alone: step 1 only (new1: string MIN/MAX from the footers, widening casts) against all
# three steps (new2: also the read-ahead of summed columns only and the delta sums), alternating.
D=/tmp/scan9e/peers-sf1
S=/work/wt/scan9e/bench/results/scan9e-20261127/cold.sh
export XOPTS="-Ddb.name=lineitem"
run() { echo "=== $1 $2 $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; $S /tmp/scan9e/frozen-$1 $2 $D 3 SCAN; }
while ! grep -q "=== done" /tmp/scan9e/rounds.log; do sleep 10; done
run new1 CS; run new2 CS; run new1 CS; run new2 CS
echo "=== done $(date +%T)"
