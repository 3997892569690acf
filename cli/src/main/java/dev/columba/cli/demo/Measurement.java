package dev.columba.cli.demo;

import dev.columba.core.stats.IoStats;

import java.util.OptionalLong;

/**
 * One measured cold run: the I/O of the table the experiment is about, the I/O of every table the
 * statement read, its elapsed time (until its last row was read), and how many bytes the process
 * read from storage meanwhile according to {@code /proc/self/io} (empty where the system has none).
 */
record Measurement(String label, String table, IoStats tableStats, IoStats allTables, long elapsedNanos,
                   OptionalLong processReadBytes) {
}
