package dev.columba.bench.oltp;

import java.sql.SQLException;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * One {@link OltpWorkload} on one {@link OltpEngine} by one or four clients
 * ({@link OltpOneClientBenchmark}, {@link OltpFourClientsBenchmark}), each on its own connection.
 * An iteration is one JMH single shot in which every client runs statements back to back for
 * {@code millis}; the figures are the secondary results {@link OltpDatabase} records: statements
 * and rows per second of all clients together, and the p50 / p99 / mean latency of a statement,
 * timed from executing it to having read its last row (so JMH's own score, the shot's duration,
 * is about {@code millis} and says nothing).
 *
 * <p>Caveats: the engines share one JVM and one machine with other processes; a commit's cost is
 * what its engine's durability costs (see {@link OltpEngine}: H2 does not sync). Compare ratios of
 * one run, not absolute figures across runs.
 */
public abstract class OltpBenchmark {
    @Benchmark
    public long statements(OltpDatabase database, OltpClient client) throws SQLException {
        return client.runFor(database);
    }
}
