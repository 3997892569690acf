package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoStats;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session's columnstore read-ahead settings reach the scans SQL plans: a cold scan's requests
 * are as large as {@code columnstore_read_ahead_max_bytes} allows, and {@code read_ahead = off}
 * issues none; the cumulative {@code sys.io_stats} include what columnstore scans read.
 */
class ColumnstoreReadAheadSettingsTest {
    /** Enough rows for a compressed rowgroup (the bulk path) whose segments span many 64 KB requests. */
    private static final int ROWS = 200_000;

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void load() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        statement = connection.createStatement();
        statement.execute("CREATE TABLE wide (id BIGINT NOT NULL, noise BIGINT, label VARCHAR(40))"
                + " WITH (storage = columnstore)");
        assertEquals(ROWS, statement.executeUpdate("INSERT INTO wide SELECT generate_series,"
                + " generate_series * 7919 % 1000003, 'label ' || CAST(generate_series AS VARCHAR(20))"
                + " FROM generate_series(1, " + ROWS + ")"));
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private IoStats coldScan() throws SQLException {
        statement.execute("DBCC DROPCLEANBUFFERS");
        try (ResultSet result = statement.executeQuery("SELECT SUM(noise), COUNT(label) FROM wide")) {
            assertTrue(result.next());
            assertEquals(ROWS, result.getLong(2));
        }
        return statement.unwrap(ColumbaStatement.class).statistics().tables().get("wide");
    }

    @Test
    void requestSizeAndReadAheadFollowTheSession() throws SQLException {
        IoStats defaults = coldScan();
        assertTrue(defaults.lobReadAheadReads() > 0, defaults::toString);

        statement.execute("SET columnstore_read_ahead_max_bytes = '64KB'");
        IoStats small = coldScan();
        assertTrue(small.lobReadAheadReads() > 0, small::toString);
        assertTrue(small.readIos() > defaults.readIos(), () -> "64 KB requests: " + small + "; 8 MB: " + defaults);
        assertTrue(small.readBytes() <= small.readIos() * 65_536L, small::toString);

        statement.execute("SET read_ahead = OFF");
        IoStats off = coldScan();
        assertEquals(0, off.lobReadAheadReads(), off::toString);
        assertTrue(off.lobPhysicalReads() > 0, off::toString);
    }

    @Test
    void cumulativeIoStatsCountColumnstoreReads() throws SQLException {
        long before = lobReadAheadSoFar();
        IoStats scan = coldScan();
        assertTrue(scan.lobReadAheadReads() > 0, scan::toString);
        assertEquals(scan.lobReadAheadReads(), lobReadAheadSoFar() - before,
                "sys.io_stats adds the columnstore scan's read-ahead to its cumulative counters");
    }

    private long lobReadAheadSoFar() throws SQLException {
        try (ResultSet result = statement.executeQuery("SELECT lob_read_ahead_reads FROM sys.io_stats")) {
            assertTrue(result.next());
            return result.getLong(1);
        }
    }
}
