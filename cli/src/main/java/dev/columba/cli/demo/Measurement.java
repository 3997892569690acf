package dev.columba.cli.demo;

import dev.columba.core.stats.IoStats;

/**
 * One measured cold run: the I/O of the table the experiment is about, the I/O of every table the
 * statement read, its elapsed time (until its last row was read), and how many bytes the process
 * read from storage meanwhile according to {@code /proc/self/io}.
 */
record Measurement(String label, String table, IoStats tableStats, IoStats allTables, long elapsedNanos,
                   long processReadBytes) {
}
