package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE [OR ALTER | OR REPLACE] VIEW, DROP VIEW and views in queries: expansion in place, views
 * over views, column lists, NULLs, replacement, persistence across a restart, sys.views, and the
 * errors (name taken, a view over a dropped or changed table, a cycle, a column without a name).
 */
class ViewTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer VARCHAR(10), amount DECIMAL(10, 2))");
        update(session, "INSERT INTO orders VALUES (1, 'ann', 10.00), (2, 'bob', 20.00), (3, 'ann', 5.50), (4, NULL, 1.00)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private void reopen() {
        session.close();
        engine.close();
        engine = SessionRows.open(directory);
        session = engine.openSession();
    }

    private static ColumbaException fails(ErrorCode code, Runnable statement) {
        ColumbaException error = assertThrows(ColumbaException.class, statement::run);
        assertEquals(code, error.errorCode(), error.getMessage());
        return error;
    }

    @Test
    void aViewIsItsQueryWhereverItIsNamed() {
        session.execute("CREATE VIEW big_orders AS SELECT id, customer, amount FROM orders WHERE amount >= 5");
        assertEquals(List.of(List.of(1, "ann"), List.of(2, "bob"), List.of(3, "ann")),
                query(session, "SELECT id, customer FROM big_orders ORDER BY id"));
        assertEquals(List.of(List.of("ann", 2L)), query(session,
                "SELECT v.customer, COUNT(*) FROM big_orders v JOIN orders o ON o.id = v.id WHERE v.customer = 'ann'"
                        + " GROUP BY v.customer"));
        assertEquals(List.of(List.of(1L)), query(session, "SELECT COUNT(*) FROM dbo.big_orders WHERE id = 2"));
        update(session, "INSERT INTO orders VALUES (5, 'cy', 7.00)");
        assertEquals(List.of(List.of(4L)), query(session, "SELECT COUNT(*) FROM big_orders"), "rows are read when queried");
    }

    @Test
    void nullsAndAggregatesPassThrough() {
        session.execute("CREATE VIEW totals AS SELECT customer, SUM(amount) AS total, COUNT(*) AS n FROM orders"
                + " GROUP BY customer");
        assertEquals(List.of(Arrays.asList(null, new java.math.BigDecimal("1.00"), 1L)),
                query(session, "SELECT * FROM totals WHERE customer IS NULL"));
        try (StatementResult.Rows rows = (StatementResult.Rows) session.execute("SELECT * FROM totals")) {
            assertEquals(List.of("customer", "total", "n"), rows.schema().columns().stream().map(Column::name).toList());
        }
    }

    @Test
    void aColumnListNamesTheColumns() {
        session.execute("CREATE VIEW named (order_id, who) AS SELECT id, customer FROM orders");
        assertEquals(List.of(List.of(2, "bob")), query(session, "SELECT order_id, who FROM named WHERE order_id = 2"));
        fails(ErrorCode.UNDEFINED_COLUMN, () -> query(session, "SELECT id FROM named"));
        ColumbaException tooFew = fails(ErrorCode.INVALID_STATEMENT,
                () -> session.execute("CREATE VIEW short (a) AS SELECT id, customer FROM orders"));
        assertTrue(tooFew.getMessage().contains("more columns than were specified in the column list"), tooFew.getMessage());
        fails(ErrorCode.INVALID_STATEMENT, () -> session.execute("CREATE VIEW twice (a, a) AS SELECT id, customer FROM orders"));
    }

    @Test
    void everyColumnNeedsAName() {
        ColumbaException unnamed = fails(ErrorCode.INVALID_STATEMENT,
                () -> session.execute("CREATE VIEW doubled AS SELECT id, amount * 2 FROM orders"));
        assertTrue(unnamed.getMessage().contains("No column name was specified for column 2"), unnamed.getMessage());
        session.execute("CREATE VIEW doubled AS SELECT id, amount * 2 AS twice FROM orders");
        assertEquals(List.of(List.of(new java.math.BigDecimal("40.00"))), query(session, "SELECT twice FROM doubled WHERE id = 2"));
    }

    @Test
    void viewsOverViews() {
        session.execute("CREATE VIEW anns AS SELECT id, amount FROM orders WHERE customer = 'ann'");
        session.execute("CREATE VIEW big_anns AS SELECT id FROM anns WHERE amount > 6");
        assertEquals(List.of(List.of(1)), query(session, "SELECT * FROM big_anns"));
    }

    @Test
    void orAlterAndOrReplaceReplaceTheView() {
        session.execute("CREATE VIEW v AS SELECT id FROM orders WHERE id = 1");
        int objectId = (Integer) query(session, "SELECT object_id FROM sys.views WHERE view_name = 'v'").getFirst().getFirst();
        assertEquals(List.of(List.of(1)), query(session, "SELECT * FROM v"));
        session.execute("CREATE OR ALTER VIEW v AS SELECT id, customer FROM orders WHERE id = 2");
        assertEquals(List.of(List.of(2, "bob")), query(session, "SELECT * FROM v"), "a cached plan of the old view is not used");
        session.execute("CREATE OR REPLACE VIEW v AS SELECT customer FROM orders WHERE id = 3");
        assertEquals(List.of(List.of("ann")), query(session, "SELECT * FROM v"));
        assertEquals(List.of(List.of(objectId)), query(session, "SELECT object_id FROM sys.views WHERE view_name = 'v'"));
    }

    @Test
    void aNameIsTakenOnce() {
        session.execute("CREATE VIEW v AS SELECT id FROM orders");
        fails(ErrorCode.OBJECT_ALREADY_EXISTS, () -> session.execute("CREATE VIEW v AS SELECT id FROM orders"));
        fails(ErrorCode.OBJECT_ALREADY_EXISTS, () -> session.execute("CREATE VIEW orders AS SELECT 1 AS x"));
        fails(ErrorCode.OBJECT_ALREADY_EXISTS, () -> session.execute("CREATE OR ALTER VIEW orders AS SELECT 1 AS x"));
        fails(ErrorCode.OBJECT_ALREADY_EXISTS, () -> session.execute("CREATE TABLE v (x INT)"));
    }

    @Test
    void dropView() {
        session.execute("CREATE VIEW v AS SELECT id FROM orders");
        session.execute("DROP VIEW v");
        fails(ErrorCode.OBJECT_NOT_FOUND, () -> query(session, "SELECT * FROM v"));
        fails(ErrorCode.OBJECT_NOT_FOUND, () -> session.execute("DROP VIEW v"));
        session.execute("DROP VIEW IF EXISTS v");
        ColumbaException table = fails(ErrorCode.INVALID_STATEMENT, () -> session.execute("DROP VIEW orders"));
        assertTrue(table.getMessage().contains("is not a view"), table.getMessage());
        assertEquals(List.of(List.of(4L)), query(session, "SELECT COUNT(*) FROM orders"), "the table is still there");
    }

    @Test
    void aViewOverADroppedOrChangedTableFailsWhenUsed() {
        session.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(10))");
        session.execute("CREATE VIEW item_names AS SELECT * FROM items");
        session.execute("DROP TABLE items");
        ColumbaException dropped = fails(ErrorCode.OBJECT_NOT_FOUND, () -> query(session, "SELECT * FROM item_names"));
        assertTrue(dropped.getMessage().contains("view item_names") && dropped.getMessage().contains("items"),
                dropped.getMessage());
        session.execute("CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(10), price INT)");
        ColumbaException changed = fails(ErrorCode.INVALID_STATEMENT, () -> query(session, "SELECT * FROM item_names"));
        assertTrue(changed.getMessage().contains("CREATE OR ALTER VIEW"), changed.getMessage());
        session.execute("CREATE OR ALTER VIEW item_names AS SELECT * FROM items");
        assertEquals(List.of(), query(session, "SELECT * FROM item_names"));
    }

    @Test
    void aCycleThroughOrAlterIsReportedWhenUsed() {
        session.execute("CREATE VIEW a AS SELECT id FROM orders");
        session.execute("CREATE VIEW b AS SELECT id FROM a");
        session.execute("CREATE OR ALTER VIEW a AS SELECT id FROM b");
        ColumbaException cycle = fails(ErrorCode.INVALID_STATEMENT, () -> query(session, "SELECT * FROM a"));
        assertTrue(cycle.getMessage().contains("refers to itself"), cycle.getMessage());
    }

    @Test
    void aViewOnAMissingTableIsNotCreated() {
        fails(ErrorCode.OBJECT_NOT_FOUND, () -> session.execute("CREATE VIEW v AS SELECT * FROM nowhere"));
        assertEquals(List.of(), query(session, "SELECT * FROM sys.views"));
    }

    @Test
    void viewsSurviveARestartAndAreListed() {
        session.execute("CREATE VIEW [Big Orders] AS SELECT id, customer FROM orders WHERE amount > 9");
        reopen();
        assertEquals(List.of(List.of(1, "ann"), List.of(2, "bob")),
                query(session, "SELECT * FROM [big orders] ORDER BY id"));
        List<List<Object>> listed = query(session, "SELECT view_name, definition FROM sys.views");
        assertEquals(1, listed.size());
        assertEquals("Big Orders", listed.getFirst().get(0));
        assertTrue(((String) listed.getFirst().get(1)).contains("amount"), listed.toString());
    }
}
