/**
 * Rowstore tables at run time: rows in a clustered B+tree or a heap, out-of-row values, secondary
 * indexes kept in step, scans in key or allocation order, and the DDL that records them in the
 * catalog. The layer the planner and the demo talk to.
 */
package dev.columba.storage.table;
