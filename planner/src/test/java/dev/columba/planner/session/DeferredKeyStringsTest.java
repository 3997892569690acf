package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group keys whose strings a columnstore scan defers (it hands on dictionary codes, and the
 * grouping decodes strings only for groups it has not seen): every answer equals the same query's
 * over a rowstore copy of the table, which never defers. The table has several rowgroups (a code
 * space each), a delta store, NULL keys, a key of more distinct values than the codes' lookup
 * takes, and columns that other parts of the query read too (an aggregate's argument, another
 * projected expression, a pushed filter), which must keep their strings; serially and on two
 * workers.
 */
class DeferredKeyStringsTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String columns = "(id INT NOT NULL, flag VARCHAR(3), status CHAR(1) NOT NULL, name VARCHAR(20) NOT NULL, v BIGINT NOT NULL)";
        session.execute("CREATE TABLE cs " + columns
                + " WITH (storage = columnstore, rowgroup_max_rows = 2500, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE rs " + columns).close();
        String rows = "SELECT generate_series, CASE WHEN MOD(generate_series, 53) = 0 THEN NULL"
                + " ELSE 'f' || CAST(MOD(generate_series, 3) AS VARCHAR(1)) END,"
                + " CASE WHEN MOD(generate_series, 5) < 2 THEN 'O' ELSE 'F' END,"
                + " 'n' || CAST(MOD(generate_series * 7919, 9001) AS VARCHAR(6)), MOD(generate_series, 100)"
                + " FROM generate_series(1, 10000)";
        update(session, "INSERT INTO cs " + rows);
        update(session, "INSERT INTO rs " + rows);
        // A few rows in the columnstore's delta store.
        update(session, "INSERT INTO cs VALUES (10001, 'f9', 'O', 'late', 5), (10002, NULL, 'F', 'late', 6)");
        update(session, "INSERT INTO rs VALUES (10001, 'f9', 'O', 'late', 5), (10002, NULL, 'F', 'late', 6)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT status, flag, COUNT(*), SUM(v) FROM %s GROUP BY status, flag",
            "SELECT flag, COUNT(*) FROM %s WHERE v > 40 GROUP BY flag",
            "SELECT status, COUNT(*), AVG(v) FROM %s GROUP BY status",
            "SELECT name, COUNT(*), MIN(id) FROM %s GROUP BY name",
            "SELECT status, name, SUM(v) FROM %s WHERE id < 20000 GROUP BY status, name",
            "SELECT flag, MAX(flag), MIN(status), COUNT(*) FROM %s GROUP BY flag",
            "SELECT flag, UPPER(flag), COUNT(*) FROM %s GROUP BY flag, UPPER(flag)",
            "SELECT flag, COUNT(*) FROM %s WHERE flag <> 'f1' GROUP BY flag",
            "SELECT status, COUNT(*) FROM %s WHERE status = 'O' GROUP BY status",
            "SELECT x.s, COUNT(*) FROM (SELECT status AS s, v * 2 AS w FROM %s) x WHERE x.w > 10 GROUP BY x.s",
            "SELECT flag, COUNT(DISTINCT status) FROM %s GROUP BY flag");

    @Test
    void groupsByDeferredStringsAsByDecodedOnes() {
        for (int workers : new int[] {1, 2}) {
            session.execute("SET max_dop = " + workers).close();
            for (String text : QUERIES) {
                List<List<Object>> expected = sorted(query(session, String.format(text, "rs")));
                List<List<Object>> actual = sorted(query(session, String.format(text, "cs")));
                assertTrue(!expected.isEmpty(), text);
                assertEquals(expected, actual, text + " at max_dop " + workers);
            }
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
