package dev.columba.columnstore.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.batch.Batch;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comparisons between two columns evaluated inside the columnstore scan ({@link ColumnComparison})
 * keep exactly the rows a row-by-row evaluation in SQL's semantics keeps: every operator, INT,
 * BIGINT, DATE, DECIMAL and DOUBLE pairs, NULLs on either side, segments of every encoding (packed
 * values, runs, dictionaries), deleted rows, delta rowgroups, with and without other filters.
 */
class ColumnComparisonScanTest {
    private static final int ID = 0;
    /** Pairs of columns of one type: (left, right) table columns. */
    private static final int INT_LEFT = 1;
    private static final int INT_RIGHT = 2;
    private static final int BIG_LEFT = 3;
    private static final int BIG_RIGHT = 4;
    private static final int SHIPPED = 5;
    private static final int RECEIVED = 6;
    private static final int PRICE = 7;
    private static final int COST = 8;
    private static final int RATIO = 9;
    private static final int LIMIT = 10;
    /** Few distinct values (a dictionary segment) against sorted runs (a run-length segment). */
    private static final int FEW = 11;
    private static final int RUNS = 12;
    private static final int ROWS = 12_000;
    private static final LocalDate EPOCH = LocalDate.of(1995, 1, 1);

    @TempDir
    Path directory;

    private Database database;
    private BufferAllocator allocator;
    private final IoCounters counters = new IoCounters();

    @BeforeEach
    void open() {
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
        allocator = new RootAllocator(1L << 30);
    }

    @AfterEach
    void close() {
        database.close();
        assertEquals(0, allocator.getAllocatedMemory(), "the scans released every buffer");
        allocator.close();
    }

    private static TableSchema schema() {
        return new TableSchema(List.of(
                Column.notNull("id", SqlType.INT),
                Column.nullable("int_left", SqlType.INT),
                Column.nullable("int_right", SqlType.INT),
                Column.notNull("big_left", SqlType.BIGINT),
                Column.notNull("big_right", SqlType.BIGINT),
                Column.notNull("shipped", SqlType.DATE),
                Column.nullable("received", SqlType.DATE),
                Column.notNull("price", SqlType.decimal(12, 2)),
                Column.notNull("cost", SqlType.decimal(12, 2)),
                Column.nullable("ratio", SqlType.DOUBLE),
                Column.notNull("limit_value", SqlType.DOUBLE),
                Column.notNull("few", SqlType.INT),
                Column.notNull("runs", SqlType.INT)));
    }

    private static Object[] row(int id, Random random) {
        // NULLs only in some rowgroups' worth of rows, so that segments with and without NULLs both occur.
        boolean nulls = id >= 4000 && id < 8000;
        Integer intLeft = nulls && random.nextInt(5) == 0 ? null : random.nextInt(100);
        Integer intRight = nulls && random.nextInt(7) == 0 ? null : random.nextInt(100);
        long bigLeft = random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
        long bigRight = random.nextInt(3) == 0 ? bigLeft : random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
        LocalDate shipped = EPOCH.plusDays(random.nextInt(2000));
        LocalDate received = nulls && random.nextInt(6) == 0 ? null : shipped.plusDays(random.nextInt(61) - 30);
        BigDecimal price = BigDecimal.valueOf(random.nextInt(100_000), 2);
        BigDecimal cost = random.nextInt(4) == 0 ? price : BigDecimal.valueOf(random.nextInt(100_000), 2);
        Double ratio = nulls && random.nextInt(5) == 0 ? null
                : switch (random.nextInt(8)) {
                    case 0 -> Double.NaN;
                    case 1 -> -0.0;
                    default -> random.nextDouble() - 0.5;
                };
        double limit = random.nextInt(8) == 0 ? 0.0 : random.nextDouble() - 0.5;
        int few = random.nextInt(4);
        int runs = id / 500;
        return new Object[] {id, intLeft, intRight, bigLeft, bigRight, shipped, received, price, cost, ratio, limit, few, runs};
    }

    /** The table, its rows by id (null once deleted): 3 compressed rowgroups, then rows in a delta rowgroup, some deleted in both. */
    private record Loaded(ColumnstoreTable table, Object[][] rows) {
    }

    private Loaded load(long seed) {
        Random random = new Random(seed);
        List<Object[]> bulk = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            bulk.add(row(id, random));
        }
        int deltaRows = 900;
        Object[][] rows = new Object[ROWS + deltaRows][];
        ColumnstoreTable table;
        try (Transaction transaction = database.begin()) {
            table = ColumnstoreTable.create(database, transaction, "pairs", schema(),
                    Map.of("rowgroup_max_rows", "4000", "bulk_min_rows", "1000"));
            assertEquals(ROWS, table.bulkInsert(transaction, bulk.iterator()));
            for (int id = ROWS; id < ROWS + deltaRows; id++) {
                rows[id] = row(id, random);
                table.insert(transaction, rows[id]);
            }
            transaction.commit();
        }
        for (int id = 0; id < ROWS; id++) {
            rows[id] = bulk.get(id);
        }
        List<RowgroupEntry> rowgroups = table.rowgroups(database.bufferPool(), counters);
        assertTrue(rowgroups.stream().filter(entry -> entry.state() == RowgroupState.COMPRESSED).count() >= 3, rowgroups.toString());
        assertTrue(rowgroups.stream().anyMatch(entry -> entry.state() != RowgroupState.COMPRESSED), rowgroups.toString());
        // Every 13th row leaves, in the compressed rowgroups and the delta alike (located through the scan).
        List<long[]> located = new ArrayList<>();
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(),
                ScanOptions.all(schema().size()).withProjection(ID).withRowLocator(true), new IoCounters(), allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    int row = batch.selectedRow(index);
                    int id = ((IntVector) batch.column(0)).get(row);
                    if (id % 13 == 5) {
                        located.add(new long[] {id, ((org.apache.arrow.vector.BigIntVector) batch.column(1)).get(row)});
                    }
                }
            }
        }
        try (Transaction transaction = database.begin()) {
            for (long[] victim : located) {
                assertTrue(table.delete(transaction, (int) (victim[1] >>> 32), (int) victim[1]));
                rows[(int) victim[0]] = null;
            }
            transaction.commit();
        }
        return new Loaded(table, rows);
    }

    private Set<Integer> scanIds(ColumnstoreTable table, List<ColumnFilter> filters, List<ColumnComparison> comparisons,
                                 int batchSize) {
        Set<Integer> ids = new HashSet<>();
        ScanOptions options = ScanOptions.all(schema().size()).withProjection(ID).withBatchSize(batchSize)
                .withFilters(filters).withComparisons(comparisons);
        try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(), options, new IoCounters(), allocator)) {
            Batch batch;
            while ((batch = scan.next()) != null) {
                for (int index = 0; index < batch.selectedCount(); index++) {
                    assertTrue(ids.add(((IntVector) batch.column(0)).get(batch.selectedRow(index))), "a row came twice");
                }
            }
        }
        return ids;
    }

    /** The reference: SQL's comparison, row by row (NULL on either side is not true). */
    private static Set<Integer> expectedIds(Object[][] rows, List<ColumnFilter> filters, List<ColumnComparison> comparisons) {
        TableSchema schema = schema();
        Set<Integer> ids = new HashSet<>();
        for (Object[] row : rows) {
            if (row == null) {
                continue;
            }
            boolean keep = true;
            for (ColumnFilter filter : filters) {
                keep &= filter.predicate().matches(schema.column(filter.column()).type(), row[filter.column()]);
            }
            for (ColumnComparison comparison : comparisons) {
                Object left = row[comparison.left()];
                Object right = row[comparison.right()];
                keep &= left != null && right != null && comparison.operator().accepts(
                        ValueKind.compareValues(schema.column(comparison.left()).type(), left, right));
            }
            if (keep) {
                ids.add((Integer) row[ID]);
            }
        }
        return ids;
    }

    @Test
    void everyOperatorOnEveryTypeKeepsTheRowsSqlKeeps() {
        long seed = new Random().nextLong();
        System.out.println("ColumnComparisonScanTest seed " + seed);
        Loaded loaded = load(seed);
        int[][] pairs = {{INT_LEFT, INT_RIGHT}, {BIG_LEFT, BIG_RIGHT}, {SHIPPED, RECEIVED}, {PRICE, COST},
                {RATIO, LIMIT}, {FEW, RUNS}, {RUNS, FEW}};
        int checked = 0;
        for (int[] pair : pairs) {
            for (ColumnPredicate.Operator operator : ColumnPredicate.Operator.values()) {
                List<ColumnComparison> comparisons = List.of(new ColumnComparison(pair[0], operator, pair[1]));
                Set<Integer> expected = expectedIds(loaded.rows(), List.of(), comparisons);
                assertEquals(expected, scanIds(loaded.table(), List.of(), comparisons, 4096),
                        "seed " + seed + ": " + comparisons);
                checked += expected.size();
            }
        }
        assertTrue(checked > 0, "some comparisons kept rows");
    }

    /**
     * After a selective filter (a sparse selection, whose values are read at the selected rows
     * only), with a second comparison, in small batches: the order the scan adapts must not change
     * the rows.
     */
    @Test
    void comparisonsAmongFiltersInSmallBatchesKeepTheSameRows() {
        long seed = new Random().nextLong();
        System.out.println("ColumnComparisonScanTest seed " + seed);
        Loaded loaded = load(seed);
        List<ColumnFilter> filters = List.of(
                new ColumnFilter(FEW, new ColumnPredicate.Comparison(ColumnPredicate.Operator.EQUAL, 2)),
                new ColumnFilter(INT_LEFT, new ColumnPredicate.Comparison(ColumnPredicate.Operator.LESS, 90)));
        List<ColumnComparison> comparisons = List.of(
                new ColumnComparison(SHIPPED, ColumnPredicate.Operator.LESS, RECEIVED),
                new ColumnComparison(INT_LEFT, ColumnPredicate.Operator.GREATER_OR_EQUAL, INT_RIGHT));
        for (int batchSize : new int[] {333, 1024, 4096}) {
            Set<Integer> expected = expectedIds(loaded.rows(), filters, comparisons);
            assertTrue(!expected.isEmpty());
            assertEquals(expected, scanIds(loaded.table(), filters, comparisons, batchSize), "seed " + seed + ", batch " + batchSize);
        }
    }

    /**
     * Bounds on one column are folded into one range per segment ({@code SegmentFilter.and}):
     * narrow dates and quantities (word-parallel), wide longs, three bounds on one column, bounds
     * that leave nothing, NULLs, next to comparisons and in small batches.
     */
    @Test
    void boundsOnOneColumnFoldedIntoOneRangeKeepTheRowsOfAll() {
        long seed = new Random().nextLong();
        System.out.println("ColumnComparisonScanTest seed " + seed);
        Loaded loaded = load(seed);
        List<List<ColumnFilter>> conjunctions = List.of(
                List.of(bound(SHIPPED, ColumnPredicate.Operator.GREATER_OR_EQUAL, EPOCH.plusDays(300)),
                        bound(SHIPPED, ColumnPredicate.Operator.LESS, EPOCH.plusDays(665)),
                        bound(INT_LEFT, ColumnPredicate.Operator.GREATER, 20),
                        bound(INT_LEFT, ColumnPredicate.Operator.LESS_OR_EQUAL, 40)),
                List.of(bound(BIG_LEFT, ColumnPredicate.Operator.GREATER, -500_000_000_000L),
                        bound(BIG_LEFT, ColumnPredicate.Operator.LESS, 250_000_000_000L),
                        bound(BIG_LEFT, ColumnPredicate.Operator.GREATER_OR_EQUAL, -100_000_000_000L)),
                List.of(bound(RUNS, ColumnPredicate.Operator.GREATER, 10), bound(RUNS, ColumnPredicate.Operator.LESS, 5),
                        bound(FEW, ColumnPredicate.Operator.EQUAL, 1)),
                List.of(bound(PRICE, ColumnPredicate.Operator.GREATER_OR_EQUAL, new BigDecimal("100.00")),
                        bound(PRICE, ColumnPredicate.Operator.LESS_OR_EQUAL, new BigDecimal("400.00")),
                        bound(INT_RIGHT, ColumnPredicate.Operator.LESS, 50),
                        bound(INT_RIGHT, ColumnPredicate.Operator.GREATER_OR_EQUAL, 10)));
        List<ColumnComparison> comparisons = List.of(new ColumnComparison(SHIPPED, ColumnPredicate.Operator.LESS, RECEIVED));
        for (List<ColumnFilter> filters : conjunctions) {
            for (List<ColumnComparison> compared : List.of(List.<ColumnComparison>of(), comparisons)) {
                for (int batchSize : new int[] {500, 4096}) {
                    assertEquals(expectedIds(loaded.rows(), filters, compared),
                            scanIds(loaded.table(), filters, compared, batchSize),
                            "seed " + seed + ": " + filters + " " + compared + ", batch " + batchSize);
                }
            }
        }
        assertEquals(Set.of(), scanIds(loaded.table(), conjunctions.get(2), List.of(), 4096), "runs > 10 AND runs < 5");
    }

    private static ColumnFilter bound(int column, ColumnPredicate.Operator operator, Object constant) {
        return new ColumnFilter(column, new ColumnPredicate.Comparison(operator, constant));
    }

    @Test
    void aComparisonThatHoldsNowhereKeepsNothingAndOneThatHoldsEverywhereKeepsEveryRow() {
        Loaded loaded = load(7);
        // runs = id / 500 is never above id, and is below it except at id 0.
        assertEquals(Set.of(), scanIds(loaded.table(), List.of(),
                List.of(new ColumnComparison(RUNS, ColumnPredicate.Operator.GREATER, ID)), 4096));
        Set<Integer> live = expectedIds(loaded.rows(), List.of(), List.of());
        assertEquals(live, scanIds(loaded.table(), List.of(),
                List.of(new ColumnComparison(RUNS, ColumnPredicate.Operator.LESS_OR_EQUAL, ID)), 4096));
        assertEquals(ROWS + 900 - (ROWS + 900 + 7) / 13, live.size(), "every 13th row was deleted");
    }

    @Test
    void columnsOfDifferentTypesOrOutsideTheTableAreRejected() {
        Loaded loaded = load(3);
        assertThrows(IllegalArgumentException.class, () -> scanIds(loaded.table(), List.of(),
                List.of(new ColumnComparison(INT_LEFT, ColumnPredicate.Operator.LESS, BIG_LEFT)), 4096));
        assertThrows(IllegalArgumentException.class, () -> scanIds(loaded.table(), List.of(),
                List.of(new ColumnComparison(INT_LEFT, ColumnPredicate.Operator.LESS, 99)), 4096));
        assertThrows(IllegalArgumentException.class, () -> new ColumnComparison(INT_LEFT, ColumnPredicate.Operator.LESS, INT_LEFT));
    }
}
