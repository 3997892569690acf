/**
 * The reliability campaign of {@code ./columba bench reliability} (issue 15): SQL fuzzing by
 * grammar-aware mutation of a corpus, every statement replayable from the run's seed and its
 * index, outcomes counted by SQLSTATE. It owns the corpus, the mutations and the campaign's
 * report, not the engine it tries to break.
 */
package dev.columba.bench.reliability;
