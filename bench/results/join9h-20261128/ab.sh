#!/bin/bash
# ab.sh <rounds> <runs> <queries...>: base and new alternating, fresh JVM per query, thread CPU
cd /tmp/join9h
R=$1; N=$2; shift 2
for r in $(seq 1 $R); do
  for q in "$@"; do
    ./drv/fresh.sh /tmp/join9h/base columba /tmp/join9h/data/tpch-sf1/columba-columnstore $N $q 2>&1 | grep -v WARNING | sed "s/^/base /"
    ./drv/fresh.sh /tmp/join9h/new columba /tmp/join9h/data/tpch-sf1/columba-columnstore $N $q 2>&1 | grep -v WARNING | sed "s/^/new /"
  done
done
