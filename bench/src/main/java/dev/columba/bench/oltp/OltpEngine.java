package dev.columba.bench.oltp;

import java.nio.file.Path;
import java.util.Properties;

/**
 * An engine the oltp suite measures, with how its database is opened and how durable a commit is.
 * Every engine keeps its database in a file under the suite's data directory, and a commit in
 * autocommit mode is as durable as the engine can make it without changing its defaults' meaning:
 *
 * <ul>
 *   <li><b>Columba</b>: its write-ahead log, flushed with {@code fdatasync} at every commit (group
 *       commit shares a flush between concurrent commits).</li>
 *   <li><b>H2</b>: its MVStore file; H2 writes a commit to the file but does not {@code fsync} it
 *       (H2 has no durable-commit setting), so its commits are not durable on a power loss.</li>
 *   <li><b>SQLite</b>: {@code journal_mode = WAL}, {@code synchronous = FULL}: the WAL is synced at
 *       every commit; a busy timeout lets four clients wait for the single writer.</li>
 *   <li><b>DuckDB</b>: its write-ahead log, synced at commit (DuckDB's default).</li>
 *   <li><b>Columba over pgwire</b>: a Columba database of its own, served by Columba's PostgreSQL-wire
 *       server in this JVM on a loopback port (trusted), its clients on pgJDBC with default settings:
 *       beside the embedded driver's figures, what the protocol costs per statement.</li>
 * </ul>
 */
public enum OltpEngine {
    COLUMBA("Columba"),
    H2("H2"),
    SQLITE("SQLite"),
    DUCKDB("DuckDB"),
    COLUMBA_WIRE("Columba over pgwire");

    private final String label;

    OltpEngine(String label) {
        this.label = label;
    }

    /** A short name for tables and charts. */
    public String label() {
        return label;
    }

    /** Whether the engine is Columba, embedded or served. */
    public boolean columba() {
        return this == COLUMBA || this == COLUMBA_WIRE;
    }

    /**
     * The JDBC URL of the database in {@code directory} (which exists and is empty at first); for
     * Columba over pgwire, the embedded URL it is loaded through (its clients go through the server).
     */
    String url(Path directory) {
        Path absolute = directory.toAbsolutePath();
        return switch (this) {
            case COLUMBA, COLUMBA_WIRE -> "jdbc:columba:" + absolute;
            // Without OPTIMIZE_REUSE_RESULTS=0 H2 may answer a repeated query from its previous result.
            case H2 -> "jdbc:h2:file:" + absolute.resolve("oltp") + ";OPTIMIZE_REUSE_RESULTS=0";
            case SQLITE -> "jdbc:sqlite:" + absolute.resolve("oltp.sqlite");
            case DUCKDB -> "jdbc:duckdb:" + absolute.resolve("oltp.duckdb");
        };
    }

    /** The properties of a connection. */
    Properties properties() {
        Properties properties = new Properties();
        switch (this) {
            case COLUMBA, H2 -> {
            }
            case COLUMBA_WIRE -> properties.setProperty("user", "columba");
            case SQLITE -> {
                properties.setProperty("journal_mode", "WAL");
                properties.setProperty("synchronous", "FULL");
                properties.setProperty("busy_timeout", "60000");
            }
            case DUCKDB -> properties.setProperty("threads", "1");
        }
        return properties;
    }

    /** The statement that fills {@code t} with rows 1..rows: id, id % 1000, 'row ' || id. */
    String loadStatement(long rows) {
        return switch (this) {
            case COLUMBA, COLUMBA_WIRE -> "INSERT INTO t SELECT generate_series, CAST(generate_series % 1000 AS INT),"
                    + " 'row ' || CAST(generate_series AS VARCHAR(20)) FROM generate_series(1, " + rows + ")";
            case H2 -> "INSERT INTO t SELECT X, MOD(X, 1000), CONCAT('row ', X) FROM SYSTEM_RANGE(1, " + rows + ")";
            case SQLITE -> "WITH RECURSIVE series(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM series WHERE n < " + rows
                    + ") INSERT INTO t SELECT n, n % 1000, 'row ' || n FROM series";
            case DUCKDB -> "INSERT INTO t SELECT n, n % 1000, 'row ' || n FROM range(1, " + (rows + 1) + ") r(n)";
        };
    }

    /** Whether a failed statement should simply be run again: DuckDB's optimistic write conflicts. */
    boolean retries(java.sql.SQLException failure) {
        return this == DUCKDB && failure.getMessage() != null && failure.getMessage().contains("Conflict");
    }
}
