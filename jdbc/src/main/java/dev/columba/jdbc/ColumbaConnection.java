package dev.columba.jdbc;

import dev.columba.planner.copy.CopyProgress;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.SQLException;

/**
 * What a Columba connection offers beyond JDBC, reached with
 * {@code connection.unwrap(ColumbaConnection.class)}.
 */
public interface ColumbaConnection {

    /**
     * An appender that loads rows into {@code table} without SQL per row, as DuckDB's appender
     * does: values are appended one by one with typed methods, and each flush inserts the rows
     * appended since the last one as one statement through the path a PreparedStatement's
     * {@code executeBatch} takes (see {@link ColumbaAppender}).
     *
     * @param table the table's name (as SQL names it, without quotes; case is ignored)
     * @throws SQLException 42P01 if there is no such table, 08003 if the connection is closed
     */
    ColumbaAppender appender(String table) throws SQLException;

    /**
     * Receives the progress of every {@code COPY ... FROM} a CSV file this connection runs from now
     * on: every million rows, the rows so far, the bytes read and the file's size ({@link
     * CopyProgress}), on the thread executing the COPY, while the statement runs (the shell prints
     * it). The listener must return quickly and must not use the connection. Replaces the previous
     * one; {@code progress -> { }} stops the reports.
     *
     * @throws SQLException 08003 if the connection is closed
     */
    void setCopyProgress(java.util.function.Consumer<CopyProgress> listener) throws SQLException;

    /**
     * Registers the database's meters with the application's Micrometer {@code registry}: pages
     * read by kind, read-ahead used and wasted, the sizes of the read requests sent to the
     * operating system, the time statements waited for page reads, the buffer pool's hit ratio and
     * pages (see {@code StorageMetrics}); statements executed and failed, plans made (and the time
     * planning took) and cached plans run, commits, log syncs and bytes, open sessions, and warnings
     * and errors of the engine's own work as {@code sys.event_log} keeps them (see
     * {@code EngineMetrics}). They are tagged {@code database=<name>}; the counters are
     * functions over the engine's cumulative statistics, so they agree with STATISTICS IO. The
     * meters belong to the database, not to this connection: registering from a second connection
     * to the same registry adds nothing.
     *
     * @param name the {@code database} tag, to tell several databases apart in one registry
     */
    void bindMetrics(MeterRegistry registry, String name) throws SQLException;

    /**
     * The SCRAM-SHA-256 verifier ({@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>})
     * of the login {@code name}, ignoring case, as committed; empty if there is none. For a server
     * authenticating its clients ({@code CREATE LOGIN}); a verifier holds no password.
     *
     * @throws SQLException 08003 if the connection is closed
     */
    java.util.Optional<String> loginVerifier(String name) throws SQLException;

    /** How many logins ({@code CREATE LOGIN}) the database holds, as committed. */
    int loginCount() throws SQLException;

    /**
     * Runs this connection for the login {@code name} from now on, with no way back: it may then do only
     * what that login may (managing logins takes a member of sysadmin), checked against the catalog at each
     * statement. A connection never so marked acts for the database's owner, who opened its files. For a
     * server that authenticated a client as that login.
     *
     * @throws SQLException 22023 if the connection already runs for a login, 08003 if it is closed
     */
    void authenticatedAs(String name) throws SQLException;
}
