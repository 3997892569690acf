#!/bin/bash
# one round: per query, alternating base / new / duck JVMs, dop 1 then 2; tab-separated lines: query engine dop elapsed_ms cpu_ms checksum
cd /tmp/par-dop
runs=${RUNS:-8}
for q in ${QS:-Q01 q03 q05 q09 q13 q18 q21}; do
  for d in 1 2; do
    for e in base new1 duck; do
      if [ $e = duck ]; then out=$(./m.sh /tmp/par-dop/base duck $q $runs $d); else out=$(./m.sh /tmp/par-dop/$e cs $q $runs $d); fi
      echo -e "$q\t$e\t$d\t${out// /\t}\t$(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
done
