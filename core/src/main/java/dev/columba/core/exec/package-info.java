/**
 * Batch-mode operators over Arrow: the {@link dev.columba.core.exec.Operator} pull interface, the
 * {@link dev.columba.core.exec.ExecutionContext} a query's operators share, the operators a planner
 * translates physical plans into, and the adapters between rows and batches. Owns no scans of
 * stored tables (storage and columnstore feed batches in) and no planning.
 */
package dev.columba.core.exec;
