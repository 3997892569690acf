package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The application's Micrometer registry gets the database's meters, agreeing with STATISTICS IO. */
class MetricsTest {
    @TempDir
    Path directory;

    private static double logicalReads(SimpleMeterRegistry registry) {
        return registry.get("columba.pages.read").tag("database", "sales").tag("kind", "logical").functionCounter().count();
    }

    @Test
    void anApplicationsRegistryCountsWhatStatementsRead() throws SQLException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), DriverTest.small());
             Statement statement = connection.createStatement()) {
            connection.unwrap(ColumbaConnection.class).bindMetrics(registry, "sales");
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))");
            statement.execute("INSERT INTO t SELECT generate_series, 'row' FROM generate_series(1, 5000)");
            statement.execute("SET STATISTICS IO ON");
            // Planned once first: planning reads the catalog's pages, which the pool's meter counts and
            // STATISTICS IO (tables only) does not; the second run takes its plan from the cache.
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(name) FROM t")) {
                assertTrue(rows.next());
            }
            // The pool's meter counts every reader of the database, background work too (a checkpoint reading a
            // page now and then): a read of theirs may fall inside one measurement, not inside three in a row.
            List<String> attempts = new ArrayList<>();
            for (int attempt = 0; attempt < 3; attempt++) {
                statement.clearWarnings();
                double before = logicalReads(registry);
                try (ResultSet rows = statement.executeQuery("SELECT COUNT(name) FROM t")) {
                    assertTrue(rows.next());
                    assertEquals(5000, rows.getLong(1));
                    assertTrue(!rows.next());
                }
                double counted = logicalReads(registry) - before;
                String io = statement.getWarnings().getMessage();
                long logical = Long.parseLong(io.replaceAll("^.*?Scan count \\d+, logical reads (\\d+),.*$", "$1"));
                assertTrue(logical > 0, io);
                if (counted == logical) {
                    break;
                }
                attempts.add("meter " + counted + " against " + io);
                assertTrue(attempt < 2, "the meter counts the reads STATISTICS IO reported: " + attempts);
            }
            assertTrue(registry.get("columba.buffer_pool.hit_ratio").tag("database", "sales").gauge().value() > 0);
        }
        assertThrows(SQLException.class, () -> {
            try (Connection connection = DriverManager.getConnection("jdbc:columba:mem:m")) {
                connection.unwrap(ColumbaConnection.class).bindMetrics(null, "x");
            }
        });
    }

    @Test
    void statementsPlansAndCommitsAreCountedAsTheyHappen() throws SQLException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), DriverTest.small());
             Statement statement = connection.createStatement()) {
            connection.unwrap(ColumbaConnection.class).bindMetrics(registry, "sales");
            statement.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20))");
            double statements = counter(registry, "columba.statements");
            double failed = counter(registry, "columba.statements.failed");
            double hits = counter(registry, "columba.plan_cache.hits");
            double plans = registry.get("columba.planning").tag("database", "sales").functionTimer().count();
            double commits = registry.get("columba.commits").tag("database", "sales").tag("durability", "full")
                    .functionCounter().count();
            try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int id = 1; id <= 3; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, "n" + id);
                    insert.executeUpdate();
                }
            }
            assertThrows(SQLException.class, () -> statement.execute("INSERT INTO t VALUES (1, 'duplicate')"));
            assertEquals(statements + 4, counter(registry, "columba.statements"));
            assertEquals(failed + 1, counter(registry, "columba.statements.failed"));
            // Every run either made its plan or found it cached: four runs. The prepared INSERT is found at
            // least once (its first run into the empty table may move the statistics and so plan it twice).
            double planned = registry.get("columba.planning").tag("database", "sales").functionTimer().count() - plans;
            double found = counter(registry, "columba.plan_cache.hits") - hits;
            assertEquals(4, planned + found, planned + " planned, " + found + " found");
            assertTrue(found >= 1 && planned >= 2, planned + " planned, " + found + " found");
            assertTrue(registry.get("columba.planning").tag("database", "sales").functionTimer()
                    .totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) > 0);
            assertEquals(commits + 3, registry.get("columba.commits").tag("database", "sales").tag("durability", "full")
                    .functionCounter().count(), "three autocommitted inserts; the failed one commits nothing");
            assertEquals(1.0, registry.get("columba.sessions").tag("database", "sales").gauge().value());
        }
    }

    private static double counter(SimpleMeterRegistry registry, String name) {
        return registry.get(name).tag("database", "sales").functionCounter().count();
    }
}
