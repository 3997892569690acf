/** Batches: Arrow vectors of equal length with an optional selection vector, the unit of execution. */
package dev.columba.core.batch;
