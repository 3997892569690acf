package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** INSERT, UPDATE and DELETE round trips on every kind of table, with parameters. */
class DmlTest {
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("name", SqlType.varchar(20)), Column.nullable("amount", SqlType.decimal(10, 2)));

    @TempDir
    Path directory;

    private TestDatabase create(String kind) {
        TestDatabase db = new TestDatabase(directory);
        switch (kind) {
            case "clustered" -> db.createRowstore("t", SCHEMA, List.of(0), true);
            case "nonunique" -> db.createRowstore("t", SCHEMA, List.of(0), false);
            case "heap" -> db.createRowstore("t", SCHEMA, List.of(), false);
            default -> db.createColumnstore("t", SCHEMA);
        }
        return db;
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "nonunique", "heap", "columnstore"})
    void insertUpdateDeleteRoundTrip(String kind) {
        try (TestDatabase db = create(kind)) {
            assertEquals(3, db.update("INSERT INTO t VALUES (1, 'one', 1.50), (2, 'two', NULL), (3, 'three', 3.00)"));
            assertEquals(1, db.update("INSERT INTO t (id, name) VALUES (?, ?)", 4, "four"));
            assertEquals(List.of(List.of(4L, new BigDecimal("4.50"))), db.query("SELECT COUNT(*), SUM(amount) FROM t"));
            assertEquals(2, db.update("UPDATE t SET amount = amount * 2, name = UPPER(name) WHERE id <= ?", 2));
            assertEquals(List.of(List.of(1, "ONE", new BigDecimal("3.00")), Arrays.asList(2, "TWO", null),
                    List.of(3, "three", new BigDecimal("3.00")), Arrays.asList(4, "four", null)), db.query("SELECT * FROM t ORDER BY id"));
            assertEquals(2, db.update("DELETE FROM t WHERE amount IS NULL"));
            assertEquals(List.of(List.of(1), List.of(3)), db.query("SELECT id FROM t ORDER BY id"));
            assertEquals(2, db.update("INSERT INTO t SELECT id + 10, name, amount FROM t"));
            assertEquals(List.of(List.of(4L)), db.query("SELECT COUNT(*) FROM t"));
            assertEquals(4, db.update("DELETE FROM t"));
            assertEquals(List.of(List.of(0L)), db.query("SELECT COUNT(*) FROM t"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"nonunique", "heap", "columnstore"})
    void equalRowsAreInterchangeableForDeleteAndUpdate(String kind) {
        try (TestDatabase db = create(kind)) {
            db.update("INSERT INTO t VALUES (1, 'x', 1.00), (1, 'x', 1.00), (1, 'x', 1.00), (2, 'y', 2.00)");
            assertEquals(3, db.update("UPDATE t SET amount = 5 WHERE id = 1"));
            assertEquals(List.of(List.of(1, "x", new BigDecimal("5.00")), List.of(1, "x", new BigDecimal("5.00")),
                    List.of(1, "x", new BigDecimal("5.00")), List.of(2, "y", new BigDecimal("2.00"))),
                    db.query("SELECT * FROM t ORDER BY id"));
            assertEquals(3, db.update("DELETE FROM t WHERE name = 'x'"));
            assertEquals(List.of(List.of(2)), db.query("SELECT id FROM t"));
        }
    }

    @Test
    void updatingAUniqueKeyMovesRowsWithoutTransientDuplicates() {
        try (TestDatabase db = create("clustered")) {
            db.update("INSERT INTO t VALUES (1, 'a', NULL), (2, 'b', NULL), (3, 'c', NULL)");
            assertEquals(3, db.update("UPDATE t SET id = id + 1"));
            assertEquals(List.of(List.of(2, "a"), List.of(3, "b"), List.of(4, "c")), db.query("SELECT id, name FROM t ORDER BY id"));
            ColumbaException duplicate = assertThrows(ColumbaException.class, () -> db.update("INSERT INTO t VALUES (2, 'z', NULL)"));
            assertEquals(ErrorCode.DUPLICATE_KEY, duplicate.errorCode());
        }
    }

    @Test
    void insertIntoNotNullColumnWithoutValueNamesTheColumn() {
        try (TestDatabase db = create("clustered")) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> db.update("INSERT INTO t (name) VALUES ('x')"));
            assertTrue(error.getMessage().contains("id"), error.getMessage());
        }
    }

    @Test
    void insertSelectIntoColumnstoreTakesTheBulkPath() {
        try (TestDatabase db = new TestDatabase(directory)) {
            db.createRowstore("source", SCHEMA, List.of(0), true);
            db.createColumnstore("target", SCHEMA);
            db.update("INSERT INTO source VALUES (1, 'a', 1.00), (2, 'b', 2.00)");
            String bulk = db.explain("INSERT INTO target SELECT * FROM source");
            assertTrue(bulk.contains("INSERT (bulk load) target"), bulk);
            assertTrue(db.explain("INSERT INTO target VALUES (5, 'e', 5.00)").contains("INSERT (delta store) target"));
            assertEquals(2, db.update("INSERT INTO target SELECT * FROM source"));
            assertEquals(List.of(List.of(2L, new BigDecimal("3.00"))), db.query("SELECT COUNT(*), SUM(amount) FROM target"));
        }
    }
}
