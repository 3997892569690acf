#!/bin/bash
# The fuzzing's internal errors replayed one by one on the fixed code, with assertions on (-ea).
. "$(dirname "$0")/common-fixed.sh"
for case in 20261228:61218 20261228:68064 20261230:6436 20261231:39861 "$@"; do
  rel replay-${case/:/-} --seed ${case%%:*} --first ${case##*:} --statements 1 --flips 0 --kills 0
done
