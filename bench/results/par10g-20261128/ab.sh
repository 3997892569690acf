#!/bin/bash
# ab.sh <rounds> <warm> <passes> queries... : base and new JVMs alternately (one at a time), Drive at max_dop 1 and 2
R=$1; W=$2; P=$3; shift 3
for r in $(seq $R); do for b in base newb; do
  /tmp/par10g/drv/run.sh /tmp/par10g/$b /tmp/par10g/db/$b /tmp/par10g/ab/$b.$r.txt $W $P "$@"
done; done
