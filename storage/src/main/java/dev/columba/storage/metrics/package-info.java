/** Micrometer meters over the storage layer's cumulative statistics. */
package dev.columba.storage.metrics;
