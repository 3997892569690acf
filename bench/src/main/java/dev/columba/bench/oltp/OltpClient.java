package dev.columba.bench.oltp;

import dev.columba.jdbc.ColumbaAppender;
import dev.columba.jdbc.ColumbaConnection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One client thread: its own connection and, for the prepared workloads, its PreparedStatement,
 * prepared once per trial and executed again and again. Each statement's result is checked (the
 * row found, 100 rows in range, one row written), so a wrong answer fails the benchmark. The
 * connection belongs to {@link OltpDatabase}, which closes it.
 */
@State(Scope.Thread)
public class OltpClient {
    private Connection connection;
    private PreparedStatement prepared;
    private String preparedSql;
    private Statement adHoc;
    private ColumbaAppender columbaAppender;
    private DuckDBAppender duckdbAppender;
    private SplittableRandom random;
    private long[] latencies = new long[1024];
    /** Added up from what the selects read, so that nothing read is dead code. */
    private long checksum;

    @Setup(Level.Trial)
    public void open(OltpDatabase database) throws SQLException {
        connection = database.connect();
        random = new SplittableRandom(Thread.currentThread().threadId() * 31 + database.engine.ordinal());
        String sql = switch (database.workload) {
            case POINT_PREPARED, POINT_AD_HOC -> "SELECT v, s FROM t WHERE id = ?";
            case INSERT_PREPARED, INSERT_DELAYED, INSERT_BATCH, INSERT_BATCH_DELAYED, APPEND -> "INSERT INTO ins (id, v, s) VALUES (?, ?, ?)";
            case RANGE_100 -> "SELECT id, v, s FROM t WHERE id BETWEEN ? AND ?";
            case UPDATE_BY_KEY -> "UPDATE t SET v = v + 1 WHERE id = ?";
        };
        if (database.workload.commitsNotSynced()) {
            try (Statement setting = connection.createStatement()) {
                switch (database.engine) {
                    case COLUMBA, COLUMBA_WIRE -> setting.execute("SET delayed_durability = on");
                    case SQLITE -> setting.execute("PRAGMA synchronous = NORMAL");
                    case H2, DUCKDB -> {
                        // H2 never syncs a commit; DuckDB cannot be told not to.
                    }
                }
            }
        }
        if (database.workload == OltpWorkload.POINT_AD_HOC) {
            adHoc = connection.createStatement();
        } else if (database.workload == OltpWorkload.APPEND && database.engine == OltpEngine.COLUMBA) {
            columbaAppender = connection.unwrap(ColumbaConnection.class).appender("ins");
        } else if (database.workload == OltpWorkload.APPEND && database.engine == OltpEngine.DUCKDB) {
            duckdbAppender = connection.unwrap(DuckDBConnection.class).createAppender("main", "ins");
        } else {
            prepared = connection.prepareStatement(sql);
            preparedSql = sql;
        }
    }

    /** Runs the workload's statements for {@code database.millis} and hands what it measured to the database. */
    public long runFor(OltpDatabase database) throws SQLException {
        long start = System.nanoTime();
        long deadline = start + database.millis * 1_000_000L;
        int count = 0;
        long now = start;
        while (now < deadline) {
            runOne(database);
            long finished = System.nanoTime();
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = finished - now;
            now = finished;
        }
        database.add(new OltpDatabase.Measured(count, now - start, Arrays.copyOf(latencies, count)));
        return checksum;
    }

    private void runOne(OltpDatabase database) throws SQLException {
        while (true) {
            try {
                execute(database);
                return;
            } catch (SQLException e) {
                if (!database.engine.retries(e)) {
                    throw e;
                }
                // DuckDB's driver closes a prepared statement whose execution failed (a write
                // conflict it asks to retry): prepare it again before the retry.
                if (prepared != null && prepared.isClosed()) {
                    prepared = connection.prepareStatement(preparedSql);
                }
            }
        }
    }

    private void execute(OltpDatabase database) throws SQLException {
        long key = 1 + random.nextLong(database.rows);
        switch (database.workload) {
            case POINT_PREPARED -> {
                prepared.setLong(1, key);
                try (ResultSet rows = prepared.executeQuery()) {
                    readPoint(rows, key);
                }
            }
            case POINT_AD_HOC -> {
                try (ResultSet rows = adHoc.executeQuery("SELECT v, s FROM t WHERE id = " + key)) {
                    readPoint(rows, key);
                }
            }
            case INSERT_PREPARED, INSERT_DELAYED -> {
                long id = database.nextInsertKey();
                bindInsert(id);
                expectWritten(prepared.executeUpdate(), 1, "insert");
            }
            case APPEND -> {
                long first = database.nextInsertKeys(OltpWorkload.BATCH_ROWS);
                if (columbaAppender != null) {
                    for (int row = 0; row < OltpWorkload.BATCH_ROWS; row++) {
                        long id = first + row;
                        columbaAppender.appendLong(id).appendInt((int) (id % 1000)).appendString("row " + id).endRow();
                    }
                    columbaAppender.flush();
                } else if (duckdbAppender != null) {
                    for (int row = 0; row < OltpWorkload.BATCH_ROWS; row++) {
                        long id = first + row;
                        duckdbAppender.beginRow().append(id).append((int) (id % 1000)).append("row " + id).endRow();
                    }
                    duckdbAppender.flush();
                } else {
                    insertBatch(first);
                }
            }
            case INSERT_BATCH, INSERT_BATCH_DELAYED -> {
                long first = database.nextInsertKeys(OltpWorkload.BATCH_ROWS);
                insertBatch(first);
            }
            case RANGE_100 -> {
                long low = 1 + random.nextLong(database.rows - OltpWorkload.RANGE_ROWS + 1);
                prepared.setLong(1, low);
                prepared.setLong(2, low + OltpWorkload.RANGE_ROWS - 1);
                int read = 0;
                try (ResultSet rows = prepared.executeQuery()) {
                    while (rows.next()) {
                        checksum += rows.getLong(1) + rows.getInt(2) + rows.getString(3).length();
                        read++;
                    }
                }
                if (read != OltpWorkload.RANGE_ROWS) {
                    throw new IllegalStateException("range from " + low + " read " + read + " rows");
                }
            }
            case UPDATE_BY_KEY -> {
                prepared.setLong(1, key);
                expectWritten(prepared.executeUpdate(), 1, "update of key " + key);
            }
        }
    }

    private void insertBatch(long first) throws SQLException {
        for (int row = 0; row < OltpWorkload.BATCH_ROWS; row++) {
            bindInsert(first + row);
            prepared.addBatch();
        }
        int[] counts = prepared.executeBatch();
        if (counts.length != OltpWorkload.BATCH_ROWS) {
            throw new IllegalStateException("executeBatch returned " + counts.length + " counts");
        }
    }

    private void bindInsert(long id) throws SQLException {
        prepared.setLong(1, id);
        prepared.setInt(2, (int) (id % 1000));
        prepared.setString(3, "row " + id);
    }

    private void readPoint(ResultSet rows, long key) throws SQLException {
        if (!rows.next()) {
            throw new IllegalStateException("key " + key + " not found");
        }
        checksum += rows.getInt(1) + rows.getString(2).length();
        if (rows.next()) {
            throw new IllegalStateException("key " + key + " found twice");
        }
    }

    private static void expectWritten(int count, int expected, String what) {
        if (count != expected) {
            throw new IllegalStateException(what + " wrote " + count + " rows, expected " + expected);
        }
    }
}
