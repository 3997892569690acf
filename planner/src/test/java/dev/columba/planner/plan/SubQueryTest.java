package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sub-queries whose rewrite needs more than a plain join: NOT IN and IN over nullable columns of
 * tables without a unique key (Calcite marks found rows with {@code LITERAL_AGG(true)}), on a
 * rowstore heap and on a columnstore table.
 */
class SubQueryTest {
    @TempDir
    Path directory;

    private static TableSchema schema() {
        return TableSchema.of(Column.nullable("a", SqlType.INT));
    }

    private static TestDatabase database(Path directory, boolean columnstore) {
        TestDatabase db = new TestDatabase(directory);
        for (String table : List.of("t", "s", "n")) {
            if (columnstore) {
                db.createColumnstore(table, schema());
            } else {
                db.createRowstore(table, schema(), List.of(), false);
            }
        }
        db.update("INSERT INTO t VALUES (1), (2), (3), (NULL)");
        db.update("INSERT INTO s VALUES (2), (2), (5)");
        db.update("INSERT INTO n VALUES (2), (NULL)");
        return db;
    }

    @ParameterizedTest(name = "columnstore = {0}")
    @ValueSource(booleans = {false, true})
    void notInFollowsThreeValuedLogic(boolean columnstore) {
        try (TestDatabase db = database(directory, columnstore)) {
            assertEquals(rows(List.of(1), List.of(3)), sorted(db.query("SELECT a FROM t WHERE a NOT IN (SELECT a FROM s)")));
            assertEquals(rows(), db.query("SELECT a FROM t WHERE a NOT IN (SELECT a FROM n)"));
            assertEquals(rows(Arrays.asList((Object) null), List.of(1), List.of(2), List.of(3)),
                    sorted(db.query("SELECT a FROM t WHERE a NOT IN (SELECT a FROM s WHERE a > 100)")));
        }
    }

    @ParameterizedTest(name = "columnstore = {0}")
    @ValueSource(booleans = {false, true})
    void inAsAValueIsUnknownForNullsAndMisses(boolean columnstore) {
        try (TestDatabase db = database(directory, columnstore)) {
            assertEquals(rows(Arrays.asList(null, null), List.of(1, false), List.of(2, true), List.of(3, false)),
                    sorted(db.query("SELECT a, a IN (SELECT a FROM s) FROM t")));
            assertEquals(rows(Arrays.asList(null, null), Arrays.asList(1, null), List.of(2, true), Arrays.asList(3, null)),
                    sorted(db.query("SELECT a, a IN (SELECT a FROM n) FROM t")));
        }
    }

    @SafeVarargs
    private static List<List<Object>> rows(List<?>... rows) {
        List<List<Object>> all = new ArrayList<>();
        for (List<?> row : rows) {
            all.add(new ArrayList<>(row));
        }
        return all;
    }

    /** Rows ordered by their first column, NULL first. */
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(row -> (Integer) row.getFirst(), Comparator.nullsFirst(Comparator.naturalOrder())));
        return copy;
    }
}
