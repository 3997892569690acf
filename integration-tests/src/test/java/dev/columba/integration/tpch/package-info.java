/**
 * TPC-H end to end: the eight tables generated at a small scale factor, loaded into Columba as
 * rowstore and as columnstore tables and into DuckDB, and the 22 queries checked against DuckDB's
 * answers. Owns the comparison of results across engines; the data comes from {@code datagen}.
 */
package dev.columba.integration.tpch;
