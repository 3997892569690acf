/**
 * A Trino connector over Columba databases (docs/design/trino.md): a catalog shows one database
 * directory as one schema of its columnstore tables, a split is one rowgroup, and a page source
 * turns the columnstore scan's Arrow batches into Trino blocks. Owns nothing of the storage: it
 * reads through the columnstore module's public scan, as the planner's scan operator does.
 */
package dev.columba.trino;
