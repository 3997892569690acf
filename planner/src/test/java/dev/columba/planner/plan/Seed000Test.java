package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.Transaction;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 000's prefetch experiment on real tables: TestTable (identity ID, unique clustered) and
 * Testtable2 (unique clustered on IDvarchar, plus a unique index on it), loaded as the seed loads
 * them (Testtable2 by INSERT ... SELECT through the planner). With {@code ID < 27} the outer side is
 * estimated at 26 rows, above the threshold of 25, so the index nested-loop join prefetches; with
 * {@code ID < 26} at 25, so it does not. Cold runs show the difference in read-ahead reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Seed000Test {
    private static final int ROWS = 30_000;
    private static final String QUERY = """
            SELECT *
            FROM TestTable t1
            WHERE IDvarchar IN
               (SELECT IDvarchar
                FROM testtable2 t2)
            AND ID < %d
            OPTION (loop join)""";

    private TestDatabase db;

    @BeforeAll
    void load(@TempDir Path directory) {
        db = new TestDatabase(directory);
        TestTableGenerator generator = new TestTableGenerator(ROWS, 7);
        db.createRowstore("TestTable", generator.schema(), List.of(0), true);
        IoCounters counters = new IoCounters();
        try (Transaction transaction = db.database().begin()) {
            TableStore table = db.tables().table(transaction.writes(), "TestTable", counters);
            RowCursor cursor = generator.cursor();
            while (cursor.next()) {
                table.insert(transaction, cursor.row(), counters);
            }
            transaction.commit();
        }
        // As SQL Server builds statistics with CREATE CLUSTERED INDEX, the session gathers them after the DDL.
        TableStore testTable = db.tables().table(db.database().bufferPool(), "TestTable", counters);
        db.statistics().gather(testTable, db.database().bufferPool(), counters);
        db.createRowstore("Testtable2", generator.schema(), List.of(1), true);
        assertEquals(ROWS, db.update("INSERT INTO Testtable2 SELECT * FROM TestTable t1"));
        db.createIndex("Testtable2", "ix_IDVARCHAR", List.of(1), true);
    }

    @AfterAll
    void close() {
        db.close();
    }

    @Test
    void estimatesTheKeyRangeFromTheKeyBounds() {
        String plan26 = db.explain(QUERY.formatted(27));
        GoldenPlans.assertPlan("seed000_id_below_27", plan26, QUERY.formatted(27));
        assertTrue(plan26.contains("WithUnorderedPrefetch"), plan26);
        assertTrue(plan26.contains("seek ID < 27 (estimated rows 26") || plan26.contains("estimated rows 26"), plan26);
        String plan25 = db.explain(QUERY.formatted(26));
        GoldenPlans.assertPlan("seed000_id_below_26", plan25, QUERY.formatted(26));
        assertFalse(plan25.contains("Prefetch"), plan25);
    }

    @Test
    void coldRunsPrefetchTheInnerTableOnlyAboveTheThreshold() {
        db.database().checkpoint();
        db.database().dropCleanBuffers();
        List<List<Object>> rows = db.query(QUERY.formatted(27));
        assertEquals(26, rows.size());
        IoCounters inner = db.lastContext().counters("Testtable2");
        System.out.println("27: " + db.lastContext().statistics());
        assertTrue(inner.get(IoCounter.READ_AHEAD_READS) > 0, "prefetch reads of the inner table");
        assertEquals(0, inner.get(IoCounter.SCAN_COUNT), "unique seeks start no scan");

        db.database().dropCleanBuffers();
        rows = db.query(QUERY.formatted(26));
        assertEquals(25, rows.size());
        inner = db.lastContext().counters("Testtable2");
        System.out.println("26: " + db.lastContext().statistics());
        assertEquals(0, inner.get(IoCounter.READ_AHEAD_READS));
        assertTrue(inner.get(IoCounter.PHYSICAL_READS) > 0);
    }
}
