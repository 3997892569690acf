#!/bin/bash
# Copies every report of the rel15g runs from /tmp/rel15g into this folder, one file per run
# (named after the run), and prints the sums by rel15f's aggregate.py.
D=$(dirname "$0")
for dir in /tmp/rel15g/results-*; do
  name=${dir#/tmp/rel15g/results-}
  for report in "$dir"/*.md; do [ -f "$report" ] && cp "$report" "$D/$name.md"; done
done
cd "$D"
echo "## fuzz 20261230"; python3 ../rel15f-20261128/aggregate.py fuzz-20261230-*.md
echo "## fuzz 20261231"; python3 ../rel15f-20261128/aggregate.py fuzz-20261231-*.md
echo "## clean (main's campaign)"; python3 ../rel15f-20261128/aggregate.py clean-2026124[0-3].md
echo "## clean (fixed, with the evidence check)"; python3 ../rel15f-20261128/aggregate.py clean-fixed-*.md
grep -h 'still there afterwards' clean-fixed-*.md
for w in rowstore columnstore checkpoint large; do echo "## kills $w"; python3 ../rel15f-20261128/aggregate.py kill-$w-*.md; grep -h '^Flips in a copy' kill-$w-*.md; done
echo "## replays"; for f in replay-*.md; do echo "$f: $(grep '^| [0-9A-Z]\{5\} |' $f | tr '\n' ' ')"; done
