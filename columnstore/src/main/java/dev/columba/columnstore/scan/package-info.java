/**
 * The batch-mode columnstore scan: rowgroup elimination, segment read-ahead, filters on encoded
 * data, deleted rows, delta rowgroups; Arrow batches out.
 */
package dev.columba.columnstore.scan;
