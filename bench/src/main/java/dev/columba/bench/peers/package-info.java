/**
 * The peers suite: TPC-H Q1, Q6 and a full-scan aggregate over lineitem on Columba (columnstore and
 * rowstore) and on DuckDB and H2, each through its JDBC driver in the same JVM, warm and cold, with
 * the bytes each engine read from storage. It owns the peers' databases and what "cold" means for
 * each engine; the JMH plumbing and report pieces are the harness's.
 */
package dev.columba.bench.peers;
