/**
 * COPY's Parquet format ({@link dev.columba.formats.parquet.ParquetFileFormat}), a
 * {@link dev.columba.planner.copy.CopyFileFormat} the planner finds through ServiceLoader: reading
 * Parquet files into table batches and writing query results to them, through parquet-java with
 * our own page codecs. Not the mapping of file columns to table columns, which the planner's
 * {@code copy} package owns.
 */
package dev.columba.formats.parquet;
