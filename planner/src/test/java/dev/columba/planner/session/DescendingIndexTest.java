package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Secondary indexes with DESC key columns (docs/format/row.md, "Descending key columns"): seeks
 * on them find the same rows a scan does, NULL keys included, they are kept through writes, a
 * reopen and a table rewrite, and a unique one refuses duplicates; a clustered key and a PRIMARY
 * KEY stay ascending.
 */
class DescendingIndexTest {
    private static final int ROWS = 3000;

    @TempDir
    Path directory;

    private static String table(String kind) {
        return "CREATE TABLE t (id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", e INT, d VARCHAR(10), f DOUBLE)";
    }

    private static void load(Session session) {
        StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
        for (int id = 0; id < ROWS; id++) {
            insert.append(id == 0 ? "" : ", ").append('(').append(id).append(", ")
                    .append(id % 13 == 0 ? "NULL" : Integer.toString(id % 50 - 25)).append(", ")
                    .append(id % 17 == 0 ? "NULL" : "'k" + id % 7 + "'").append(", ").append(id * 0.5).append(')');
        }
        update(session, insert.toString());
    }

    /**
     * The ids of the rows {@code condition} selects, in id order, read with the index and without
     * it; {@code condition} is an equality on both columns of an index, which the planner seeks.
     */
    private static void assertSeekAgreesWithScan(Session session, String condition) {
        String sql = "SELECT id FROM t WHERE " + condition + " ORDER BY id";
        List<List<Object>> seek = query(session, sql);
        String plan = query(session, "EXPLAIN " + sql).toString();
        assertTrue(plan.contains("IndexSeek"), plan);
        // Forcing a scan: the same condition on an expression no index has.
        List<List<Object>> scan = query(session, "SELECT id FROM t WHERE " + condition.replace("e =", "e + 0 =")
                .replace("d =", "d || '' =") + " ORDER BY id");
        assertEquals(scan, seek, condition);
        assertTrue(!seek.isEmpty(), condition + " selects rows");
    }

    @ParameterizedTest
    @ValueSource(strings = {"heap", "clustered"})
    void seeksOnDescendingColumnsFindWhatAScanFinds(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind));
            session.execute("CREATE INDEX ted ON t (e DESC, d ASC)");
            session.execute("CREATE INDEX tde ON t (d DESC, e DESC)");
            load(session);
            // e = id % 50 - 25 and d = 'k' || id % 7: each pair on about eight rows.
            assertSeekAgreesWithScan(session, "e = 17 AND d = 'k0'");
            assertSeekAgreesWithScan(session, "e = -25 AND d = 'k4'");
            assertSeekAgreesWithScan(session, "e = 24 AND d = 'k3'");
            assertSeekAgreesWithScan(session, "d = 'k6' AND e = -1");
            assertSeekAgreesWithScan(session, "d = 'k1' AND e = 0");
            assertEquals(List.of(), query(session, "SELECT id FROM t WHERE e = 999 AND d = 'k1'"));
            update(session, "DELETE FROM t WHERE e = 17 AND d = 'k0' AND id < 1000");
            update(session, "UPDATE t SET e = 17, d = 'k0' WHERE id < 20");
            assertSeekAgreesWithScan(session, "e = 17 AND d = 'k0'");
            session.execute("ALTER TABLE t ADD g INT DEFAULT 1");
            assertSeekAgreesWithScan(session, "d = 'k6' AND e = -1");
        }
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            assertSeekAgreesWithScan(session, "e = 17 AND d = 'k0'");
            assertSeekAgreesWithScan(session, "d = 'k1' AND e = 0");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"heap", "clustered"})
    void aUniqueDescendingIndexRefusesDuplicatesAndAdmitsManyNulls(String kind) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            session.execute(table(kind));
            session.execute("CREATE UNIQUE INDEX tu ON t (d DESC, e ASC)");
            update(session, "INSERT INTO t VALUES (1, 1, 'a', 0), (2, 2, 'a', 0), (3, NULL, 'a', 0), (4, NULL, 'a', 0),"
                    + " (5, 1, NULL, 0), (6, 1, NULL, 0)");
            ColumbaException duplicate = assertThrows(ColumbaException.class,
                    () -> session.execute("INSERT INTO t VALUES (7, 2, 'a', 0)"));
            assertEquals(ErrorCode.DUPLICATE_KEY, duplicate.errorCode());
            assertTrue(duplicate.getMessage().contains("tu"), duplicate.getMessage());
            // Building the index over duplicates fails too.
            session.execute("CREATE TABLE u (id INT, v INT)");
            update(session, "INSERT INTO u VALUES (1, 5), (2, 5)");
            assertEquals(ErrorCode.DUPLICATE_KEY, assertThrows(ColumbaException.class,
                    () -> session.execute("CREATE UNIQUE INDEX uv ON u (v DESC)")).errorCode());
            List<List<Object>> ids = new ArrayList<>();
            for (int id = 1; id <= 6; id++) {
                ids.add(List.of(id));
            }
            assertEquals(ids, query(session, "SELECT id FROM t ORDER BY id"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "CREATE TABLE p (id INT, PRIMARY KEY (id DESC))",
        "CREATE TABLE p (id INT, CONSTRAINT pu UNIQUE (id DESC))"})
    void keysOfConstraintsStayAscending(String sql) {
        try (Engine engine = SessionRows.open(directory); Session session = engine.openSession()) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> session.execute(sql));
            assertEquals(ErrorCode.SYNTAX_ERROR, error.errorCode(), error.getMessage());
            session.execute("CREATE TABLE h (id INT, v INT)");
            assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, assertThrows(ColumbaException.class,
                    () -> session.execute("CREATE CLUSTERED INDEX hc ON h (id DESC)")).errorCode());
            assertEquals(List.of(Arrays.asList(0L)), query(session, "SELECT COUNT(*) FROM h"));
        }
    }
}
