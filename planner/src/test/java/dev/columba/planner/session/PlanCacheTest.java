package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's plan cache through sessions with the real planner: which executions plan (a hit,
 * a miss), what makes a cached plan stale (DDL, DROP and re-CREATE of a same-named table, a
 * statistics change, a setting that changes plans), {@code OPTION (RECOMPILE)}, a statement
 * re-executed with other parameters and parameter types, results equal with and without the cache,
 * {@code sys.plan_cache}, STATISTICS TIME's compile line, and two sessions running one cached plan
 * at once. The planner is wrapped to record every statement it plans.
 */
class PlanCacheTest {
    @TempDir
    Path directory;

    private final List<String> planned = Collections.synchronizedList(new ArrayList<>());
    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        engine = Engine.open(directory, properties, (catalog, settings, statement, cancel) -> {
            planned.add(statement.toString());
            return new QueryPlanner(catalog, settings).plan(statement);
        });
        session = engine.openSession();
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20) NOT NULL)");
        session.execute("INSERT INTO t SELECT generate_series, CAST(generate_series % 10 AS INT), 'row ' || "
                + "CAST(generate_series AS VARCHAR(20)) FROM generate_series(1, 1000)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static final String POINT = "SELECT v, s FROM t WHERE id = ?";

    /** How many times statements whose text contains {@code fragment} were planned since the last call. */
    private long plannedSince(String fragment) {
        synchronized (planned) {
            long count = planned.stream().filter(text -> text.contains(fragment)).count();
            planned.clear();
            return count;
        }
    }

    @Test
    void aPreparedStatementIsPlannedOnceAndRunsWithEachExecutionsValues() {
        plannedSince("");
        for (long id = 1; id <= 20; id++) {
            assertEquals(List.of(List.of((int) (id % 10), "row " + id)), SessionRows.queryWith(session, POINT, id));
        }
        assertEquals(1, plannedSince("`t`"), "one plan for twenty executions");
        // The same text with other whitespace is the same statement.
        assertEquals(List.of(List.of(7, "row 7")), SessionRows.queryWith(session, "SELECT v, s\n  FROM t   WHERE id = ?", 7L));
        assertEquals(0, plannedSince("`t`"));
        // Another session finds the plan too: the cache is the engine's.
        try (Session other = engine.openSession()) {
            assertEquals(List.of(List.of(3, "row 3")), SessionRows.queryWith(other, POINT, 3L));
        }
        assertEquals(0, plannedSince("`t`"));
        // Other text is another plan.
        assertEquals(List.of(List.of(5)), SessionRows.queryWith(session, "SELECT v FROM t WHERE id = ?", 5L));
        assertEquals(1, plannedSince("`t`"));
    }

    @Test
    void parametersOfOtherJavaTypesConvertToTheCachedPlansParameterTypes() {
        assertEquals(List.of(List.of(4, "row 4")), SessionRows.queryWith(session, POINT, 4L));
        assertEquals(List.of(List.of(5, "row 5")), SessionRows.queryWith(session, POINT, 5));
        assertEquals(List.of(List.of(6, "row 6")), SessionRows.queryWith(session, POINT, (short) 6));
        assertEquals(List.of(), SessionRows.queryWith(session, POINT, 5000L));
        plannedSince("");
        String range = "SELECT id FROM t WHERE id BETWEEN ? AND ? AND s <> ?";
        assertEquals(List.of(List.of(10L), List.of(12L)), SessionRows.queryWith(session, range, 10L, 12L, "row 11"));
        assertEquals(List.of(List.of(998L), List.of(999L), List.of(1000L)), SessionRows.queryWith(session, range, 998, 2000L, "x"));
        assertEquals(1, plannedSince("BETWEEN"));
        ColumbaException wrongCount = assertThrows(ColumbaException.class, () -> session.execute(POINT, List.of()));
        assertEquals(ErrorCode.INVALID_ARGUMENT, wrongCount.errorCode());
    }

    @Test
    void cachedPlansGiveTheRowsOfFreshPlans() {
        List<String> queries = List.of(
                "SELECT v, COUNT(*), MIN(s) FROM t WHERE id < 500 GROUP BY v ORDER BY v",
                "SELECT a.id, b.s FROM t a JOIN t b ON a.id = b.id + 1 WHERE a.id < 20 ORDER BY a.id",
                "SELECT id FROM t WHERE id IN (3, 30, 300) ORDER BY id",
                "SELECT s FROM t WHERE v = 3 AND id > 990 ORDER BY s");
        for (String query : queries) {
            List<List<Object>> fresh = SessionRows.queryWith(session, query + " OPTION (RECOMPILE)");
            plannedSince("");
            List<List<Object>> first = SessionRows.queryWith(session, query);
            List<List<Object>> cached = SessionRows.queryWith(session, query);
            assertEquals(1, plannedSince(""), query);
            assertEquals(fresh, first, query);
            assertEquals(fresh, cached, query);
            assertTrue(!fresh.isEmpty(), query);
        }
    }

    @Test
    void optionRecompilePlansEveryTimeAndKeepsNothing() {
        String sql = "SELECT v FROM t WHERE id = ? OPTION (RECOMPILE)";
        plannedSince("");
        for (long id = 1; id <= 3; id++) {
            assertEquals(List.of(List.of((int) (id % 10))), SessionRows.queryWith(session, sql, id));
        }
        assertEquals(3, plannedSince("`t`"));
        assertTrue(cachedTexts().stream().noneMatch(text -> text.contains("RECOMPILE")), cachedTexts().toString());
    }

    @Test
    void ddlOnTheTableMakesItsPlansStale() {
        plannedSince("");
        SessionRows.queryWith(session, POINT, 1L);
        SessionRows.queryWith(session, POINT, 2L);
        assertEquals(1, plannedSince("`t`"));
        session.execute("CREATE INDEX t_v ON t (v)");
        assertEquals(List.of(List.of(1, "row 1")), SessionRows.queryWith(session, POINT, 1L));
        assertEquals(1, plannedSince("`t`"), "planned again after CREATE INDEX");
        SessionRows.queryWith(session, POINT, 2L);
        assertEquals(0, plannedSince("`t`"), "and cached again");
    }

    @Test
    void dropAndCreateOfATableWithTheSameNameIsPlannedAgainstTheNewTable() {
        String sql = "SELECT * FROM t WHERE id = ?";
        assertEquals(List.of(List.of(1L, 1, "row 1")), SessionRows.queryWith(session, sql, 1L));
        session.execute("DROP TABLE t");
        ColumbaException gone = assertThrows(ColumbaException.class, () -> SessionRows.queryWith(session, sql, 1L));
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, gone.errorCode());
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, label VARCHAR(10) NOT NULL)");
        session.execute("INSERT INTO t VALUES (1, 'new')");
        assertEquals(List.of(List.of(1L, "new")), SessionRows.queryWith(session, sql, 1L));
    }

    @Test
    void ddlInsideAnOpenTransactionIsNotSeenThroughTheCacheAndRollbackLeavesNoPlan() {
        session.setAutoCommit(false);
        session.execute("CREATE TABLE scratch (id INT PRIMARY KEY)");
        session.execute("INSERT INTO scratch VALUES (1)");
        plannedSince("");
        assertEquals(List.of(List.of(1)), SessionRows.queryWith(session, "SELECT id FROM scratch"));
        assertEquals(List.of(List.of(1)), SessionRows.queryWith(session, "SELECT id FROM scratch"));
        assertEquals(2, plannedSince("scratch"), "not cached while the transaction's DDL is uncommitted");
        session.rollback();
        session.setAutoCommit(true);
        ColumbaException gone = assertThrows(ColumbaException.class, () -> SessionRows.queryWith(session, "SELECT id FROM scratch"));
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, gone.errorCode());
    }

    @Test
    void aStatisticsChangeMakesPlansStale() {
        session.execute("CREATE TABLE empty_then_filled (id BIGINT PRIMARY KEY, v INT)");
        String sql = "SELECT COUNT(*) FROM empty_then_filled WHERE id < ?";
        long before = engine.statistics().version();
        assertEquals(List.of(List.of(0L)), SessionRows.queryWith(session, sql, 100L));
        assertEquals(List.of(List.of(0L)), SessionRows.queryWith(session, sql, 100L));
        assertEquals(1, plannedSince("< ?"));
        // The first insert into the empty table establishes its key bounds: a statistics change.
        session.execute("INSERT INTO empty_then_filled SELECT generate_series, 1 FROM generate_series(1, 50)");
        assertNotEquals(before, engine.statistics().version());
        assertEquals(List.of(List.of(50L)), SessionRows.queryWith(session, sql, 100L));
        assertEquals(1, plannedSince("< ?"), "planned again with the new bounds");
        // A few more ascending keys widen the bounds by less than the threshold: the plan stays.
        long widened = engine.statistics().version();
        session.execute("INSERT INTO empty_then_filled VALUES (51, 1)");
        assertEquals(widened, engine.statistics().version());
        assertEquals(List.of(List.of(51L)), SessionRows.queryWith(session, sql, 100L));
        assertEquals(0, plannedSince("< ?"));
    }

    /**
     * One-row inserts into a columnstore table change its gathered figures every time (its delta
     * rows), but move the statistics version only by the rule of key bounds (the first rows, then
     * growth by 20% + 500 rows): the insert and every other cached plan stay cached across them.
     */
    @Test
    void aStreamOfInsertsIntoAColumnstoreTableKeepsThePlansCached() {
        session.execute("CREATE TABLE cs (id BIGINT, v INT) WITH (storage = columnstore)");
        String insert = "INSERT INTO cs VALUES (?, ?)";
        session.execute(insert, List.of(0L, 0));
        session.execute(insert, List.of(0L, 0)); // planned again: the first row moved the version
        SessionRows.queryWith(session, POINT, 1L);
        plannedSince("");
        long before = engine.statistics().version();
        for (long id = 1; id <= 30; id++) {
            session.execute(insert, List.of(id, (int) id));
            assertEquals(List.of(List.of((int) (id % 10), "row " + id)), SessionRows.queryWith(session, POINT, id));
        }
        assertEquals(0, plannedSince(""), "the insert and the point select ran their cached plans");
        assertEquals(before, engine.statistics().version());
        assertEquals(List.of(List.of(32L, 30L)), SessionRows.queryWith(session, "SELECT COUNT(*), MAX(id) FROM cs"));
        // Growth past the threshold moves it, and the insert is planned again.
        session.execute("INSERT INTO cs SELECT generate_series, 1 FROM generate_series(100, 700)");
        assertNotEquals(before, engine.statistics().version());
        plannedSince("");
        session.execute(insert, List.of(1000L, 1));
        assertEquals(1, plannedSince("`cs`"));
    }

    @Test
    void aSettingThatChangesPlansSelectsAnotherPlan() {
        String join = "SELECT COUNT(*) FROM t a JOIN t b ON a.id = b.id WHERE a.id < ?";
        assertEquals(List.of(List.of(9L)), SessionRows.queryWith(session, join, 10L));
        assertEquals(1, plannedSince("JOIN"));
        session.execute("SET prefetch = off");
        assertEquals(List.of(List.of(9L)), SessionRows.queryWith(session, join, 10L));
        assertEquals(1, plannedSince("JOIN"), "another plan under prefetch = off");
        session.execute("SET prefetch = on");
        assertEquals(List.of(List.of(19L)), SessionRows.queryWith(session, join, 20L));
        assertEquals(0, plannedSince("JOIN"), "the first plan again");
        // A setting the planner does not read leaves the plan as it is.
        session.execute("SET batch_size = 100");
        assertEquals(List.of(List.of(19L)), SessionRows.queryWith(session, join, 20L));
        assertEquals(0, plannedSince("JOIN"));
    }

    @Test
    void sysPlanCacheShowsTextUsesAndPlanningTime() {
        for (long id = 1; id <= 3; id++) {
            SessionRows.queryWith(session, POINT, id);
        }
        List<List<Object>> cache = SessionRows.queryWith(session, "SELECT sql_text, use_count, planning_time_ms, created, last_used "
                + "FROM sys.plan_cache WHERE sql_text = '" + POINT + "'");
        assertEquals(1, cache.size(), cache.toString());
        List<Object> entry = cache.getFirst();
        assertEquals(3L, entry.get(1));
        assertTrue((Double) entry.get(2) > 0, entry.toString());
        assertTrue(((java.time.LocalDateTime) entry.get(4)).compareTo((java.time.LocalDateTime) entry.get(3)) >= 0);
        // A query of a system view is not kept: its rows come from the catalog as it was when planned.
        assertTrue(cachedTexts().stream().noneMatch(text -> text.contains("sys.plan_cache")), cachedTexts().toString());
    }

    @Test
    void statisticsTimeReportsCompileTimeAndZeroForACachedPlan() {
        session.execute("SET STATISTICS TIME ON");
        List<String> first = messages(session.execute(POINT, List.of(1L)));
        List<String> second = messages(session.execute(POINT, List.of(2L)));
        String compile = "SQL Server parse and compile time: \\R   CPU time = \\d+ ms, elapsed time = \\d+ ms\\.";
        String execution = " SQL Server Execution Times:\\R   CPU time = \\d+ ms,  elapsed time = \\d+ ms\\.";
        assertEquals(2, first.size(), first.toString());
        assertTrue(first.get(0).matches(compile), first.get(0));
        assertTrue(first.get(1).matches(execution), first.get(1));
        assertEquals(2, second.size(), second.toString());
        assertEquals(String.format("SQL Server parse and compile time: %n   CPU time = 0 ms, elapsed time = 0 ms."),
                second.get(0));
        assertTrue(second.get(1).matches(execution), second.get(1));
    }

    /**
     * The thread's CPU clock is read only for a timed statement: with STATISTICS TIME off a query
     * and an update say their CPU time was not measured and print no time lines; with it on, the
     * same statements measure it. Whether a query is timed is settled when it starts.
     */
    @Test
    void cpuTimeIsMeasuredOnlyWithStatisticsTimeOn() {
        StatementResult.Rows untimed = (StatementResult.Rows) session.execute(POINT, List.of(3L));
        assertEquals(List.of(), messages(untimed));
        assertEquals(StatementStatistics.NOT_MEASURED, untimed.statistics().cpuNanos());
        assertTrue(untimed.statistics().elapsedNanos() > 0);
        StatementResult untimedUpdate = session.execute("UPDATE t SET v = v + 1 WHERE id = ?", List.of(3L));
        assertEquals(StatementStatistics.NOT_MEASURED, untimedUpdate.statistics().cpuNanos());
        assertEquals(List.of(), untimedUpdate.messages());

        StatementResult.Rows open = (StatementResult.Rows) session.execute(POINT, List.of(4L));
        session.execute("SET STATISTICS TIME ON");
        assertEquals(List.of(), messages(open), "a query started untimed stays untimed");
        StatementResult.Rows timed = (StatementResult.Rows) session.execute(POINT, List.of(3L));
        assertEquals(2, messages(timed).size());
        assertTrue(timed.statistics().cpuNanos() >= 0, "cpu " + timed.statistics().cpuNanos());
        StatementResult timedUpdate = session.execute("UPDATE t SET v = v - 1 WHERE id = ?", List.of(3L));
        assertTrue(timedUpdate.statistics().cpuNanos() >= 0, "cpu " + timedUpdate.statistics().cpuNanos());
        assertEquals(2, timedUpdate.messages().size(), timedUpdate.messages().toString());
    }

    private static List<String> messages(StatementResult result) {
        try (StatementResult.Rows rows = (StatementResult.Rows) result) {
            while (rows.next() != null) {
                // read to the end, so that the statement finishes and its messages are complete
            }
            rows.close();
            return rows.messages();
        }
    }

    @Test
    void twoSessionsRunOneCachedPlanAtOnce() throws Exception {
        SessionRows.queryWith(session, POINT, 1L);
        plannedSince("");
        int rounds = 200;
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int client = 0; client < 2; client++) {
                int offset = client;
                done.add(threads.submit(() -> {
                    try (Session mine = engine.openSession()) {
                        start.await();
                        int checked = 0;
                        for (int round = 0; round < rounds; round++) {
                            long id = 1 + (round * 2L + offset) % 1000;
                            assertEquals(List.of(List.of((int) (id % 10), "row " + id)), SessionRows.queryWith(mine, POINT, id));
                            checked++;
                        }
                        return checked;
                    }
                }));
            }
            for (Future<Integer> client : done) {
                assertEquals(rounds, client.get());
            }
        } finally {
            threads.shutdownNow();
        }
        assertEquals(0, plannedSince("`t`"), "both sessions ran the cached plan");
    }

    @Test
    void normalizedTextCollapsesWhitespaceOutsideQuotesOnly() {
        assertEquals("SELECT a FROM t WHERE s = '  x  '", PlanCache.normalize("  SELECT a\n\tFROM t  WHERE s = '  x  ' "));
        assertEquals("SELECT [a  b] FROM t", PlanCache.normalize("SELECT [a  b]   FROM t"));
        assertEquals("SELECT 1 -- note\n  FROM t", PlanCache.normalize("SELECT 1 -- note\n  FROM t  "));
    }

    private List<String> cachedTexts() {
        return engine.planCache().entries().stream().map(entry -> entry.key().text()).toList();
    }
}
