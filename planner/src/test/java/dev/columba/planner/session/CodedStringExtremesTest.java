package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MIN and MAX of VARCHAR and CHAR columns over rows a columnstore scan returns (filtered scans,
 * groups, rowgroups with deleted rows, delta rows), which the aggregation takes from the
 * dictionary codes of the strings the scan defers: every answer equals the same query's over a
 * rowstore copy of the table, which has no codes. The table has four rowgroups, values outside the
 * primary dictionary (secondary ids, a second ordered run of codes) below and above the primary's
 * in one rowgroup, strings whose code point order
 * differs from Java's {@link String#compareTo} (U+1F600 and U+FF61, in different rowgroups), CHAR
 * padding, NULLs and a rowgroup of NULLs only, a column of distinct values (no dictionary), and
 * queries that select no row, more groups than the codes' pass serves, DISTINCT and a second
 * reader of the column; serially and on two workers.
 */
class CodedStringExtremesTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        String columns = "(id INT NOT NULL, v VARCHAR(12), c CHAR(4) NOT NULL, u VARCHAR(40) NOT NULL, g INT NOT NULL)";
        session.execute("CREATE TABLE cs " + columns
                + " WITH (storage = columnstore, rowgroup_max_rows = 2500, bulk_min_rows = 10)").close();
        session.execute("CREATE TABLE rs " + columns).close();
        String rows = "SELECT generate_series,"
                + " CASE WHEN generate_series = 6000 THEN '\uD83D\uDE00' WHEN generate_series = 9000 THEN '\uFF61'"
                + " WHEN generate_series = 1234 THEN 'A' WHEN generate_series IN (100, 8100) THEN 'zz'"
                + " WHEN generate_series = 8000 THEN '!' WHEN generate_series BETWEEN 2501 AND 5000 THEN NULL"
                + " WHEN MOD(generate_series, 11) = 0 THEN NULL WHEN generate_series > 7500 THEN 'n' || CAST(MOD(generate_series, 13) AS VARCHAR(3))"
                + " ELSE 'm' || CAST(MOD(generate_series, 7) AS VARCHAR(3)) END,"
                + " CASE WHEN generate_series > 5000 THEN 'j' ELSE 'k' || CAST(MOD(generate_series, 5) AS VARCHAR(3)) END,"
                + " 'u' || CAST(MOD(generate_series * 7919, 10007) AS VARCHAR(10)),"
                + " MOD(generate_series, 4)"
                + " FROM generate_series(1, 10000)";
        for (String table : List.of("cs", "rs")) {
            update(session, "INSERT INTO " + table + " " + rows);
        }
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static final List<String> QUERIES = List.of(
            "SELECT MIN(v), MAX(v), COUNT(v), MIN(c), MAX(c), MIN(u), MAX(u) FROM %s WHERE id > 0",
            "SELECT MIN(v), MAX(v), MIN(c), MAX(u), COUNT(*) FROM %s WHERE g >= 5",
            "SELECT MIN(v), MAX(v) FROM %s WHERE id BETWEEN 2501 AND 5000",
            "SELECT MIN(v), MAX(v) FROM %s WHERE id BETWEEN 7501 AND 8999",
            "SELECT MIN(v), MAX(c) FROM %s WHERE id BETWEEN 2400 AND 2600",
            "SELECT g, MIN(v), MAX(v), MIN(c), MAX(c), MAX(u) FROM %s WHERE id > 3 GROUP BY g",
            "SELECT MOD(id, 2000), MIN(v), MAX(c) FROM %s WHERE g < 3 GROUP BY MOD(id, 2000)",
            "SELECT MIN(v), MAX(v), MIN(c) FROM %s",
            "SELECT MAX(DISTINCT v), MIN(v), COUNT(DISTINCT c) FROM %s WHERE g <> 1",
            "SELECT MIN(v), MAX(UPPER(v)) FROM %s WHERE id > 0",
            "SELECT v, MAX(v), MIN(c) FROM %s WHERE id > 0 GROUP BY v");

    @Test
    void answersAsTheRowstoreDoes() {
        assertAnswersAsTheRowstore();
        List<Object> everything = query(session, "SELECT MIN(v), MAX(v), MIN(c), MAX(c) FROM cs WHERE id > 0").getFirst();
        assertEquals(Arrays.asList("!", "\uD83D\uDE00", "j   ", "k4  "), everything, "code point order, padding");
        // The fourth rowgroup's smallest value (8000) and largest (8100) are a secondary and a primary dictionary's.
        List<Object> fourth = query(session, "SELECT MIN(v), MAX(v) FROM cs WHERE id BETWEEN 7501 AND 8999").getFirst();
        assertEquals(Arrays.asList("!", "zz"), fourth, "the two runs of codes");
        List<Object> none = query(session, "SELECT MIN(v), MAX(c), COUNT(*) FROM cs WHERE g >= 5").getFirst();
        assertEquals(Arrays.asList(null, null, 0L), none, "no row selected");
    }

    /** The rows holding the extremes deleted (their rowgroups have deleted rows), delta rows with new extremes and a NULL. */
    @Test
    void answersAsTheRowstoreDoesWithDeletedAndDeltaRows() {
        for (String table : List.of("cs", "rs")) {
            update(session, "DELETE FROM " + table + " WHERE id IN (6000, 1234, 9000, 8000)");
            update(session, "INSERT INTO " + table + " VALUES (10001, '\u00E9', 'k9', 'u99999', 1), (10002, NULL, 'a', 'u', 2),"
                    + " (10003, '0', 'k0', 'v', 3)");
        }
        assertAnswersAsTheRowstore();
        List<Object> everything = query(session, "SELECT MIN(v), MAX(v), MIN(c), MAX(c) FROM cs WHERE id > 0").getFirst();
        assertEquals(Arrays.asList("0", "\u00E9", "a   ", "k9  "), everything, "after the deletes and delta rows");
    }

    private void assertAnswersAsTheRowstore() {
        for (int workers : new int[] {1, 2}) {
            session.execute("SET max_dop = " + workers).close();
            for (String text : QUERIES) {
                List<List<Object>> expected = sorted(query(session, String.format(text, "rs")));
                assertTrue(!expected.isEmpty(), text);
                assertEquals(expected, sorted(query(session, String.format(text, "cs"))), text + " at max_dop " + workers);
            }
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
