#!/bin/bash
# Shared by the rel15g campaign scripts: one run of `columba bench reliability` at nice 19 from the
# frozen copy of this branch's bench class path (/tmp/rel15g/cp). $1: a name for its work and
# results folders under /tmp/rel15g; the rest: the command's options.
CP=/tmp/rel15g/cp
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
rel() {
  local name=$1; shift
  cd /tmp/rel15g
  nice -n 19 $J $(cat $CP/classes/dev/columba/bench/jvm.options) -cp "$CP/classes:$CP/lib/*" dev.columba.bench.BenchMain \
    reliability "$@" --work-dir /tmp/rel15g/work-$name --results-dir /tmp/rel15g/results-$name \
    > /tmp/rel15g/log-$name.txt 2>&1
  echo "$name exit $?" >> /tmp/rel15g/done.txt
}
