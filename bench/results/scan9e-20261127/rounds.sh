#!/bin/bash
# Base and new alternating (each a fresh JVM, scan9d's Cold driver on the peers suite's SF 1 databases),
# DuckDB between them; then the rowstore's warm scan aggregate once (Warm driver).
D=/tmp/scan9e/peers-sf1
S=/work/wt/scan9e/bench/results/scan9e-20261127/cold.sh
export XOPTS="-Ddb.name=lineitem"
run() { echo "=== $1 $2 $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; $S /tmp/scan9e/frozen-$1 $2 $D 3; }
waitnew() { while [ ! -f /tmp/scan9e/frozen-new2/READY ]; do sleep 10; done; }
run base CS; run base DUCK; waitnew; run new2 CS
run new2 CS; run base CS; run base DUCK
run base CS; run new2 CS
echo "=== RS warm $(date +%T)"; MAIN=Warm $S /tmp/scan9e/frozen-base RS $D 5 SCAN
echo "=== done $(date +%T)"
