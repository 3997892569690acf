/**
 * Benchmarks of the rowstore storage engine ({@code dev.columba.storage}), seed 004: scans of a
 * clustered table cold and warm, with and without read-ahead, against the device's own sequential
 * bandwidth (rowstore-scan) and on a table four times the buffer pool (seed004). It owns the
 * benchmark table it loads and the suites' report sections, not the engine it measures.
 */
package dev.columba.bench.storage;
