#!/bin/sh
# The runs of bench/results/trino16e-20261128.md, from the worktree's root.
set -e
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
# The snapshot reader against a writer process, storage level (CrashWorkload in a child JVM):
./mvnw -B -ntp -q test -pl storage -am -Dtest='DatabaseSnapshotTest' -Dsurefire.failIfNoSpecifiedTests=false
# The same through a Trino cluster, the writer a child JVM with the driver:
./mvnw -B -ntp -q test -pl trino -am -Dtest='LiveDatabaseOnTrinoTest#snapshotsBesideAWriterProcess' \
  -Dsurefire.failIfNoSpecifiedTests=false
# The module suites:
./mvnw -B -ntp -q test -pl trino -am -Dtest='dev.columba.trino.*Test' -Dsurefire.failIfNoSpecifiedTests=false
./mvnw -B -ntp -q test -pl storage -am -Dtest='dev.columba.storage.**.*Test' -Dsurefire.failIfNoSpecifiedTests=false
