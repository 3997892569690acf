/**
 * Seed 000 (SQL Server's read-ahead reads and random prefetch) as end-to-end tests through the
 * JDBC driver, asserting on the STATISTICS IO messages in SQL Server's format. Test code only.
 */
package dev.columba.integration.seed000;
