/**
 * Columba's own table functions, which Calcite's libraries lack: {@code generate_series} as a SQL
 * operator (argument checks, the type of its column) and the batch operator that streams its
 * rows. Planning them (the physical node, the rule) belongs to {@code rel} and {@code rules}.
 */
package dev.columba.planner.function;
