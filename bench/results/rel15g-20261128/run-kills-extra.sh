#!/bin/bash
# One more chunk of 25 kills of a workload beside run-kills.sh's (the large workload's chunks take
# about 25 minutes each at this load, so its last two ran side by side). $1: workload, $2: seed, $3: chunk name.
. "$(dirname "$0")/common.sh"
rel kill-$1-$3 --seed $2 --statements 1 --flips 0 --kills 25 --crash-flips 63 --workload $1
