package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE TABLE ... AS query and SELECT ... INTO: the new table has the query's names, types and
 * nullability and its rows; a columnstore target loads through the bulk path; a failure anywhere
 * leaves no table (and no rowgroup files) behind.
 */
class CreateTableAsTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE src (id INT NOT NULL, name VARCHAR(20), amount DECIMAL(10, 2))");
        update(session, "INSERT INTO src VALUES (1, 'one', 1.50), (2, 'two', NULL), (3, NULL, 3.25)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private Optional<CatalogEntry.Table> table(String name) {
        return engine.database().catalog().byName(engine.database().bufferPool(), name, new IoCounters())
                .map(entry -> (CatalogEntry.Table) entry);
    }

    @Test
    void createTableAsMakesARowstoreHeapWithTheQuerysColumnsAndRows() {
        assertEquals(2, update(session, "CREATE TABLE copy AS SELECT id, name, amount * 2 AS doubled FROM src WHERE id > 1"));
        CatalogEntry.Table copy = table("copy").orElseThrow();
        assertEquals(CatalogEntry.Organization.HEAP, copy.organization());
        TableSchema schema = copy.schema();
        assertEquals(List.of("id", "name", "doubled"), schema.columns().stream().map(Column::name).toList());
        assertEquals(Column.notNull("id", SqlType.INT), schema.column(0));
        assertEquals(Column.nullable("name", SqlType.varchar(20)), schema.column(1));
        assertTrue(schema.column(2).type() instanceof SqlType.DecimalType decimal && decimal.scale() == 2,
                schema.column(2).toString());
        assertEquals(List.of(Arrays.asList(2, "two", null), Arrays.asList(3, null, new BigDecimal("6.50"))),
                query(session, "SELECT * FROM copy ORDER BY id"));
        assertEquals(1, update(session, "INSERT INTO copy VALUES (4, 'four', 8.00)"), "an ordinary table afterwards");
    }

    @Test
    void selectIntoCreatesTheTableFromTheSelectList() {
        assertEquals(3, update(session, "SELECT id, UPPER(name) AS upper_name INTO shouted FROM src"));
        assertEquals(List.of(Arrays.asList(1, "ONE"), Arrays.asList(2, "TWO"), Arrays.asList(3, null)),
                query(session, "SELECT * FROM shouted ORDER BY id"));
        assertEquals(3, update(session, "SELECT * INTO Testtable2 FROM src t1"));
        assertEquals(table("src").orElseThrow().schema(), table("Testtable2").orElseThrow().schema());
        assertEquals(query(session, "SELECT * FROM src ORDER BY id"), query(session, "SELECT * FROM testtable2 ORDER BY id"));
        assertEquals(1, update(session, "SELECT COUNT(*) AS n, MAX(id) AS top INTO summary FROM src GROUP BY name HAVING MAX(id) = 3"));
        assertEquals(List.of(List.of(1L, 3)), query(session, "SELECT * FROM summary"));
    }

    /** SQL Server's SELECT TOP n ... INTO ... ORDER BY: the new table holds the first n rows of that order. */
    @Test
    void selectTopIntoKeepsTheFirstRowsOfTheOrderAsked() {
        assertEquals(2, update(session, "SELECT TOP 2 id, name INTO firsts FROM src ORDER BY id DESC"));
        assertEquals(List.of(Arrays.asList(2, "two"), Arrays.asList(3, null)), query(session, "SELECT * FROM firsts ORDER BY id"));
        assertEquals(1, update(session, "SELECT DISTINCT TOP (1) amount INTO cheapest FROM src WHERE amount IS NOT NULL ORDER BY amount"));
        assertEquals(List.of(List.of(new BigDecimal("1.50"))), query(session, "SELECT * FROM cheapest"));
    }

    @Test
    void parametersAndAnEmptyResultWork() {
        assertEquals(2, ((StatementResult.Update) session.execute("CREATE TABLE later AS SELECT id FROM src WHERE id > ?",
                List.of(1))).count());
        assertEquals(0, update(session, "SELECT id, name INTO nothing FROM src WHERE id > 100"));
        assertEquals(List.of(List.of(0L)), query(session, "SELECT COUNT(*) FROM nothing"));
    }

    @Test
    void aColumnstoreTargetOfABulkLoadGetsCompressedRowgroups(@TempDir Path files) throws IOException {
        int rows = 110_000;
        Path csv = files.resolve("ids.csv");
        StringBuilder text = new StringBuilder();
        for (int id = 1; id <= rows; id++) {
            text.append(id).append('\n');
        }
        Files.writeString(csv, text);
        session.execute("CREATE TABLE ids (id INT NOT NULL)");
        session.execute("COPY ids FROM '" + csv + "'");
        assertEquals(rows, update(session, "CREATE TABLE facts WITH (storage = columnstore) AS "
                + "SELECT id, id % 7 AS grp, CAST(id AS VARCHAR(10)) AS label FROM ids"));
        assertEquals(CatalogEntry.Organization.COLUMNSTORE, table("facts").orElseThrow().organization());
        assertEquals(List.of(List.of("COMPRESSED", (long) rows, "BULKLOAD")), query(session,
                "SELECT state, total_rows, trim_reason FROM sys.column_store_row_groups WHERE table_name = 'facts'"));
        List<List<Object>> totals = query(session,
                "SELECT COUNT(*), SUM(CAST(id AS BIGINT)), MAX(grp), MAX(label) FROM facts");
        assertEquals(List.of(List.of((long) rows, BigDecimal.valueOf((long) rows * (rows + 1) / 2), 6, "99999")), totals);

        // Fewer rows than a bulk load compresses go to the delta store, as for INSERT ... SELECT.
        assertEquals(3, update(session, "CREATE TABLE few WITH (storage = columnstore) AS SELECT * FROM src"));
        assertEquals(List.of(List.of("OPEN", 3L)), query(session,
                "SELECT state, total_rows FROM sys.column_store_row_groups WHERE table_name = 'few'"));
    }

    @Test
    void anExpressionWithoutAnAliasIsAnError() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> session.execute("CREATE TABLE t AS SELECT id, amount * 2 FROM src"));
        assertEquals(ErrorCode.INVALID_STATEMENT, error.errorCode());
        assertEquals("[INVALID_STATEMENT] No column name was specified for column 2 of 't': give the expression "
                + "a name with AS", error.getMessage());
        ColumbaException into = assertThrows(ColumbaException.class,
                () -> session.execute("SELECT COUNT(*) INTO t FROM src"));
        assertTrue(into.getMessage().contains("column 1 of 't'"), into.getMessage());
        assertFalse(table("t").isPresent());
    }

    @Test
    void anExistingTargetIsAnErrorUnlessIfNotExists() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> session.execute("SELECT * INTO SRC FROM src"));
        assertEquals(ErrorCode.OBJECT_ALREADY_EXISTS, error.errorCode());
        assertEquals("[OBJECT_ALREADY_EXISTS] There is already an object named 'SRC' in the database", error.getMessage());
        assertEquals(0, update(session, "CREATE TABLE IF NOT EXISTS src AS SELECT 1 AS x"));
        assertEquals(3, table("src").orElseThrow().schema().size(), "left as it was");
    }

    @Test
    void aFailingLoadLeavesNoTableBehind() throws IOException {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> session.execute("CREATE TABLE broken AS SELECT id, 10 / (id - 3) AS ratio FROM src"));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, error.errorCode());
        assertFalse(table("broken").isPresent());

        // A columnstore load that fails after its first rowgroup was written leaves no files either.
        update(session, "SELECT id INTO many FROM src");
        for (int offset = 3; offset < 48; offset *= 2) {
            update(session, "INSERT INTO many SELECT id + " + offset + " FROM many");
        }
        assertEquals(List.of(List.of(48L, 48)), query(session, "SELECT COUNT(*), MAX(id) FROM many"));
        // Batches of 4 rows: the failing row's batch comes after rowgroups of 8 rows were written.
        session.execute("SET batch_size = 4");
        assertThrows(ColumbaException.class, () -> session.execute("CREATE TABLE cs WITH (storage = columnstore, "
                + "rowgroup_max_rows = 8, bulk_min_rows = 8) AS SELECT id, 100 / (id - 40) AS v FROM many"));
        assertFalse(table("cs").isPresent());
        Path columnstore = directory.resolve("columnstore");
        try (Stream<Path> left = Files.exists(columnstore) ? Files.list(columnstore) : Stream.empty()) {
            assertEquals(List.of(), left.toList(), "no rowgroup files of the failed load remain");
        }

        // In an explicit transaction the table goes with a rollback.
        session.setAutoCommit(false);
        update(session, "SELECT id INTO temporary FROM src");
        assertEquals(List.of(List.of(3L)), query(session, "SELECT COUNT(*) FROM temporary"));
        session.rollback();
        session.setAutoCommit(true);
        assertFalse(table("temporary").isPresent());
    }
}
