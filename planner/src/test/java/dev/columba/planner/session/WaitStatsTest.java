package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.stats.WaitStats;
import dev.columba.core.stats.WaitType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sys.wait_stats} and a statement's typed waits ({@link StatementStatistics#waits()}) over
 * real threads: a parallel join whose build every worker reads a share of shows the waits of its
 * exchange (the consumer waiting for the workers' partial aggregates) and of its shared build (the
 * workers that handed in their share waiting for the last); the database's view gains exactly the
 * statement's waits; a serial statement waits for no exchange and no shared build.
 */
class WaitStatsTest {
    private static final String JOIN = "SELECT p.category, COUNT(*), SUM(s.amount) FROM sales s JOIN product p"
            + " ON s.product_id = p.product_id GROUP BY p.category";
    private static final List<WaitType> PARALLEL_WAITS = List.of(WaitType.CXPACKET, WaitType.CXCONSUMER, WaitType.HTBUILD);

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE sales (id BIGINT NOT NULL, product_id INT, amount BIGINT NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE product (product_id INT NOT NULL, category VARCHAR(10) NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 100, bulk_min_rows = 10)").close();
        update(session, "INSERT INTO sales SELECT generate_series, MOD(generate_series * 7919, 1000) + 1,"
                + " MOD(generate_series, 100) FROM generate_series(1, 60000)");
        update(session, "INSERT INTO product SELECT generate_series, 'c' || CAST(MOD(generate_series, 20) AS VARCHAR(3))"
                + " FROM generate_series(1, 1000)");
        session.execute("SET parallelism_threshold_rows = 0").close();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    /** Runs {@code sql} to the end and returns its typed statistics. */
    private StatementStatistics run(String sql) {
        try (StatementResult.Rows result = (StatementResult.Rows) session.execute(sql)) {
            for (Batch batch = result.next(); batch != null; batch = result.next()) {
                assertTrue(batch.selectedCount() > 0);
            }
            return result.statistics();
        }
    }

    /** sys.wait_stats as wait type to (waits, milliseconds); WRITELOG's time is NULL. */
    private Map<String, List<Object>> view() {
        Map<String, List<Object>> rows = new java.util.LinkedHashMap<>();
        for (List<Object> row : query(session, "SELECT wait_type, waits, wait_time_ms FROM sys.wait_stats")) {
            rows.put((String) row.get(0), row.subList(1, 3));
        }
        return rows;
    }

    private Map<WaitType, Long> viewCounts() {
        Map<WaitType, Long> counts = new EnumMap<>(WaitType.class);
        view().forEach((type, row) -> {
            if (!type.equals("WRITELOG")) {
                counts.put(WaitType.valueOf(type), (Long) row.get(0));
            }
        });
        return counts;
    }

    @Test
    void theViewListsEveryWaitTypeAndTheLogsSyncs() {
        List<String> expected = new ArrayList<>();
        for (WaitType type : WaitType.values()) {
            expected.add(type.name());
        }
        expected.add("WRITELOG");
        Map<String, List<Object>> view = view();
        assertEquals(expected, List.copyOf(view.keySet()));
        assertTrue((Long) view.get("WRITELOG").get(0) > 0, "the inserts synced the log");
    }

    /**
     * The parallel join's waits are certain to happen somewhere, but a worker that is descheduled
     * at the wrong moment may find its table built or its batch taken without waiting; so the join
     * runs until one run showed both kinds (at most ten runs), and every run's waits must match
     * what the view gained.
     */
    @Test
    void aParallelJoinWaitsForItsExchangeAndItsSharedBuildAndTheViewGainsExactlyThat() {
        session.execute("SET max_dop = 3").close();
        boolean sawBoth = false;
        for (int attempt = 0; attempt < 10 && !sawBoth; attempt++) {
            Map<WaitType, Long> before = viewCounts();
            WaitStats waits = run(JOIN).waits();
            Map<WaitType, Long> after = viewCounts();
            for (WaitType type : PARALLEL_WAITS) {
                assertEquals(waits.get(type).count(), after.get(type) - before.get(type), type + ": the view gained the statement's");
            }
            sawBoth = waits.get(WaitType.CXCONSUMER).count() > 0 && waits.get(WaitType.HTBUILD).count() > 0;
            if (waits.get(WaitType.CXCONSUMER).count() > 0) {
                assertTrue(waits.get(WaitType.CXCONSUMER).nanos() > 0, waits.toString());
            }
        }
        assertTrue(sawBoth, "in ten runs of a join on three workers, none waited for both its exchange and its build");
    }

    @Test
    void aSerialStatementWaitsForNoExchangeAndNoSharedBuild() {
        session.execute("SET max_dop = 1").close();
        Map<WaitType, Long> before = viewCounts();
        WaitStats waits = run(JOIN).waits();
        Map<WaitType, Long> after = viewCounts();
        for (WaitType type : PARALLEL_WAITS) {
            assertEquals(0, waits.get(type).count(), type.name());
            assertEquals(before.get(type), after.get(type), type.name());
        }
    }
}
