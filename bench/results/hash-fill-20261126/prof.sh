#!/bin/bash
# per query: base and new JFR at MAXDOP 2 in two JVMs started together
for q in ${QS:-Q03 Q05 Q09 Q18 Q21}; do
  for b in base new1; do db=dbbase; [ $b = new1 ] && db=dbnew
    ./run.sh /tmp/hash-fill/$b /tmp/hash-fill/$db ${R:-6} $q -Donly=2 -XX:StartFlightRecording=filename=/tmp/hash-fill/p-$q-$b.jfr,settings=profile -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints 2>/dev/null | grep -v jfr > /tmp/hash-fill/p-$q-$b.txt &
  done
  wait
done
