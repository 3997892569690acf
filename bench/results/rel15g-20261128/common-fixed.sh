#!/bin/bash
# As common.sh, with this branch's fixes compiled over the frozen class path (/tmp/rel15g/overlay:
# the planner's ConstantWindowKeysRule, WindowOverNoColumnRule, QueryPlanner, ColumbaTypeCoercion;
# bench's FileDamageCampaign with its evidence check, KillCampaign, ReliabilityCommand).
CP=/tmp/rel15g/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
rel() {
  local name=$1; shift
  cd /tmp/rel15g
  nice -n 19 $J -ea $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "/tmp/rel15g/overlay:$CP/classes:$CP/lib/*" \
    dev.columba.bench.BenchMain reliability "$@" --work-dir /tmp/rel15g/work-$name --results-dir /tmp/rel15g/results-$name \
    > /tmp/rel15g/log-$name.txt 2>&1
  echo "$name exit $?" >> /tmp/rel15g/done.txt
}
