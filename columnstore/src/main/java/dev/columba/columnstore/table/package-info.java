/**
 * Columnstore tables: the rowgroup directory, delete bitmap and delta rowgroups (rowstore
 * B+trees), bulk insert, the tuple mover, reorganize and rebuild. Owns table-level metadata and
 * life cycle; the encoding of segments and the rowgroup file belong to other packages.
 */
package dev.columba.columnstore.table;
