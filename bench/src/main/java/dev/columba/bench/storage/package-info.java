/**
 * Benchmarks of the rowstore storage engine ({@code dev.columba.storage}): scans of a clustered
 * table cold and warm, with and without read-ahead, against the device's own sequential bandwidth
 * (seed 004). It owns the benchmark tables it loads, not the engine it measures.
 */
package dev.columba.bench.storage;
