package dev.columba.bench.storage;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.btree.BTree;
import dev.columba.storage.btree.IndexPhysicalStats;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Seed 004's table, adapted to Columba's row limit: {@code test(i INT NOT NULL, j INT NOT NULL,
 * dt TIMESTAMP NOT NULL, filler CHAR(1800) NOT NULL)} clustered on {@code i}, rows
 * {@code i = 1..n}, {@code j = i} for even {@code i} and {@code n - i} for odd ones, {@code dt} one
 * second apart, {@code filler = 'abc'} padded. The seed's {@code CHAR(5000)} cannot stay in a
 * row here: a B+tree entry holds at most {@link BTree#maxEntryLength()} bytes (a quarter page), so
 * the filler is 1,800 characters and four rows fill an 8 KB leaf (loading in key order fills leaves
 * completely: the tree splits at its right edge). A scan therefore reads pages of the same size,
 * just as full, as the seed's, with four rows per page instead of one.
 *
 * <p>The database lives in {@code <dataDirectory>/rowstore-scan-<sizeMb>mb} and is reused by later
 * runs: a sibling file {@code rowstore-scan-<sizeMb>mb.properties} records that it finished loading,
 * with which shape, and its physical statistics ({@link PreparedDatabase}). Anything else in its
 * place is reloaded, or refused if the bench did not create it.
 */
public final class ScanTable {
    public static final String TABLE_NAME = "test";
    /** Column positions in {@link #schema()}. */
    public static final int I = 0;
    public static final int J = 1;
    public static final int DT = 2;
    public static final int FILLER = 3;

    static final int FILLER_LENGTH = 1800;
    static final int ROWS_PER_PAGE = 4;
    /** Changes whenever the schema or the rows change, so that older databases are reloaded. */
    static final String SHAPE = "seed004-v1";
    static final LocalDateTime FIRST_DT = LocalDateTime.of(2008, 7, 4, 16, 24);
    /** Rows per load transaction: a few thousand pages, well under the pool's per-transaction cap. */
    static final int ROWS_PER_TRANSACTION = 8192;
    private static final String LOAD_BUFFER_POOL = "256MB";

    private ScanTable() {
    }

    /** What a prepared table looks like on disk; persisted in its marker file. */
    public record Description(Path directory, int sizeMb, int rows, long leafPages, long internalPages,
                              long fragments, double averageFragmentPages, double averagePageDensityPercent,
                              boolean loadedNow, double loadSeconds) {

        /** Pages of the table's B+tree. */
        public long pages() {
            return leafPages + internalPages;
        }

        /** Rows per leaf page. */
        public double rowsPerLeaf() {
            return leafPages == 0 ? 0 : (double) rows / leafPages;
        }

        /** A {@code buffer_pool_size} that holds the whole table with room to spare. */
        public String bufferPoolHoldingTable() {
            long megabytes = pages() * PageFormat.PAGE_SIZE * 5 / 4 / (1L << 20) + 16;
            return megabytes + "MB";
        }
    }

    public static TableSchema schema() {
        return TableSchema.of(
                Column.notNull("i", SqlType.INT),
                Column.notNull("j", SqlType.INT),
                Column.notNull("dt", SqlType.TIMESTAMP),
                Column.notNull("filler", SqlType.character(FILLER_LENGTH)));
    }

    /** Rows that make a table of {@code sizeMb} megabytes at four rows per 8 KB page. */
    public static int rowsFor(int sizeMb) {
        long rows = (long) sizeMb * (1L << 20) / PageFormat.PAGE_SIZE * ROWS_PER_PAGE;
        if (sizeMb < 1 || rows > Integer.MAX_VALUE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table size " + sizeMb + " MB is out of range");
        }
        return (int) rows;
    }

    /** Row {@code i} (1-based) of a table of {@code rows} rows. */
    static Object[] row(int i, int rows) {
        return new Object[] {i, i % 2 == 0 ? i : rows - i, FIRST_DT.plusSeconds(i), "abc"};
    }

    /** What a full scan must compute. */
    public static ScanResult expected(int rows) {
        long sum = 0;
        for (int i = 1; i <= rows; i++) {
            sum += i % 2 == 0 ? i : rows - i;
        }
        return new ScanResult(rows, sum, rows == 0 ? null : FIRST_DT.plusSeconds(rows));
    }

    /**
     * Fails unless {@code actual} is what a full scan of {@code rows} rows computes.
     *
     * @throws ColumbaException INTERNAL naming both results and the scan
     */
    public static void check(ScanResult actual, int rows, String scan) {
        ScanResult expected = expected(rows);
        if (!expected.equals(actual)) {
            throw new ColumbaException(ErrorCode.INTERNAL, scan + " of table " + TABLE_NAME + " computed " + actual
                    + ", expected " + expected);
        }
    }

    /**
     * The benchmark's query: every row of {@code store} in key order, decoding only {@code j} and
     * {@code dt} (the filler stays on its page).
     */
    public static ScanResult scan(TableStore store, PageReader reader, ReadAheadOptions readAhead, IoCounters counters) {
        long rows = 0;
        long sumOfJ = 0;
        LocalDateTime maxDt = null;
        try (TableCursor cursor = store.scan(reader, TableScan.all(readAhead).withProjection(J, DT), counters)) {
            while (cursor.next()) {
                Object[] row = cursor.row();
                rows++;
                sumOfJ += (Integer) row[0];
                LocalDateTime dt = (LocalDateTime) row[1];
                if (maxDt == null || dt.isAfter(maxDt)) {
                    maxDt = dt;
                }
            }
        }
        return new ScanResult(rows, sumOfJ, maxDt);
    }

    public static Path directory(Path dataDirectory, int sizeMb) {
        return prepared(dataDirectory, sizeMb).directory();
    }

    static Path markerFile(Path dataDirectory, int sizeMb) {
        return prepared(dataDirectory, sizeMb).marker();
    }

    private static PreparedDatabase prepared(Path dataDirectory, int sizeMb) {
        return PreparedDatabase.in(dataDirectory, "rowstore-scan-" + sizeMb + "mb");
    }

    /**
     * The table of {@code sizeMb} megabytes under {@code dataDirectory}: reused if a previous run
     * finished loading it with the current shape, loaded otherwise (progress on {@code progress}).
     *
     * @throws ColumbaException INVALID_ARGUMENT if a directory the bench did not create is in the way
     */
    public static Description prepare(Path dataDirectory, int sizeMb, PrintStream progress) {
        int rows = rowsFor(sizeMb);
        PreparedDatabase database = prepared(dataDirectory, sizeMb);
        Map<String, String> identity = Map.of("shape", SHAPE, "rows", String.valueOf(rows));
        Properties recorded = database.reusable(identity);
        if (recorded != null) {
            return describe(database, sizeMb, rows, recorded, false);
        }
        database.startLoad(identity);
        Properties loaded = load(database.directory(), rows, progress);
        database.finishLoad(identity, loaded, TABLE_NAME + " table (seed 004)");
        return describe(database, sizeMb, rows, loaded, true);
    }

    private static Properties load(Path directory, int rows, PrintStream progress) {
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "bench: loading %,d rows of %s into %s%n", rows, TABLE_NAME, directory);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", LOAD_BUFFER_POOL);
        IoCounters counters = new IoCounters();
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            TableStore table;
            try (Transaction transaction = database.begin()) {
                table = tables.createTable(transaction, TABLE_NAME, schema(), List.of(I), true, Map.of());
                transaction.commit();
            }
            checkEntryFitsInRow(table, rows);
            int reported = 0;
            for (int first = 1; first <= rows; first += ROWS_PER_TRANSACTION) {
                int last = (int) Math.min(rows, (long) first + ROWS_PER_TRANSACTION - 1);
                try (Transaction transaction = database.begin()) {
                    for (int i = first; i <= last; i++) {
                        table.insert(transaction, row(i, rows), counters);
                    }
                    transaction.commit();
                }
                database.checkpointIfDue();
                int percent = (int) (100L * last / rows);
                if (percent / 10 > reported / 10) {
                    reported = percent;
                    progress.printf(Locale.ROOT, "bench: loaded %d%% (%.0f s)%n", percent, seconds(start));
                }
            }
            database.checkpoint();
            IndexPhysicalStats stats = IndexPhysicalStats.of(table.tree(), database.bufferPool(), counters);
            if (stats.entries() != rows) {
                throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + rows + " rows into " + directory
                        + " but its B+tree holds " + stats.entries() + " entries");
            }
            Properties loaded = new Properties();
            loaded.setProperty("leafPages", String.valueOf(stats.leafPages()));
            loaded.setProperty("internalPages", String.valueOf(stats.internalPages()));
            loaded.setProperty("fragments", String.valueOf(stats.fragments()));
            loaded.setProperty("averageFragmentPages", String.valueOf(stats.averageFragmentPages()));
            loaded.setProperty("averagePageDensityPercent", String.valueOf(stats.averagePageDensityPercent()));
            loaded.setProperty("loadSeconds", String.format(Locale.ROOT, "%.1f", seconds(start)));
            progress.printf(Locale.ROOT, "bench: loaded %,d rows in %,d leaf pages in %.0f s%n", rows,
                    stats.leafPages(), seconds(start));
            return loaded;
        }
    }

    /**
     * The shape depends on every row staying in its leaf: a longer entry would move the filler to
     * overflow pages and turn the scan into something else.
     */
    private static void checkEntryFitsInRow(TableStore table, int rows) {
        Object[] widest = row(rows, rows);
        int entry = KeyCodec.of(SqlType.INT).encodedLength(new Object[] {widest[I]}) + table.rowCodec().encodedSize(widest);
        if (entry > BTree.maxEntryLength()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "an entry of table " + TABLE_NAME + " takes " + entry
                    + " bytes, more than a B+tree leaf keeps in row (" + BTree.maxEntryLength() + ")");
        }
    }

    private static Description describe(PreparedDatabase database, int sizeMb, int rows, Properties recorded,
                                        boolean loadedNow) {
        return new Description(database.directory(), sizeMb, rows,
                (long) database.number(recorded, "leafPages"),
                (long) database.number(recorded, "internalPages"),
                (long) database.number(recorded, "fragments"),
                database.number(recorded, "averageFragmentPages"),
                database.number(recorded, "averagePageDensityPercent"),
                loadedNow,
                database.number(recorded, "loadSeconds"));
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
