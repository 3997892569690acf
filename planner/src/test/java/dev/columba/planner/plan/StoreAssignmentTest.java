package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Store assignment (INSERT and UPDATE) checks each value against its column as SQL Server does: a
 * string longer than a CHAR(n) / VARCHAR(n) column fails with 22001 (Msg 2628) unless only spaces
 * are cut, a NULL for a NOT NULL column fails with 23502 (Msg 515); the failed statement changes
 * nothing.
 */
class StoreAssignmentTest {
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("code", SqlType.varchar(3)), Column.nullable("flag", SqlType.character(2)),
            Column.notNull("qty", SqlType.INT));

    @TempDir
    Path directory;

    private TestDatabase create(String kind) {
        TestDatabase db = new TestDatabase(directory);
        switch (kind) {
            case "clustered" -> db.createRowstore("t", SCHEMA, List.of(0), true);
            case "heap" -> db.createRowstore("t", SCHEMA, List.of(), false);
            default -> db.createColumnstore("t", SCHEMA);
        }
        db.createRowstore("source", TableSchema.of(Column.notNull("id", SqlType.INT),
                Column.nullable("text", SqlType.varchar(10)), Column.nullable("qty", SqlType.INT)), List.of(), false);
        db.update("INSERT INTO source VALUES (10, 'ok', 1), (11, 'too long', 2), (12, 'x', NULL)");
        db.update("INSERT INTO t VALUES (1, 'abc', 'ab', 5)");
        return db;
    }

    private static void assertFails(TestDatabase db, ErrorCode code, String sql, String... fragments) {
        ColumbaException error = assertThrows(ColumbaException.class, () -> db.update(sql), sql);
        assertEquals(code, error.errorCode(), error::getMessage);
        for (String fragment : fragments) {
            assertTrue(error.getMessage().contains(fragment), () -> "'" + fragment + "' not in: " + error.getMessage());
        }
        assertEquals(List.of(Arrays.asList(1, "abc", "ab", 5)), db.query("SELECT * FROM t"), "the failed " + sql
                + " changed nothing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aStringLongerThanItsColumnFailsWith22001(String kind) {
        try (TestDatabase db = create(kind)) {
            assertFails(db, ErrorCode.STRING_TOO_LONG, "INSERT INTO t VALUES (2, 'abcd', 'ab', 1)",
                    "String or binary data would be truncated", "column 'code'", "VARCHAR(3)", "4 characters", "'abcd'");
            assertFails(db, ErrorCode.STRING_TOO_LONG, "INSERT INTO t VALUES (2, 'abc', 'abc', 1)",
                    "column 'flag'", "CHAR(2)", "3 characters");
            ColumbaException parameter = assertThrows(ColumbaException.class,
                    () -> db.update("INSERT INTO t (id, code, qty) VALUES (?, ?, 1)", 2, "wxyz"));
            assertEquals(ErrorCode.STRING_TOO_LONG, parameter.errorCode(), parameter::getMessage);
            assertTrue(parameter.getMessage().contains("column 'code'"), parameter.getMessage());
            assertFails(db, ErrorCode.STRING_TOO_LONG, "INSERT INTO t SELECT id, text, NULL, 1 FROM source",
                    "column 'code'", "'too long'", "8 characters");
            assertFails(db, ErrorCode.STRING_TOO_LONG, "UPDATE t SET code = code || 'd'", "column 'code'", "'abcd'");
            assertFails(db, ErrorCode.STRING_TOO_LONG, "UPDATE t SET flag = 'xyz' WHERE id = 1", "column 'flag'");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void trailingSpacesBeyondTheLengthAreDroppedAsTheStandardSays(String kind) {
        try (TestDatabase db = create(kind)) {
            assertEquals(1, db.update("INSERT INTO t VALUES (2, 'xy    ', 'z   ', 1)"));
            assertEquals(List.of(Arrays.asList(2, "xy ", "z ", 1)), db.query("SELECT * FROM t WHERE id = 2"));
            assertEquals(1, db.update("UPDATE t SET code = 'pqr  ' WHERE id = 2"));
            assertEquals(List.of(List.of("pqr")), db.query("SELECT code FROM t WHERE id = 2"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aNullForANotNullColumnFailsWith23502(String kind) {
        try (TestDatabase db = create(kind)) {
            assertFails(db, ErrorCode.NULL_NOT_ALLOWED, "INSERT INTO t VALUES (2, 'a', 'b', NULL)",
                    "Cannot insert the value NULL into column 'qty', table 't'");
            assertFails(db, ErrorCode.NULL_NOT_ALLOWED, "INSERT INTO t (id, code) VALUES (2, 'a')", "column 'qty'");
            assertFails(db, ErrorCode.NULL_NOT_ALLOWED, "INSERT INTO t SELECT id, NULL, NULL, qty FROM source",
                    "column 'qty'");
            assertFails(db, ErrorCode.NULL_NOT_ALLOWED, "UPDATE t SET qty = NULL", "column 'qty'");
            assertFails(db, ErrorCode.NULL_NOT_ALLOWED, "UPDATE t SET qty = CASE WHEN id = 1 THEN NULL ELSE 1 END",
                    "column 'qty'");
        }
    }

    /**
     * Issue 15: beside a value that needs an implicit cast (an INT literal for BIGINT, DECIMAL or
     * DOUBLE), Calcite cast the whole VALUES row to the column types and stored 'abcde'. The plan
     * carries the string whole, with no cast to VARCHAR(5), and the insert fails with 22001.
     */
    @ParameterizedTest
    @ValueSource(strings = {"clustered", "heap", "columnstore"})
    void aStringBesideAnImplicitConversionIsNotCut(String kind) {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.BIGINT), Column.nullable("name", SqlType.varchar(5)),
                Column.nullable("amount", SqlType.decimal(5, 2)), Column.nullable("ratio", SqlType.DOUBLE));
        try (TestDatabase db = new TestDatabase(directory)) {
            switch (kind) {
                case "clustered" -> db.createRowstore("r3", schema, List.of(0), true);
                case "heap" -> db.createRowstore("r3", schema, List.of(), false);
                default -> db.createColumnstore("r3", schema);
            }
            String insert = "INSERT INTO r3 VALUES (1, 'abcdefgh', 1, 1)";
            assertFalse(db.explain(insert).contains("VARCHAR(5)"), () -> "no cast to the column's type: "
                    + db.explain(insert));
            ColumbaException error = assertThrows(ColumbaException.class, () -> db.update(insert));
            assertEquals(ErrorCode.STRING_TOO_LONG, error.errorCode(), error::getMessage);
            for (String sql : List.of("INSERT INTO r3 VALUES (1, 'ab', 1, 1), (2, 'abcdefgh', 2, 2)",
                    "INSERT INTO r3 VALUES (1, 'abc' || 'defgh', 1, 1)", "INSERT INTO r3 (id, name) VALUES (1, 123456)")) {
                ColumbaException other = assertThrows(ColumbaException.class, () -> db.update(sql), sql);
                assertEquals(ErrorCode.STRING_TOO_LONG, other.errorCode(), other::getMessage);
            }
            assertEquals(List.of(), db.query("SELECT * FROM r3"), "the failed inserts changed nothing");
            assertEquals(1, db.update("INSERT INTO r3 VALUES (1, 'abcde', 1, 1)"));
            assertEquals(1, db.update("INSERT INTO r3 VALUES (2, 123, 2, 2)"));
            assertEquals(List.of(List.of("abcde"), List.of("123")), db.query("SELECT name FROM r3 ORDER BY id"));
        }
    }
}
