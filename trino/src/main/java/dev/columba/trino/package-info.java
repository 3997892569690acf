/**
 * A Trino connector over Columba databases (docs/design/trino.md): a catalog shows one database
 * directory as one schema of its tables, a split is one columnstore rowgroup or a page range of a
 * rowstore table, and a page source turns the scan's Arrow batches into Trino blocks. Owns nothing of
 * the storage: it reads through the columnstore's and the rowstore's public scans, as the planner's
 * scan operators do.
 */
package dev.columba.trino;
