package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failure in one worker of a parallel plan, and a cancellation right after a parallel statement
 * started, over columnstore tables on real files: the statement ends with the worker's error (or
 * 57014), the other workers stop, and nothing is left behind — the engine's memory is back where
 * it was before the statement, and so is the number of the process's open file descriptors
 * ({@code /proc/self/fd}). The session runs the next statement as if nothing had happened. The
 * plans divide the scans of both join inputs among the workers (the build read by each worker),
 * so the failing worker is one of several reading the build, or one of several probing.
 */
class ParallelFailureTest {
    /** Sales joined to products, every scan divided among the workers; the {@code %s} goes into the WHERE clause. */
    private static final String JOIN = "SELECT p.category, COUNT(*), SUM(s.amount) FROM sales s JOIN product p"
            + " ON s.product_id = p.product_id WHERE %s GROUP BY p.category";
    private static final String HEALTHY = JOIN.formatted("s.amount >= 0");

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
        session.execute("SET max_dop = 3").close();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    @Test
    void aWorkerFailingWhileProbingStopsTheStatementAndLeavesNothingBehind() {
        // One sales row (id 45000, in one rowgroup, so one worker's) divides by zero.
        failsInOneWorker(JOIN.formatted("100 / (s.id - 45000) > -1000"));
    }

    @Test
    void aWorkerFailingWhileReadingItsShareOfTheBuildStopsTheStatementAndLeavesNothingBehind() {
        // One product row (id 500, in one of ten rowgroups) divides by zero, in the build input's filter.
        failsInOneWorker(JOIN.formatted("100 / (p.product_id - 500) > -1000"));
    }

    /**
     * Products LEFT JOIN sales, the products hashed (core's RIGHT join): the last worker to finish probing returns
     * the unmatched products, so a worker that fails must stop the others before any of them returns them. The
     * first {@code %s} joins the sales (a condition on them alone filters the probe side), the second the products.
     */
    private static final String PRESERVED = "SELECT p.category, COUNT(s.id), SUM(s.amount) FROM product p LEFT JOIN sales s"
            + " ON s.product_id = p.product_id AND s.amount > 90 AND %s WHERE %s GROUP BY p.category";
    private static final String PRESERVED_HEALTHY = PRESERVED.formatted("s.id > 0", "p.product_id > 0");

    @Test
    void aWorkerFailingInAJoinThatHashesItsPreservedSideLeavesNothingBehind() {
        String plan = query(session, "EXPLAIN " + PRESERVED_HEALTHY).stream()
                .map(row -> String.valueOf(row.getFirst())).reduce("", (all, line) -> all + line + "\n");
        assertTrue(plan.contains("build left read by each worker"), "the products hashed, read by every worker:\n" + plan);
        // One sales row (id 45091, amount 91, in one rowgroup, so one worker's) divides by zero while the workers probe.
        failsInOneWorker(PRESERVED.formatted("100 / (s.id - 45091) > -1000", "p.product_id > 0"), PRESERVED_HEALTHY);
        // One product (id 500) divides by zero while the workers read their shares of the build.
        failsInOneWorker(PRESERVED.formatted("s.id > 0", "100 / (p.product_id - 500) > -1000"), PRESERVED_HEALTHY);
    }

    private void failsInOneWorker(String failing) {
        failsInOneWorker(failing, HEALTHY);
    }

    private void failsInOneWorker(String failing, String healthy) {
        List<List<Object>> expected = query(session, healthy);
        assertEquals(20, expected.size(), "every category joined");
        long memory = engine.memory().allocatedBytes();
        long files = openFileDescriptors();
        for (int repetition = 0; repetition < 5; repetition++) {
            ColumbaException failure = assertThrows(ColumbaException.class, () -> query(session, failing));
            assertEquals(ErrorCode.DIVISION_BY_ZERO, failure.errorCode(), failure.getMessage());
            assertEquals(memory, engine.memory().allocatedBytes(), "the failed statement's memory was released");
            assertEquals(files, openFileDescriptors(), "the failed statement's files were closed");
        }
        assertEquals(sorted(expected), sorted(query(session, healthy)), "the session carries on");
    }

    @Test
    void cancellingRightAfterTheStartLeavesNothingBehind() {
        List<List<Object>> expected = query(session, HEALTHY);
        long memory = engine.memory().allocatedBytes();
        long files = openFileDescriptors();
        for (int repetition = 0; repetition < 20; repetition++) {
            StatementResult.Rows result = (StatementResult.Rows) session.execute(HEALTHY);
            session.cancel();
            ColumbaException cancelled = assertThrows(ColumbaException.class, () -> {
                for (Batch batch = result.next(); batch != null; batch = result.next()) {
                    // drains until the cancellation is noticed
                }
            });
            assertEquals(ErrorCode.QUERY_CANCELLED, cancelled.errorCode(), cancelled.getMessage());
            result.close();
            assertEquals(memory, engine.memory().allocatedBytes(), "the cancelled statement's memory was released");
            assertEquals(files, openFileDescriptors(), "the cancelled statement's files were closed");
        }
        assertEquals(sorted(expected), sorted(query(session, HEALTHY)), "the session carries on");
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(String::valueOf).sorted().toList();
    }

    private static long openFileDescriptors() {
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            return descriptors.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd", e);
        }
    }

    @Test
    void thePlanDividesBothInputsAmongTheWorkers() {
        String plan = query(session, "EXPLAIN " + HEALTHY).stream().map(row -> String.valueOf(row.getFirst()))
                .reduce("", (all, line) -> all + line + "\n");
        assertTrue(plan.contains("read by each worker") && plan.contains("degree 3"), plan);
    }
}
