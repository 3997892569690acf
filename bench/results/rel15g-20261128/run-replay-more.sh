#!/bin/bash
# The internal errors the later chunks found (same cause), replayed on the fixed code with -ea.
. "$(dirname "$0")/common-fixed.sh"
for case in "$@"; do
  rel replay-${case/:/-} --seed ${case%%:*} --first ${case##*:} --statements 1 --flips 0 --kills 0
done
