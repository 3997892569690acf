/**
 * The tpch suite: the 22 TPC-H queries, verbatim as DuckDB's tpch extension ships them, on
 * Columba's columnstore and on DuckDB through JDBC in one JVM, one thread each, warm and cold, with
 * each engine's planning time. It owns the two databases of the eight tables, the query texts and
 * the check of every answer before timing; loading and connections are the peers suite's, the JMH
 * plumbing and report pieces the harness's.
 */
package dev.columba.bench.tpch;
