/**
 * Benchmarks of the columnstore ({@code dev.columba.columnstore}) against the rowstore: seed 001's
 * cold full scans of the comments table under dictionary pressure (trim and fallback) and without
 * it. It owns the benchmark tables it loads and the suite's report section, not the engine it
 * measures.
 */
package dev.columba.bench.columnstore;
