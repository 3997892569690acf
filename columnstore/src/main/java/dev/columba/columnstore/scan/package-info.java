/**
 * The batch-mode columnstore scan: rowgroup elimination, segment read-ahead in a window that
 * crosses rowgroup boundaries (the rowgroups ahead prepared early), filters on encoded data,
 * deleted rows, delta rowgroups; Arrow batches out.
 */
package dev.columba.columnstore.scan;
