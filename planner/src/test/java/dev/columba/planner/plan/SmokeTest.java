package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole path once: DDL through storage, INSERT, a key-range query with a parameter, EXPLAIN. */
class SmokeTest {
    @TempDir
    Path directory;

    @Test
    void insertThenSelect() {
        try (TestDatabase db = new TestDatabase(directory)) {
            db.createRowstore("t", TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("name", SqlType.varchar(20))),
                    List.of(0), true);
            assertEquals(3, db.update("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)"));
            assertEquals(List.of(List.of("a"), List.of("b")), db.query("SELECT name FROM t WHERE id < 3 ORDER BY id"));
            assertEquals(List.of(List.of(3L)), db.query("SELECT COUNT(*) FROM t"));
            String parameterized = "SELECT name FROM t WHERE id < ? ORDER BY id";
            assertEquals(List.of(SqlType.INT), db.plan(parameterized).parameterTypes());
            String plan = db.explain(parameterized);
            assertTrue(plan.contains("RowstoreScan [t, clustered index order, seek id < ?1]"), plan);
            assertEquals(List.of(List.of("a")), db.query(parameterized, 2));
            assertEquals(List.of(), db.query(parameterized, (Object) null));
        }
    }
}
