#!/bin/bash
# rounds of: base JVM then new JVM (sequential, never together: each JVM's MAXDOP 2 needs both cores); each JVM runs the 22 queries, per query R alternating (MAXDOP 1, MAXDOP 2) pairs after one warm-up pair
cd /tmp/hash-fill
QS=Q01,Q02,Q03,Q04,Q05,Q06,Q07,Q08,Q09,Q10,Q11,Q12,Q13,Q14,Q15,Q16,Q17,Q18,Q19,Q20,Q21,Q22
for round in $(seq 1 ${ROUNDS:-2}); do
  for b in base new3; do db=dbbase; [ $b = new3 ] && db=dbnew
    echo "# round $round $b start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    ./run.sh /tmp/hash-fill/$b /tmp/hash-fill/$db ${R:-3} $QS 2>/dev/null | sed "s/^/$round\t$b\t/"
  done
done
echo "# end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
