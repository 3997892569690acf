/**
 * The reliability campaign of {@code ./columba bench reliability} (issue 15): SQL fuzzing by
 * grammar-aware mutation of a corpus, every statement replayable from the run's seed and its
 * index, outcomes counted by SQLSTATE; byte flips in every file of a cleanly closed database; and
 * kill -9 of child JVMs at random moments of mixed work, each reopen checked against the units the
 * child acknowledged, with bit flips in the log of crashed copies. It owns the corpus, the
 * mutations, the workloads, their judges and the campaign's report, not the engine it tries to
 * break; the child-JVM harness is test-support's.
 */
package dev.columba.bench.reliability;
