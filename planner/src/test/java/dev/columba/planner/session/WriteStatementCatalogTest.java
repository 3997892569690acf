package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoCounter;
import dev.columba.core.stats.IoCounters;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a write statement takes from its plan instead of the catalog: whether its table is a
 * columnstore (whose rowgroup figures are gathered again after it) and whether the table has an
 * IDENTITY column. Both hold only as long as the plan: each test changes the table under a
 * statement another session keeps executing (DROP and re-CREATE of the same name, the other way
 * round, DDL inside a transaction) and checks that the next execution follows the catalog; and
 * that what does change with every statement, the identity's last value, is still read as the
 * statement's transaction sees it (other sessions' inserts, a rollback).
 */
class WriteStatementCatalogTest {
    private static final String INSERT = "INSERT INTO t (v) VALUES (?)";

    @TempDir
    Path directory;

    private Engine engine;
    private Session writer;
    private Session other;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        writer = engine.openSession();
        other = engine.openSession();
    }

    @AfterEach
    void close() {
        writer.close();
        other.close();
        engine.close();
    }

    private long insert(Session session, int value) {
        return ((StatementResult.Update) session.execute(INSERT, Arrays.asList(value))).count();
    }

    private int objectId(String table) {
        return engine.database().catalog().byName(engine.database().bufferPool(), table, new IoCounters())
                .orElseThrow().objectId();
    }

    /** Rows the statistics know in table {@code name}'s rowgroups (delta rows included while few). */
    private long gatheredRows(String name) {
        return engine.statistics().columnstore(objectId(name)).orElseThrow().liveRows();
    }

    @Test
    void aTableReCreatedAsColumnstoreHasItsFiguresGatheredAfterTheSameInsert() {
        writer.execute("CREATE TABLE t (id BIGINT, v INT)");
        for (int value = 1; value <= 3; value++) {
            assertEquals(1, insert(writer, value));
        }
        other.execute("DROP TABLE t");
        other.execute("CREATE TABLE t (id BIGINT, v INT) WITH (storage = columnstore)");
        assertEquals(0, gatheredRows("t"), "gathered when created");
        for (int value = 1; value <= 2; value++) {
            assertEquals(1, insert(writer, value));
            assertEquals(value, gatheredRows("t"), "gathered again after insert " + value);
        }
    }

    @Test
    void aColumnstoreReCreatedAsRowstoreIsWrittenWithoutItsOldFigures() {
        writer.execute("CREATE TABLE t (id BIGINT, v INT) WITH (storage = columnstore)");
        assertEquals(1, insert(writer, 1));
        assertEquals(1, gatheredRows("t"));
        other.execute("DROP TABLE t");
        other.execute("CREATE TABLE t (id BIGINT, v INT)");
        assertEquals(1, insert(writer, 2));
        assertEquals(List.of(List.of(2)), query(writer, "SELECT v FROM t"));
        assertEquals(java.util.Optional.empty(), engine.statistics().columnstore(objectId("t")));
    }

    @Test
    void anIdentityColumnOfATableReCreatedWithTheSameNameIsFilled() {
        writer.execute("CREATE TABLE t (id BIGINT, v INT)");
        assertEquals(1, insert(writer, 1));
        assertEquals(List.of(Arrays.asList(null, 1)), query(writer, "SELECT id, v FROM t"));
        other.execute("DROP TABLE t");
        other.execute("CREATE TABLE t (id BIGINT IDENTITY(100, 10) NOT NULL, v INT)");
        assertEquals(1, insert(writer, 2));
        assertEquals(1, insert(writer, 3));
        assertEquals(List.of(List.of(100L, 2), List.of(110L, 3)), query(writer, "SELECT id, v FROM t ORDER BY id"));
        // And the other way: the identity column gone, the statement inserts NULL ids again.
        other.execute("DROP TABLE t");
        other.execute("CREATE TABLE t (id BIGINT, v INT)");
        assertEquals(1, insert(writer, 4));
        assertEquals(List.of(Arrays.asList(null, 4)), query(writer, "SELECT id, v FROM t"));
    }

    @Test
    void theIdentityValueComesFromTheCatalogAsEachStatementsTransactionSeesIt() {
        writer.execute("CREATE TABLE t (id BIGINT IDENTITY(1, 1) NOT NULL, v INT) WITH (storage = columnstore)");
        assertEquals(1, insert(writer, 1));
        assertEquals(1, insert(other, 2));
        assertEquals(1, insert(writer, 3));
        writer.setAutoCommit(false);
        assertEquals(1, insert(writer, 4));
        writer.rollback();
        writer.setAutoCommit(true);
        assertEquals(1, insert(writer, 5));
        assertEquals(List.of(List.of(1L, 1), List.of(2L, 2), List.of(3L, 3), List.of(4L, 5)),
                query(writer, "SELECT id, v FROM t ORDER BY id"));
    }

    @Test
    void aTableCreatedInTheStatementsTransactionIsWrittenAsThatTransactionSeesIt() {
        writer.execute("CREATE TABLE t (id BIGINT, v INT)");
        assertEquals(1, insert(writer, 1));
        writer.setAutoCommit(false);
        writer.execute("DROP TABLE t");
        writer.execute("CREATE TABLE t (id BIGINT IDENTITY(7, 1) NOT NULL, v INT) WITH (storage = columnstore)");
        assertEquals(1, insert(writer, 2));
        assertEquals(1, insert(writer, 3));
        writer.commit();
        writer.setAutoCommit(true);
        assertEquals(List.of(List.of(7L, 2), List.of(8L, 3)), query(writer, "SELECT id, v FROM t ORDER BY id"));
        assertEquals(2, gatheredRows("t"));
    }

    /**
     * The figures gathered after a columnstore write find the table by its object id: the catalog
     * pages one insert reads do not grow with the number of tables beside it (by name, every
     * catalog leaf was read and every entry decoded: 38 more pages with the 400 tables here).
     */
    @Test
    void aColumnstoreWritesFiguresAreGatheredWithoutReadingTheWholeCatalog() {
        writer.execute("CREATE TABLE t (id BIGINT, v INT) WITH (storage = columnstore)");
        assertEquals(1, insert(writer, 1)); // planned and cached
        long alone = pagesReadByOneInsert();
        for (int table = 0; table < 400; table++) {
            other.execute("CREATE TABLE beside_t_with_a_rather_long_name_" + table
                    + " (id BIGINT PRIMARY KEY, first_column_name INT, second_column_name VARCHAR(40), third_column DATE)");
        }
        assertEquals(1, insert(writer, 3)); // planned again after the DDL, which reads the catalog
        long beside = pagesReadByOneInsert();
        assertTrue(beside - alone <= 2, "an insert read " + alone + " pages beside one table, " + beside
                + " beside 400 (the catalog's B+tree may grow by a level: at most 2 more)");
        assertEquals(4, gatheredRows("t"));
    }

    /** Pages the engine read for itself (the catalog, statistics) around one execution of the cached insert. */
    private long pagesReadByOneInsert() {
        IoCounters system = engine.database().systemCounters();
        long before = system.get(IoCounter.LOGICAL_READS);
        assertEquals(1, insert(writer, 2));
        return system.get(IoCounter.LOGICAL_READS) - before;
    }

    /**
     * The tuple mover is woken by a commit that closed a delta rowgroup, in autocommit or an
     * explicit transaction, and by no other: its round reads the whole catalog and every
     * columnstore table's rowgroup directory, which every commit used to make it do.
     */
    @Test
    void onlyACommitThatClosedADeltaRowgroupWakesTheTupleMover() throws InterruptedException {
        writer.execute("CREATE TABLE c (id BIGINT, v INT) WITH (storage = columnstore, rowgroup_max_rows = 2048,"
                + " bulk_min_rows = 1000000)");
        writer.execute("CREATE TABLE r (id BIGINT PRIMARY KEY, v INT)");
        writer.execute("INSERT INTO c SELECT generate_series, 1 FROM generate_series(1, 2040)");
        for (int row = 1; row <= 5; row++) {
            writer.execute("INSERT INTO c VALUES (?, 2)", List.of((long) row));
            writer.execute("INSERT INTO r VALUES (?, 2)", List.of((long) row));
        }
        writer.setAutoCommit(false);
        for (int row = 6; row <= 8; row++) {
            writer.execute("INSERT INTO c VALUES (?, 3)", List.of((long) row)); // the 2,048th row closes the rowgroup
        }
        writer.commit();
        writer.setAutoCommit(true);
        var mover = engine.tupleMover();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (mover.compressedRowgroups() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, mover.compressedRowgroups(), "the closed rowgroup compressed after the commit woke the mover");
        assertEquals(1, mover.backgroundRounds(), "one round: no other commit woke the mover");
        assertEquals(List.of(List.of(2048L)), query(writer, "SELECT COUNT(*) FROM c"));
    }
}
