#!/bin/bash
# jfr.sh <builddir> <db> <query> <dop> <warm> <passes>
dir=$1; db=$2; q=$3; d=$4
XOPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:StartFlightRecording=filename=/tmp/par10g/jfr/$q-d$d.jfr,settings=profile,jdk.ExecutionSample#period=2ms,jdk.JavaMonitorWait#threshold=1ms,jdk.ThreadPark#threshold=1ms -Donly=true -Ddop=$d" /tmp/par10g/drv/run.sh $dir $db /tmp/par10g/jfr/$q-d$d.out $5 $6 $q
