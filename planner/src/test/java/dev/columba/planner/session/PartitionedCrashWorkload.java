package dev.columba.planner.session;

import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * The child process of {@link PartitionedCrashTest}: creates (once) a table hash-partitioned over two
 * filegroups of one file each, then inserts batches of {@link #ROWS_PER_BATCH} rows into it, one
 * transaction each, printing {@code C <batch>} after each commit returns, until it is killed.
 */
public final class PartitionedCrashWorkload {
    static final String TABLE = "spread";
    static final int ROWS_PER_BATCH = 500;

    private PartitionedCrashWorkload() {
    }

    static Engine open(Path directory) {
        Properties properties = new Properties();
        // A small pool, so committed pages are evicted (written to both files) while later batches commit.
        properties.setProperty("buffer_pool_size", "2MB");
        properties.setProperty("wal_segment_size", "1MB");
        properties.setProperty("checkpoint_wal_size", "1MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        Engine engine = open(directory);
        Session session = engine.openSession();
        if (SessionRows.query(session, "SELECT COUNT(*) FROM sys.tables WHERE table_name = '" + TABLE + "'")
                .getFirst().getFirst().toString().equals("0")) {
            session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg1");
            session.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg2");
            session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'f1.data') TO FILEGROUP fg1");
            session.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f2, FILENAME = 'f2.data') TO FILEGROUP fg2");
            session.execute("CREATE TABLE " + TABLE + " (id INT NOT NULL, batch BIGINT NOT NULL, payload VARCHAR(200))"
                    + " PARTITION BY HASH (id) PARTITIONS 4 ON (fg1, fg2)");
        }
        List<List<Object>> last = SessionRows.query(session, "SELECT COALESCE(MAX(batch), 0) FROM " + TABLE);
        long batch = ((Number) last.getFirst().getFirst()).longValue();
        while (true) {
            batch++;
            long first = (batch - 1) * ROWS_PER_BATCH + 1;
            session.execute("INSERT INTO " + TABLE + " SELECT x, " + batch + ", REPEAT('p', 150) FROM generate_series("
                    + first + ", " + (first + ROWS_PER_BATCH - 1) + ") AS g(x)");
            System.out.println("C " + batch);
            System.out.flush();
        }
    }
}
