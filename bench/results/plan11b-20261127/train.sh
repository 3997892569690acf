#!/bin/bash
# train.sh <dir with jar+lib+jvm.options+startup-training.sql> <aot out>
set -e
D=$1; OUT=$2; shift 2
T=$(mktemp -d)
cd $T
java $(cat $D/jvm.options) "$@" -XX:AOTCacheOutput=$OUT -Xlog:aot=off -Xlog:cds=off -cp "$(ls $D/columba-cli-*.jar):$D/lib/*" dev.columba.cli.Main sql $T/db --stop-on-error -f $D/startup-training.sql > $T/training.log 2>&1 || { tail $T/training.log; exit 1; }
rm -rf $T
