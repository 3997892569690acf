/**
 * COPY's files: the options ({@link dev.columba.planner.copy.CopyOptions}); CSV read by a
 * byte-level parser that converts fields straight to column values, the reader splitting a file
 * into blocks parsed in parallel, and its writer; the self-describing formats' SPI
 * ({@link dev.columba.planner.copy.CopyFileFormat}), Arrow IPC's implementation, and what they
 * share: mapping a file's columns to a table's by name and converting their values by store
 * assignment. Not the writing of rows into tables, which the session's COPY command does through
 * each store's bulk path, nor Parquet, which module {@code columba-formats} provides.
 */
package dev.columba.planner.copy;
