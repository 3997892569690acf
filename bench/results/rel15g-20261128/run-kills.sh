#!/bin/bash
# kill -9 campaign of one workload in four chunks of 25 kills (seeds $2..$2+3), 63 flips after a
# crash per chunk, each chunk a report of its own. $1: the workload (rowstore, columnstore,
# checkpoint, large).
. "$(dirname "$0")/common.sh"
for i in 0 1 2 3; do
  rel kill-$1-$i --seed $(($2 + i)) --statements 1 --flips 0 --kills 25 --crash-flips 63 --workload $1
done
