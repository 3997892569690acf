package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * EXISTS and NOT EXISTS correlated through the sub-query's filter are planned as SEMI and ANTI
 * joins on that filter's condition (TPC-H Q21's shape: an equal key and an unequal one), with the
 * sub-query's own conditions filtering its input; their answers equal the same question asked as
 * a correlated COUNT, which takes Calcite's general path (a join with the outer values and an
 * aggregate). NULLs in keys and in the unequal column are part of the data: a pair whose
 * condition is NULL is no match, so NOT EXISTS keeps its outer row.
 */
class CorrelatedExistsTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE line (ord INT, supp INT, late INT NOT NULL, id INT NOT NULL PRIMARY KEY)").close();
        session.execute("CREATE TABLE line_cs (ord INT, supp INT, late INT NOT NULL, id INT NOT NULL)"
                + " WITH (storage = columnstore, rowgroup_max_rows = 1000, bulk_min_rows = 10)").close();
        for (String table : List.of("line", "line_cs")) {
            update(session, "INSERT INTO " + table + " SELECT CASE WHEN MOD(generate_series, 41) = 0 THEN NULL"
                    + " ELSE MOD(generate_series * 7, 150) END, CASE WHEN MOD(generate_series, 37) = 0 THEN NULL"
                    + " ELSE MOD(generate_series, 11) END, MOD(generate_series, 7), generate_series"
                    + " FROM generate_series(1, 1500)");
        }
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private String explain(String sql) {
        return query(session, "EXPLAIN " + sql).stream().map(row -> String.valueOf(row.getFirst()))
                .collect(Collectors.joining("\n"));
    }

    private List<List<Object>> sorted(String sql) {
        List<List<Object>> rows = query(session, sql);
        rows.sort(Comparator.comparing(Object::toString));
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"line", "line_cs"})
    void existsAndNotExistsAreSemiAndAntiJoinsWithTheAnswersOfACorrelatedCount(String table) {
        String outer = "SELECT l1.id, l1.ord, l1.supp FROM " + table + " l1 WHERE l1.late = 1 AND ";
        String other = " (SELECT * FROM " + table + " l2 WHERE l2.ord = l1.ord AND l2.supp <> l1.supp)";
        String otherLate = " (SELECT * FROM " + table + " l3 WHERE l3.ord = l1.ord AND l3.supp <> l1.supp AND l3.late = 2)";
        String counted = " (SELECT COUNT(*) FROM " + table + " l2 WHERE l2.ord = l1.ord AND l2.supp <> l1.supp)";
        String countedLate = " (SELECT COUNT(*) FROM " + table + " l3 WHERE l3.ord = l1.ord AND l3.supp <> l1.supp"
                + " AND l3.late = 2)";

        String exists = outer + "EXISTS" + other;
        String notExists = outer + "NOT EXISTS" + otherLate;
        String both = outer + "EXISTS" + other + " AND NOT EXISTS" + otherLate;

        String existsPlan = explain(exists);
        assertTrue(existsPlan.contains("SEMI, AND(=(ord, ord), <>(supp, supp))"), existsPlan);
        assertFalse(existsPlan.contains("HashAggregate"), existsPlan);
        String notExistsPlan = explain(notExists);
        assertTrue(notExistsPlan.contains("ANTI, AND(=(ord, ord), <>(supp, supp))"), notExistsPlan);
        assertTrue(notExistsPlan.contains("=(late, 2)") || notExistsPlan.contains("late = 2"), notExistsPlan);
        assertFalse(notExistsPlan.contains("IS NULL"), notExistsPlan);

        assertEquals(sorted(outer + counted + " > 0"), sorted(exists));
        assertEquals(sorted(outer + countedLate + " = 0"), sorted(notExists));
        assertEquals(sorted(outer + counted + " > 0 AND" + countedLate + " = 0"), sorted(both));
        // Neither answer is trivially empty or everything.
        int all = query(session, outer + "1 = 1").size();
        for (String sql : List.of(exists, notExists, both)) {
            int rows = query(session, sql).size();
            assertTrue(rows > 0 && rows < all, rows + " of " + all + ": " + sql);
        }
    }
}
