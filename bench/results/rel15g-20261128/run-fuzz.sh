#!/bin/bash
# SQL fuzzing, 100,000 statements of a new seed in chunks of 10,000 (each a JVM with its own report).
# $1: the seed (rel15g: 20261230 and 20261231, never run before).
. "$(dirname "$0")/common.sh"
for first in 0 10000 20000 30000 40000 50000 60000 70000 80000 90000; do
  rel fuzz-$1-$((first / 1000))k --seed $1 --first $first --statements 10000 --flips 0 --kills 0
done
