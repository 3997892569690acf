package dev.columba.bench.sql;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.db.Database;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Seed 003's OLTP table: {@code accounts(id BIGINT PRIMARY KEY, email VARCHAR(40), balance BIGINT,
 * branch INT, filler CHAR(200))}, clustered on {@code id} (0 .. rows - 1), with the unique
 * nonclustered index {@code ix_accounts_email} on {@code email}. Each email is derived from its id
 * by a bijection that scatters it ({@link #email}), so neighbours in the index are far apart in the
 * table, as an application's lookups by a natural key are. About 30 rows fill an 8 KB page, so
 * 2,000,000 rows make about 500 MB.
 *
 * <p>The table and its index are made by SQL; the rows come through the storage API in key order,
 * a transaction per {@link #ROWS_PER_TRANSACTION} rows, before the index is built by
 * {@code CREATE UNIQUE INDEX} (one statement over the loaded rows). The database lives in
 * {@code <dataDirectory>/seed003-<rows>} and is reused by later runs ({@link PreparedDatabase}); the
 * workload's updates change balances only, never the shape of the table.
 */
public final class AccountsTable {
    public static final String TABLE_NAME = "accounts";
    public static final long INITIAL_BALANCE = 1000;
    static final String SHAPE = "seed003-v1";
    static final int ROWS_PER_TRANSACTION = 8192;
    /**
     * Rows per MB of the loading pool: building the index is one DDL transaction, which may hold
     * only a share of the pool (about 670 MB for 2,000,000 rows; a small pool for small tables,
     * which is quicker to allocate).
     */
    private static final long ROWS_PER_LOAD_POOL_MB = 3000;
    private static final long SMALLEST_LOAD_POOL_MB = 32;
    private static final long SCATTER = 0x9E3779B1L;

    private AccountsTable() {
    }

    /** What a prepared database holds; persisted in its marker file. */
    public record Description(Path directory, long rows, long leafPages, long pages, long indexPages,
                              boolean loadedNow, double loadSeconds) {
        public long megabytes() {
            return pages * PageFormat.PAGE_SIZE >> 20;
        }
    }

    /**
     * The email of account {@code id}: {@code id} times an odd constant modulo 2^32 (a bijection
     * on 32 bits, so every email is unique) in hexadecimal.
     */
    public static String email(long id) {
        return String.format(Locale.ROOT, "user%08x@example.org", (id * SCATTER) & 0xFFFF_FFFFL);
    }

    static Object[] row(long id) {
        return new Object[] {id, email(id), INITIAL_BALANCE, (int) (id % 100), "filler"};
    }

    private static PreparedDatabase prepared(Path dataDirectory, long rows) {
        return PreparedDatabase.in(dataDirectory, "seed003-" + rows);
    }

    /**
     * The table with {@code rows} rows under {@code dataDirectory}: reused if a previous run
     * finished loading it with the current shape, loaded otherwise (progress on {@code progress}).
     */
    public static Description prepare(Path dataDirectory, long rows, PrintStream progress) {
        if (rows < 1 || rows > 1L << 32) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "seed 003's table needs 1 to 2^32 rows, got " + rows);
        }
        PreparedDatabase database = prepared(dataDirectory, rows);
        Map<String, String> identity = Map.of("shape", SHAPE, "rows", String.valueOf(rows));
        Properties recorded = database.reusable(identity);
        if (recorded != null) {
            return describe(database, rows, recorded, false);
        }
        database.startLoad(identity);
        Properties loaded = load(database.directory(), rows, progress);
        database.finishLoad(identity, loaded, "seed 003's accounts table");
        return describe(database, rows, loaded, true);
    }

    /**
     * Opens the prepared table as the workload measures it: a buffer pool of {@code bufferPoolMb},
     * data files opened with {@code O_DIRECT} (as InnoDB and SQL Server read; with the page cache
     * this machine's memory would hold the whole table and no read would reach the device), and
     * the session's read-ahead switched as asked ({@code DBCC TRACEON (652)} for off).
     */
    static SqlDatabase open(Description table, int bufferPoolMb, boolean readAhead, int readAheadDepthPages) {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", bufferPoolMb + "MB");
        settings.setProperty("direct_io", "true");
        SqlDatabase database = SqlDatabase.open(table.directory(), settings);
        try {
            database.execute("SET read_ahead_depth_pages = " + readAheadDepthPages);
            if (!readAhead) {
                database.execute("DBCC TRACEON (652)");
            }
            return database;
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private static Properties load(Path directory, long rows, PrintStream progress) {
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "bench: loading %,d rows of %s into %s%n", rows, TABLE_NAME, directory);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", Math.max(SMALLEST_LOAD_POOL_MB, rows / ROWS_PER_LOAD_POOL_MB) + "MB");
        try (SqlDatabase sql = SqlDatabase.open(directory, settings)) {
            sql.execute("CREATE TABLE accounts (id BIGINT NOT NULL PRIMARY KEY, email VARCHAR(40) NOT NULL, "
                    + "balance BIGINT NOT NULL, branch INT NOT NULL, filler CHAR(200) NOT NULL)");
            Database database = sql.engine().database();
            Tables tables = new Tables(database);
            IoCounters counters = new IoCounters();
            for (long first = 0; first < rows; first += ROWS_PER_TRANSACTION) {
                long end = Math.min(rows, first + ROWS_PER_TRANSACTION);
                try (Transaction transaction = database.begin()) {
                    TableStore store = tables.table(transaction.writes(), TABLE_NAME, counters);
                    for (long id = first; id < end; id++) {
                        store.insert(transaction, row(id), counters);
                    }
                    transaction.commit();
                }
                database.checkpointIfDue();
                if ((first / ROWS_PER_TRANSACTION) % 50 == 49) {
                    progress.printf(Locale.ROOT, "bench: %s %,d of %,d rows (%.0f s)%n", TABLE_NAME, end, rows,
                            seconds(start));
                }
            }
            sql.execute("CREATE UNIQUE INDEX ix_accounts_email ON accounts (email)");
            sql.execute("CHECKPOINT");
            long counted = sql.execute("SELECT COUNT(*) FROM accounts").sumOfFirstColumn();
            if (counted != rows) {
                throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + rows + " rows into " + TABLE_NAME + " of "
                        + directory + " but it counts " + counted);
            }
            TableStore store = tables.table(database.bufferPool(), TABLE_NAME, counters);
            IndexPhysicalStats tree = IndexPhysicalStats.of(store.tree(), database.bufferPool(), counters);
            IndexPhysicalStats index = IndexPhysicalStats.of(store.indexes().getFirst().tree(), database.bufferPool(),
                    counters);
            Properties loaded = new Properties();
            loaded.setProperty("leafPages", String.valueOf(tree.leafPages()));
            loaded.setProperty("pages", String.valueOf(tree.leafPages() + tree.internalPages()));
            loaded.setProperty("indexPages", String.valueOf(index.leafPages() + index.internalPages()));
            loaded.setProperty("loadSeconds", String.format(Locale.ROOT, "%.1f", seconds(start)));
            progress.printf(Locale.ROOT, "bench: loaded %,d rows in %,d leaf pages in %.0f s%n", rows, tree.leafPages(),
                    seconds(start));
            return loaded;
        }
    }

    private static Description describe(PreparedDatabase database, long rows, Properties recorded, boolean loadedNow) {
        return new Description(database.directory(), rows,
                database.wholeNumber(recorded, "leafPages"),
                database.wholeNumber(recorded, "pages"),
                database.wholeNumber(recorded, "indexPages"),
                loadedNow,
                database.number(recorded, "loadSeconds"));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
