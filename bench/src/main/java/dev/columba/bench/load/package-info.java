/**
 * The load suite: TPC-H lineitem from one CSV file into a Columba columnstore table, a Columba
 * rowstore table and DuckDB, each by its own {@code COPY} through JDBC in one JVM, at one thread
 * and at all processors, in rows per second.
 */
package dev.columba.bench.load;
