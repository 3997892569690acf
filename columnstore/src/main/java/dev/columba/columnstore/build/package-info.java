/**
 * Building compressed rowgroups from rows, or from column batches of primitive arrays (a bulk
 * load's hand-over): dictionary caps enforced row by row (trim or fallback),
 * memory budget, encoding of every segment, and the table's primary dictionaries. Writes no files
 * but the primary dictionaries; the table writes rowgroup files and their metadata.
 */
package dev.columba.columnstore.build;
