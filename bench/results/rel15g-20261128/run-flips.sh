#!/bin/bash
# Flips after a clean close: 4 x 250, each one bit in a fresh copy, seeds 20261240-20261243.
. "$(dirname "$0")/common.sh"
for seed in 20261240 20261241 20261242 20261243; do
  rel clean-$seed --seed $seed --statements 1 --flips 250 --kills 0
done
