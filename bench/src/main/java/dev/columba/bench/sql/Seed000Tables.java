package dev.columba.bench.sql;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.datagen.RowCursor;
import dev.columba.datagen.Seed000Sql;
import dev.columba.datagen.TestTableGenerator;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.LongUnaryOperator;

/**
 * Seed 000's two tables, made as the article makes them: {@code TestTable} (identity {@code ID},
 * persisted computed {@code IDvarchar}, unique clustered on {@code ID}) and {@code Testtable2} (the
 * same rows, unique clustered on {@code IDvarchar}, plus the unique nonclustered index
 * {@code ix_IDVARCHAR} on it). Tables and indexes are made by the article's SQL; the rows come
 * from datagen's {@link TestTableGenerator} through the storage API, a transaction per
 * {@link #ROWS_PER_TRANSACTION} rows, because an INSERT of millions of rows would be one
 * transaction, larger than a buffer pool may hold for one. Testtable2's rows go in in key order
 * ({@code IDvarchar}'s text order), so its tree is as compact as the one SQL Server's
 * {@code CREATE CLUSTERED INDEX} sorts and builds.
 *
 * <p>The database lives in {@code <dataDirectory>/seed000-<rows>} and is reused by later runs
 * ({@link PreparedDatabase}). Key statistics (the identity's bounds, which make {@code ID < 27}
 * an estimate of 26 rows) are gathered by the engine when a benchmark opens it.
 */
public final class Seed000Tables {
    public static final String TEST_TABLE = "TestTable";
    public static final String TEST_TABLE_2 = "Testtable2";
    /** Changes whenever the tables or their rows change, so that older databases are reloaded. */
    static final String SHAPE = "seed000-v1";
    /** Seeds {@code Randomvalue}, the generator's only random column. */
    static final long SEED = 0;
    static final int ROWS_PER_TRANSACTION = 8192;
    /**
     * Rows per MB of the loading pool: building {@code ix_IDVARCHAR} over every row of Testtable2 is
     * one DDL transaction, which may hold only a share of the pool (about 1 GB for the seed's 6.25
     * million rows; a small pool for small tables, which is quicker to allocate).
     */
    private static final long ROWS_PER_LOAD_POOL_MB = 6000;
    private static final long SMALLEST_LOAD_POOL_MB = 32;

    private static final String CREATE_TEST_TABLE = """
            CREATE TABLE DBO.TestTable (
               ID int IDENTITY (1, 1) NOT NULL,
               IDvarchar AS CAST(ID AS varchar(50)) PERSISTED NOT NULL,
               intcolumn int,
               NAME varchar(50) NOT NULL,
               Age int NOT NULL,
               Randomvalue bigint
            )""";

    private Seed000Tables() {
    }

    /** What a prepared database holds; persisted in its marker file. */
    public record Description(Path directory, long rows, long testTableLeafPages, long testTablePages,
                              long testtable2LeafPages, long testtable2Pages, long indexPages, boolean loadedNow,
                              double loadSeconds) {
    }

    public static Path directory(Path dataDirectory, long rows) {
        return prepared(dataDirectory, rows).directory();
    }

    private static PreparedDatabase prepared(Path dataDirectory, long rows) {
        return PreparedDatabase.in(dataDirectory, "seed000-" + rows);
    }

    /**
     * The tables with {@code rows} rows each under {@code dataDirectory}: reused if a previous run
     * finished loading them with the current shape, loaded otherwise (progress on {@code progress}).
     */
    public static Description prepare(Path dataDirectory, long rows, PrintStream progress) {
        PreparedDatabase database = prepared(dataDirectory, rows);
        Map<String, String> identity = Map.of("shape", SHAPE, "rows", String.valueOf(rows));
        Properties recorded = database.reusable(identity);
        if (recorded != null) {
            return describe(database, rows, recorded, false);
        }
        database.startLoad(identity);
        Properties loaded = load(database.directory(), rows, progress);
        database.finishLoad(identity, loaded, "seed 000's TestTable and Testtable2");
        return describe(database, rows, loaded, true);
    }

    private static Properties load(Path directory, long rows, PrintStream progress) {
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "bench: loading %,d rows into each of %s and %s in %s%n", rows, TEST_TABLE,
                TEST_TABLE_2, directory);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", Math.max(SMALLEST_LOAD_POOL_MB, rows / ROWS_PER_LOAD_POOL_MB) + "MB");
        TestTableGenerator generator = new TestTableGenerator(rows, SEED);
        try (SqlDatabase sql = SqlDatabase.open(directory, settings)) {
            sql.execute(CREATE_TEST_TABLE);
            sql.execute("CREATE UNIQUE CLUSTERED INDEX CI_TestTable_ID ON DBO.TestTable (ID)");
            insert(sql.engine().database(), TEST_TABLE, generator, rows, LongUnaryOperator.identity(), progress, start);
            sql.execute(Seed000Sql.TEST_TABLE_2); // the seed makes it by SELECT INTO; its rows are loaded separately
            sql.execute("CREATE UNIQUE CLUSTERED INDEX ix_id_testtable2 ON testtable2 (IDvarchar)");
            LexicographicIds ids = new LexicographicIds(rows);
            insert(sql.engine().database(), TEST_TABLE_2, generator, rows, ignored -> ids.next(), progress, start);
            sql.execute("CREATE UNIQUE INDEX ix_IDVARCHAR ON testtable2 (IDvarchar)");
            sql.execute("CHECKPOINT");
            for (String table : new String[] {TEST_TABLE, TEST_TABLE_2}) {
                long counted = sql.execute("SELECT COUNT(*) FROM " + table).sumOfFirstColumn();
                if (counted != rows) {
                    throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + rows + " rows into " + table + " of "
                            + directory + " but it counts " + counted);
                }
            }
            Database database = sql.engine().database();
            IoCounters counters = new IoCounters();
            Tables tables = new Tables(database);
            IndexPhysicalStats first = IndexPhysicalStats.of(tables.table(database.bufferPool(), TEST_TABLE, counters)
                    .tree(), database.bufferPool(), counters);
            TableStore second = tables.table(database.bufferPool(), TEST_TABLE_2, counters);
            IndexPhysicalStats secondTree = IndexPhysicalStats.of(second.tree(), database.bufferPool(), counters);
            IndexPhysicalStats index = IndexPhysicalStats.of(second.indexes().getFirst().tree(), database.bufferPool(),
                    counters);
            Properties loaded = new Properties();
            loaded.setProperty("testTableLeafPages", String.valueOf(first.leafPages()));
            loaded.setProperty("testTablePages", String.valueOf(first.leafPages() + first.internalPages()));
            loaded.setProperty("testtable2LeafPages", String.valueOf(secondTree.leafPages()));
            loaded.setProperty("testtable2Pages", String.valueOf(secondTree.leafPages() + secondTree.internalPages()));
            loaded.setProperty("indexPages", String.valueOf(index.leafPages() + index.internalPages()));
            loaded.setProperty("loadSeconds", String.format(Locale.ROOT, "%.1f", seconds(start)));
            progress.printf(Locale.ROOT, "bench: loaded seed 000's tables in %.0f s%n", seconds(start));
            return loaded;
        }
    }

    /** Inserts row {@code idOf(n) - 1} of the generator for n = 0, 1, ..., rows - 1, in chunked transactions. */
    private static void insert(Database database, String table, TestTableGenerator generator, long rows,
                               LongUnaryOperator idOf, PrintStream progress, long start) {
        Tables tables = new Tables(database);
        IoCounters counters = new IoCounters();
        for (long first = 0; first < rows; first += ROWS_PER_TRANSACTION) {
            long end = Math.min(rows, first + ROWS_PER_TRANSACTION);
            try (Transaction transaction = database.begin()) {
                TableStore store = tables.table(transaction.writes(), table, counters);
                for (long position = first; position < end; position++) {
                    long id = idOf.applyAsLong(position + 1);
                    RowCursor cursor = generator.cursor(id - 1, id);
                    cursor.next();
                    store.insert(transaction, cursor.row(), counters);
                }
                transaction.commit();
            }
            database.checkpointIfDue();
            if ((first / ROWS_PER_TRANSACTION) % 100 == 99) {
                progress.printf(Locale.ROOT, "bench: %s %,d of %,d rows (%.0f s)%n", table, end, rows, seconds(start));
            }
        }
    }

    /**
     * 1..n in the order of their decimal text ("1", "10", "100", ..., "2", "20", ...): the order of
     * Testtable2's clustered key.
     */
    static final class LexicographicIds {
        private final long limit;
        private long current = 1;

        LexicographicIds(long limit) {
            this.limit = limit;
        }

        long next() {
            long id = current;
            if (current * 10 <= limit) {
                current *= 10;
            } else {
                if (current >= limit) {
                    current /= 10;
                }
                current++;
                while (current % 10 == 0) {
                    current /= 10;
                }
            }
            return id;
        }
    }

    private static Description describe(PreparedDatabase database, long rows, Properties recorded, boolean loadedNow) {
        return new Description(database.directory(), rows,
                database.wholeNumber(recorded, "testTableLeafPages"),
                database.wholeNumber(recorded, "testTablePages"),
                database.wholeNumber(recorded, "testtable2LeafPages"),
                database.wholeNumber(recorded, "testtable2Pages"),
                database.wholeNumber(recorded, "indexPages"),
                loadedNow,
                database.number(recorded, "loadSeconds"));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
