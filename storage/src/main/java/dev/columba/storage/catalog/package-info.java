/**
 * The catalog: tables and indexes, their schemas and where their pages are, stored in a B+tree
 * found from the boot page and changed transactionally. Knows nothing of SQL.
 */
package dev.columba.storage.catalog;
