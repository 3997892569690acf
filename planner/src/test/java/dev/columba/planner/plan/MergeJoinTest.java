package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.type.SqlType;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merge joins in plans: chosen by cost for a join of two tables clustered on the join key (no
 * sort), not chosen where an input is not in key order, forced by {@code OPTION (MERGE JOIN)}
 * with sorts below the unsorted inputs; and their answers equal the hash join's on duplicate keys
 * on both sides, NULL keys, multi-column keys, keys of different types, string keys, a seek of a
 * descending index, at MAXDOP 1 to 4. Tables: {@code parent} clustered on {@code id} (unique);
 * {@code child} clustered on {@code (parent_id, seq)}, many rows per parent and parents without
 * children; {@code dup} clustered on {@code k} (not unique, long runs of one key, NULL keys);
 * {@code words} clustered on a string; {@code heap} a heap; {@code facts} a columnstore copy of
 * {@code child}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MergeJoinTest {
    private TestDatabase db;

    @BeforeAll
    void load(@TempDir Path directory) {
        db = new TestDatabase(directory);
        db.createRowstore("parent", TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(12)),
                Column.nullable("big", SqlType.BIGINT)), List.of(0), true);
        TableSchema child = TableSchema.of(Column.notNull("parent_id", SqlType.INT), Column.notNull("seq", SqlType.INT),
                Column.nullable("qty", SqlType.decimal(10, 2)), Column.nullable("day", SqlType.DATE));
        db.createRowstore("child", child, List.of(0, 1), true);
        db.createRowstore("dup", TableSchema.of(Column.nullable("k", SqlType.BIGINT), Column.nullable("tag", SqlType.INT)),
                List.of(0), false);
        db.createRowstore("words", TableSchema.of(Column.notNull("w", SqlType.varchar(20)), Column.nullable("n", SqlType.INT)),
                List.of(0), true);
        db.createRowstore("heap", TableSchema.of(Column.nullable("pid", SqlType.INT), Column.nullable("w", SqlType.varchar(20)),
                Column.nullable("g", SqlType.INT), Column.nullable("g2", SqlType.INT)), List.of(), false);
        db.createColumnstore("facts", child);
        StringBuilder parents = new StringBuilder();
        for (int id = 1; id <= 3000; id++) {
            parents.append(parents.isEmpty() ? "" : ", ").append("(").append(id).append(", ")
                    .append(id % 11 == 0 ? "NULL" : "'p" + id % 50 + "'").append(", ").append(id % 7 == 0 ? "NULL" : id * 2L).append(")");
        }
        db.update("INSERT INTO parent VALUES " + parents);
        StringBuilder children = new StringBuilder();
        for (int parent = 2; parent <= 3200; parent += 2) {
            for (int seq = 1; seq <= parent % 5; seq++) {
                children.append(children.isEmpty() ? "" : ", ").append("(").append(parent).append(", ").append(seq).append(", ")
                        .append(seq * 1.5).append(", DATE '2024-01-0").append(seq).append("')");
            }
        }
        db.update("INSERT INTO child VALUES " + children);
        db.update("INSERT INTO facts VALUES " + children);
        StringBuilder duplicates = new StringBuilder();
        for (int row = 0; row < 2500; row++) {
            String key = row % 13 == 0 ? "NULL" : row < 1500 ? "4" : String.valueOf(row % 9);
            duplicates.append(duplicates.isEmpty() ? "" : ", ").append("(").append(key).append(", ").append(row).append(")");
        }
        db.update("INSERT INTO dup VALUES " + duplicates);
        StringBuilder words = new StringBuilder();
        StringBuilder heap = new StringBuilder();
        String[] stems = {"apple", "Apple", "\u00e9t\u00e9", "zebra", "a", "", "ab", "b\u00fcro", "\u4e2d"};
        for (int row = 0; row < 400; row++) {
            String word = stems[row % stems.length] + row / stems.length;
            words.append(words.isEmpty() ? "" : ", ").append("('").append(word).append("', ").append(row).append(")");
            heap.append(heap.isEmpty() ? "" : ", ").append("(").append(row % 17 == 0 ? "NULL" : String.valueOf(row * 7 % 3100))
                    .append(", '").append(stems[row * 3 % stems.length]).append(row * 3 / stems.length % 44).append("', ")
                    .append(row % 4).append(", ").append(row % 3).append(")");
        }
        db.update("INSERT INTO words VALUES " + words);
        db.update("INSERT INTO heap VALUES " + heap);
        try (Transaction transaction = db.database().begin()) {
            db.tables().createIndex(transaction, "heap", "ix_g_pid", List.of(2, 3, 0), List.of(false, false, true), false);
            transaction.commit();
        }
    }

    @AfterAll
    void close() {
        db.close();
    }

    /** Rows as sorted text, to compare answers whatever their order. */
    private List<String> rows(String sql) {
        List<String> rows = new ArrayList<>();
        for (List<Object> row : db.query(sql)) {
            rows.add(row.toString());
        }
        rows.sort(Comparator.naturalOrder());
        return rows;
    }

    /** The query's answer under MERGE JOIN equals its answer under HASH JOIN (and LOOP JOIN), and its plan merges. */
    private String assertMergeAgrees(String sql) {
        String merged = sql + " OPTION (MERGE JOIN)";
        String plan = db.explain(merged);
        assertTrue(plan.contains("MergeJoin"), "a merge join:\n" + plan);
        assertFalse(plan.contains("HashJoin") || plan.contains("NestedLoopJoin"), "no other join:\n" + plan);
        List<String> expected = rows(sql + " OPTION (HASH JOIN)");
        assertEquals(expected, rows(merged), sql + "\n" + plan);
        return plan;
    }

    @Test
    void twoTablesClusteredOnTheJoinKeyMergeWithoutSorting() throws IOException {
        String sql = "SELECT p.name, c.seq, c.qty FROM parent p JOIN child c ON c.parent_id = p.id";
        String plan = db.explain(sql);
        GoldenPlans.assertPlan("merge_join_clustered", plan, sql);
        assertTrue(plan.contains("MergeJoin"), plan);
        assertFalse(plan.contains("Sort"), "both inputs arrive in key order:\n" + plan);
        assertEquals(rows(sql + " OPTION (HASH JOIN)"), rows(sql));
    }

    @Test
    void notChosenWhereAnInputIsNotInKeyOrder() {
        String plan = db.explain("SELECT p.name, h.g FROM parent p JOIN heap h ON h.pid = p.id");
        assertFalse(plan.contains("MergeJoin"), "a heap arrives in no order:\n" + plan);
        String byOtherColumn = db.explain("SELECT p.id, c.seq FROM parent p JOIN child c ON c.seq = p.id");
        assertFalse(byOtherColumn.contains("MergeJoin"), "child is clustered on parent_id first, not seq:\n" + byOtherColumn);
    }

    @Test
    void everyJoinTypeAgreesWithTheHashJoin() {
        assertMergeAgrees("SELECT p.id, p.name, c.seq FROM parent p JOIN child c ON c.parent_id = p.id");
        assertMergeAgrees("SELECT p.id, c.seq, c.day FROM parent p LEFT JOIN child c ON c.parent_id = p.id");
        assertMergeAgrees("SELECT c.parent_id, c.seq, p.name FROM child c LEFT JOIN parent p ON p.id = c.parent_id");
        assertMergeAgrees("SELECT p.id FROM parent p WHERE EXISTS (SELECT 1 FROM child c WHERE c.parent_id = p.id)");
        assertMergeAgrees("SELECT p.id FROM parent p WHERE NOT EXISTS (SELECT 1 FROM child c WHERE c.parent_id = p.id)");
        assertMergeAgrees("SELECT p.id, c.seq FROM parent p JOIN child c ON c.parent_id = p.id AND c.seq < p.id % 4");
        assertMergeAgrees("SELECT p.id, c.seq FROM parent p LEFT JOIN child c ON c.parent_id = p.id AND c.qty > 3");
    }

    /** About 1,400 rows of one key against themselves (two million pairs) and NULL keys, which never match. */
    @Test
    void longRunsOfDuplicatesAndNullKeys() {
        String plan = db.explain("SELECT COUNT(*) FROM dup a JOIN dup b ON a.k = b.k");
        assertTrue(plan.contains("MergeJoin"), plan);
        assertEquals(List.of(List.of(sameKeyPairs())), db.query("SELECT COUNT(*) FROM dup a JOIN dup b ON a.k = b.k"));
        assertMergeAgrees("SELECT a.k, a.tag, b.tag FROM dup a LEFT JOIN dup b ON a.k = b.k AND b.tag < 40");
        assertMergeAgrees("SELECT a.tag FROM dup a WHERE NOT EXISTS (SELECT 1 FROM dup b WHERE b.k = a.k AND b.tag > a.tag)");
    }

    /** Pairs of dup's rows with equal keys, NULL keys matching nothing: the keys as {@link #load} writes them. */
    private static long sameKeyPairs() {
        long[] counts = new long[9];
        for (int row = 0; row < 2500; row++) {
            if (row % 13 != 0) {
                counts[row < 1500 ? 4 : row % 9]++;
            }
        }
        long pairs = 0;
        for (long count : counts) {
            pairs += count * count;
        }
        return pairs;
    }

    @Test
    void multiColumnKeysTypesAndStrings() {
        String plan = assertMergeAgrees("SELECT a.parent_id, a.seq, b.qty FROM child a JOIN facts b"
                + " ON a.parent_id = b.parent_id AND a.seq = b.seq");
        assertTrue(plan.contains("Sort"), "the columnstore copy is sorted:\n" + plan);
        String both = db.explain("SELECT a.seq FROM child a JOIN child b ON a.parent_id = b.parent_id AND a.seq = b.seq");
        assertTrue(both.contains("MergeJoin") && !both.contains("Sort"), both);
        // INT against BIGINT: both cast to BIGINT.
        assertMergeAgrees("SELECT p.id, d.tag FROM parent p JOIN dup d ON d.k = p.id");
        assertMergeAgrees("SELECT p.id, q.id FROM parent p JOIN parent q ON q.big = p.id");
        assertMergeAgrees("SELECT w.w, w.n, h.g FROM words w JOIN heap h ON h.w = w.w");
        assertMergeAgrees("SELECT w.w, h.g FROM words w LEFT JOIN heap h ON h.w = w.w AND h.g > 1");
        assertMergeAgrees("SELECT c.day, f.seq FROM child c JOIN facts f ON f.day = c.day AND f.parent_id < 40 AND c.parent_id < 30");
    }

    /**
     * A seek of an index on (g, g2, pid DESC) returns pid descending; under the hint the planner
     * sorts the seek's rows ascending to meet the clustered side (the logical plan the rule reads
     * knows no index order), and the answer is the hash join's.
     */
    @Test
    void descendingIndexKeys() {
        String plan = assertMergeAgrees("SELECT h.pid, p.name FROM heap h JOIN parent p ON p.id = h.pid WHERE h.g = 2 AND h.g2 = 1");
        assertTrue(plan.contains("IndexSeek") && plan.contains("Sort"), plan);
        assertMergeAgrees("SELECT a.pid, b.w FROM heap a JOIN heap b ON b.pid = a.pid WHERE a.g = 2 AND a.g2 = 1 AND b.g = 2 AND b.g2 = 1");
    }

    @Test
    void fullJoinsStayHashJoinsUnderTheHint() {
        String sql = "SELECT p.id, c.seq FROM parent p FULL JOIN child c ON c.parent_id = p.id";
        String plan = db.explain(sql + " OPTION (MERGE JOIN)");
        assertTrue(plan.contains("HashJoin") && !plan.contains("MergeJoin"), plan);
        assertEquals(rows(sql + " OPTION (HASH JOIN)"), rows(sql + " OPTION (MERGE JOIN)"));
    }

    /** With every fragment parallel (threshold 0), each degree gives the serial answer. */
    @Test
    void everyDegreeGivesTheSameAnswer() {
        db.settings(SettingValues.defaults().with(StandardSettings.PARALLELISM_THRESHOLD_ROWS, 0));
        try {
            for (String sql : List.of("SELECT f.parent_id, f.seq, p.name FROM facts f JOIN parent p ON p.id = f.parent_id",
                    "SELECT p.id, c.seq FROM parent p LEFT JOIN child c ON c.parent_id = p.id",
                    "SELECT f.seq FROM facts f WHERE NOT EXISTS (SELECT 1 FROM child c WHERE c.parent_id = f.parent_id + 1)")) {
                List<String> serial = rows(sql + " OPTION (MERGE JOIN, MAXDOP 1)");
                assertFalse(serial.isEmpty(), sql);
                for (int degree = 2; degree <= 4; degree++) {
                    String hinted = sql + " OPTION (MERGE JOIN, MAXDOP " + degree + ")";
                    assertEquals(serial, rows(hinted), hinted + "\n" + db.explain(hinted));
                }
                assertEquals(rows(sql + " OPTION (HASH JOIN)"), serial, sql);
            }
        } finally {
            db.settings(SettingValues.defaults());
        }
    }
}
