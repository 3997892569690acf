/**
 * Deterministic test data shared by tests, the demo and benchmarks: the seed articles' TestTable
 * (seed 000) and StackOverflow-like comments (seed 001), and TPC-H through the {@code io.trino.tpch}
 * generator. Owns only the generation of rows as Java values ({@code Object[]} in the
 * representation {@link dev.columba.core.type.SqlType} documents); loading them into a database
 * belongs to the callers.
 */
package dev.columba.datagen;
