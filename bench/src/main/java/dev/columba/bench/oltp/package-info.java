/**
 * The oltp suite: statement latency of short statements (point and range selects, inserts,
 * updates by key) on Columba, H2, SQLite and DuckDB through JDBC in one JVM, at one and four
 * client threads, in statements per second and latency percentiles.
 */
package dev.columba.bench.oltp;
