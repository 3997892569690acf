package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole plan's threshold for parallelism: a plan whose scans read fewer than 20 times
 * {@code parallelism_threshold_rows} rows in all stays serial, unless those rows are wide enough
 * that their bytes reach as many rows of 32 bytes (TPC-H Q13: 1.65 million rows, mostly order
 * comments searched by a LIKE, 84 MB). With the setting at 2,500 the plan threshold is 50,000 rows
 * or 1.6 MB: {@code narrow} (40,000 rows of a BIGINT and an INT, about 0.5 MB) stays serial,
 * {@code wide} (40,000 rows with 150-character notes, about 6 MB) and {@code narrow} read twice
 * (80,000 rows) go parallel, and each answers as it does serially.
 */
class ParallelPlanThresholdTest {
    private static final String NARROW = "SELECT MOD(k, 7), COUNT(*), SUM(id) FROM narrow WHERE k > 5 GROUP BY MOD(k, 7)";
    private static final String WIDE = "SELECT MOD(id, 7), COUNT(*), MAX(note) FROM wide WHERE note LIKE '%7x%' GROUP BY MOD(id, 7)";
    private static final String NARROW_TWICE = "SELECT COUNT(*), SUM(a.k) FROM narrow a JOIN narrow b ON a.id = b.id + 1";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE narrow (id BIGINT NOT NULL, k INT NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE wide (id BIGINT NOT NULL, note VARCHAR(200) NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 10000, bulk_min_rows = 10)").close();
        update(session, "INSERT INTO narrow SELECT generate_series, MOD(generate_series * 31, 1000) FROM generate_series(1, 40000)");
        update(session, "INSERT INTO wide SELECT generate_series, REPEAT('n', 145) || CAST(MOD(generate_series * 7919, 99991)"
                + " AS VARCHAR(5)) || 'x' FROM generate_series(1, 40000)");
        session.execute("SET parallelism_threshold_rows = 2500").close();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String plan(String sql) {
        return query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst())).collect(Collectors.joining("\n"));
    }

    private List<String> answer(String sql, int degree) {
        session.execute("SET max_dop = " + degree).close();
        return query(session, sql).stream().map(String::valueOf).sorted().toList();
    }

    @Test
    void fewNarrowRowsStaySerial() {
        session.execute("SET max_dop = 2").close();
        String plan = plan(NARROW);
        assertFalse(plan.contains("Parallelism"), "40,000 rows of 12 bytes:\n" + plan);
        assertEquals(answer(NARROW, 1), answer(NARROW, 2));
    }

    @Test
    void fewWideRowsGoParallel() {
        session.execute("SET max_dop = 2").close();
        String plan = plan(WIDE);
        assertTrue(plan.contains("Gather Streams, degree 2"), "40,000 rows of about 160 bytes:\n" + plan);
        List<String> serial = answer(WIDE, 1);
        assertEquals(7, serial.size(), serial.toString());
        assertEquals(serial, answer(WIDE, 2));
    }

    @Test
    void manyNarrowRowsGoParallel() {
        session.execute("SET max_dop = 2").close();
        String plan = plan(NARROW_TWICE);
        assertTrue(plan.contains("Gather Streams, degree 2"), "80,000 rows scanned in all:\n" + plan);
        assertEquals(List.of("[39999, " + (query(session, "SELECT SUM(k) FROM narrow WHERE id > 1").getFirst().getFirst()) + "]"),
                answer(NARROW_TWICE, 2));
    }
}
