package dev.columba.trino;

import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The writer process of {@link LiveDatabaseOnTrinoTest}'s snapshot test, run in a child JVM: the
 * embedded engine (Columba's driver) with a database open, writing until its standard input closes.
 * Each round inserts 64 rows (id, id * 7, 'row ' || id) into a columnstore table ({@code live}, whose
 * 2,048-row delta rowgroups the engine's tuple mover compresses as they close), a heap and a clustered
 * table, the same rows in one transaction; every third round deletes ten older ids from all three in
 * one transaction; every {@link #REORGANIZE_EVERY} rounds it merges the columnstore's rowgroups
 * ({@code ALTER INDEX ALL ON live REORGANIZE}). After each commit it prints {@code state <n> <rows>}:
 * the n-th committed state holds that many rows in each table. At the end it prints {@code closed <rows>}.
 */
public final class SnapshotWriter {
    static final String TABLES = """
            CREATE TABLE live (id BIGINT NOT NULL, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL)
              WITH (storage = columnstore, rowgroup_max_rows = 2048, bulk_min_rows = 1000000);
            CREATE TABLE heap_live (id BIGINT NOT NULL, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL);
            CREATE TABLE clustered_live (id BIGINT NOT NULL, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL,
              PRIMARY KEY CLUSTERED (id))""";
    static final List<String> WRITTEN = List.of("live", "heap_live", "clustered_live");
    private static final int INSERT_ROWS = 64;
    private static final int DELETE_ROWS = 10;
    static final int REORGANIZE_EVERY = 25;

    private SnapshotWriter() {
    }

    public static void main(String[] arguments) throws Exception {
        AtomicBoolean stopping = new AtomicBoolean();
        Thread.ofPlatform().daemon().start(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // the parent closes it to stop us
                }
            } catch (IOException ignored) {
                // a closed pipe means the same
            }
            stopping.set(true);
        });
        long rows = 0;
        long state = 0;
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + arguments[0]);
             Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            long next = 1;
            for (long round = 1; !stopping.get(); round++) {
                long inserted = 0;
                for (String table : WRITTEN) {
                    inserted = statement.executeUpdate("INSERT INTO " + table + " SELECT n, n * 7, 'row ' || CAST(n AS VARCHAR(20))"
                            + " FROM generate_series(CAST(" + next + " AS BIGINT), " + (next + INSERT_ROWS - 1) + ") AS g(n)");
                }
                connection.commit();
                next += INSERT_ROWS;
                rows += inserted;
                System.out.println("state " + ++state + " " + rows);
                if (round % 3 == 0) {
                    // Ten ids of an older insert, by now in a compressed rowgroup or a delta one.
                    long first = Math.max(1, next - 40 * INSERT_ROWS + round % INSERT_ROWS);
                    long deleted = 0;
                    for (String table : WRITTEN) {
                        deleted = statement.executeUpdate("DELETE FROM " + table + " WHERE id BETWEEN " + first + " AND "
                                + (first + DELETE_ROWS - 1));
                    }
                    connection.commit();
                    rows -= deleted;
                    System.out.println("state " + ++state + " " + rows);
                }
                if (round % REORGANIZE_EVERY == 0) {
                    connection.setAutoCommit(true);
                    statement.execute("ALTER INDEX ALL ON live REORGANIZE");
                    connection.setAutoCommit(false);
                    System.out.println("reorganized");
                }
            }
        }
        System.out.println("closed " + rows);
    }
}
