#!/bin/bash
# Flips after a clean close on the fixed code, whose campaign also checks that a detected flip's
# damaged bytes are kept: 4 x 250, seeds 20261244-20261247.
. "$(dirname "$0")/common-fixed.sh"
for seed in 20261244 20261245 20261246 20261247; do
  rel clean-fixed-$seed --seed $seed --statements 1 --flips 250 --kills 0
done
