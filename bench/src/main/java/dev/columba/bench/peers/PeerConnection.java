package dev.columba.bench.peers;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoStats;
import dev.columba.jdbc.ColumbaStatement;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.io.OsPageCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

/**
 * One engine's benchmark connection: runs the suite's queries through JDBC and makes the engine
 * cold before a cold run. What cold means differs by engine, and is exactly this:
 *
 * <ul>
 *   <li><b>Columba</b> (both tables): {@code DBCC DROPCLEANBUFFERS} on the open connection — the
 *       buffer pool emptied of clean pages, idle columnstore segments unmapped, and every file of
 *       the database dropped from the operating system's page cache. The engine stays open, with
 *       its catalog and key statistics in memory, as SQL Server's does.</li>
 *   <li><b>DuckDB</b> and <b>H2</b>: the connection closed, which closes the database (DuckDB's
 *       instance is not pinned, H2 closes with its last connection): their buffer manager and page
 *       cache are gone. Then every file of the database is dropped from the operating system's
 *       page cache ({@code fdatasync}, then {@code POSIX_FADV_DONTNEED}), the connection opened
 *       again (the engine reads its header and catalog), and the files dropped once more, so the
 *       query finds only that metadata in the engine's memory and nothing in the page cache.</li>
 * </ul>
 *
 * <p>Both leave the JVM as it was: compiled code stays compiled, which is what a second query on a
 * long-running server would find too. Not thread-safe: one benchmark thread uses it.
 */
public final class PeerConnection implements AutoCloseable {
    private final Peer peer;
    private final Path databases;
    private final String name;
    private Connection connection;
    private IoStats lastStatistics = IoStats.ZERO;

    /** A connection to the peers suite's database of {@code peer} under {@code databases}. */
    PeerConnection(Peer peer, Path databases) {
        this(peer, databases, Peer.DATABASE_FILE);
    }

    /**
     * A connection to {@code peer}'s database named {@code name} under {@code databases}
     * ({@link Peer#url(Path, String)}).
     */
    /** The threads {@link #useThreads} asked for (kept across reconnections), 0 for the suite's default. */
    private int threads;

    public PeerConnection(Peer peer, Path databases, String name) {
        this.peer = peer;
        this.databases = databases;
        this.name = name;
        this.connection = connect();
    }

    Peer peer() {
        return peer;
    }

    /**
     * Runs {@code query} and reads all its rows.
     *
     * @throws ColumbaException INTERNAL naming the engine and the query if the driver fails
     */
    QueryResult run(TpchQuery query) {
        return run(query.title(), query.sql());
    }

    /**
     * Runs {@code sql} and reads all its rows.
     *
     * @throws ColumbaException INTERNAL naming the engine and the query ({@code title}) if the driver
     *         fails; its cause is the driver's exception
     */
    public QueryResult run(String title, String sql) {
        try (Statement statement = connection.createStatement()) {
            QueryResult result;
            try (ResultSet rows = statement.executeQuery(sql)) {
                result = QueryResult.read(rows);
            }
            lastStatistics = peer.isColumba()
                    ? statement.unwrap(ColumbaStatement.class).statistics().total() : IoStats.ZERO;
            return result;
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, peer.label() + " failed " + title + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Lets the engine's queries use {@code threads} threads: Columba's {@code max_dop}, DuckDB's
     * {@code threads} (both 1 by default in these suites, so that one core is compared with one);
     * H2 has one thread per query.
     */
    public void useThreads(int threads) {
        if (peer == Peer.H2) {
            if (threads != 1) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "H2 runs a query on one thread, not " + threads);
            }
            return;
        }
        this.threads = threads;
        String sql = peer.isColumba() ? "SET max_dop = " + threads : "SET threads = " + threads;
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, peer.label() + " failed " + sql + ": " + e.getMessage(), e);
        }
    }

    /** Columba's I/O counters of the last query (all tables added up); zero for the peers. */
    public IoStats lastStatistics() {
        return lastStatistics;
    }

    /** Makes the engine cold as the class comment says. */
    public void dropCaches() {
        if (peer.isColumba()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("DBCC DROPCLEANBUFFERS");
            } catch (SQLException e) {
                throw new ColumbaException(ErrorCode.INTERNAL, "DBCC DROPCLEANBUFFERS failed on " + peer.label() + ": "
                        + e.getMessage(), e);
            }
            return;
        }
        closeConnection();
        dropFromPageCache();
        connection = connect();
        if (threads > 0) {
            useThreads(threads);
        }
        dropFromPageCache();
    }

    /** Bytes of the engine's files now in the operating system's page cache. */
    public long residentBytes() {
        long bytes = 0;
        for (Path file : files()) {
            try (FileHandle handle = NativeFilesFacade.INSTANCE.open(file, FilesFacade.OpenMode.READ, false)) {
                bytes += OsPageCache.residentBytes(handle, 0, handle.size());
            }
        }
        return bytes;
    }

    /** Bytes of the engine's files. */
    public long databaseBytes() {
        return sizeOf(peer.directory(databases));
    }

    public static long sizeOf(Path directory) {
        long bytes = 0;
        for (Path file : regularFiles(directory)) {
            try {
                bytes += Files.size(file);
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read the size of " + file + ": " + e.getMessage(), e);
            }
        }
        return bytes;
    }

    private void dropFromPageCache() {
        for (Path file : files()) {
            try (FileHandle handle = NativeFilesFacade.INSTANCE.open(file, FilesFacade.OpenMode.READ, false)) {
                OsPageCache.dropFromPageCache(handle);
            }
        }
    }

    private List<Path> files() {
        return regularFiles(peer.directory(databases));
    }

    private static List<Path> regularFiles(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list " + directory + ": " + e.getMessage(), e);
        }
    }

    private Connection connect() {
        try {
            return DriverManager.getConnection(peer.url(databases, name), peer.properties());
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "cannot connect to " + peer.label() + " at "
                    + peer.url(databases, name) + ": " + e.getMessage(), e);
        }
    }

    private void closeConnection() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "cannot close the connection to " + peer.label() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        closeConnection();
    }
}
