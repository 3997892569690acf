package dev.columba.datagen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.type.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * What every {@link TableGenerator} promises: the same arguments give the same rows, any range is
 * the matching slice of a full pass, every value is canonical for its column, NULL only where
 * the column allows it, and bad ranges are rejected by name. Each generator's test extends this.
 */
abstract class TableGeneratorContractTest {
    /** Seeds the ranges tried here and, through {@link #newGenerators}, the generators' own seeds. */
    protected long seed;

    @BeforeEach
    void drawSeed(TestInfo testInfo) {
        seed = TestSeed.draw(getClass().getSimpleName() + "." + testInfo.getDisplayName());
    }

    /**
     * The generators under test, built afresh on every call from the same arguments (which may
     * depend on {@link #seed}). Keep them small: every test here materializes them whole.
     */
    protected abstract List<TableGenerator> newGenerators();

    static List<Object[]> collect(RowCursor cursor) {
        List<Object[]> rows = new ArrayList<>();
        while (cursor.next()) {
            rows.add(cursor.row().clone());
        }
        return rows;
    }

    static void assertSameRows(List<Object[]> expected, List<Object[]> actual, String context) {
        assertEquals(expected.size(), actual.size(), context + ": row count");
        for (int rowIndex = 0; rowIndex < expected.size(); rowIndex++) {
            assertArrayEquals(expected.get(rowIndex), actual.get(rowIndex), context + ": row " + rowIndex);
        }
    }

    @Test
    void sameArgumentsGiveSameRows() {
        List<TableGenerator> first = newGenerators();
        List<TableGenerator> second = newGenerators();
        for (int index = 0; index < first.size(); index++) {
            TableGenerator one = first.get(index);
            TableGenerator other = second.get(index);
            assertEquals(one.tableName(), other.tableName());
            assertEquals(one.schema(), other.schema());
            assertEquals(one.rowCount(), other.rowCount());
            assertSameRows(collect(one.cursor()), collect(other.cursor()), one.tableName() + ", " + TestSeed.describe(seed));
        }
    }

    @Test
    void rangesEqualSlicesOfFullGeneration() {
        SplittableRandom random = new SplittableRandom(seed);
        for (TableGenerator generator : newGenerators()) {
            List<Object[]> full = collect(generator.cursor());
            long rowCount = generator.rowCount();
            assertEquals(rowCount, full.size(), generator.tableName());
            List<long[]> ranges = new ArrayList<>(List.of(
                    new long[] {0, 0}, new long[] {0, Math.min(1, rowCount)}, new long[] {rowCount, rowCount},
                    new long[] {Math.max(0, rowCount - 1), rowCount}, new long[] {0, rowCount}));
            for (int attempt = 0; attempt < 12; attempt++) {
                long from = random.nextLong(rowCount + 1);
                long to = from + random.nextLong(rowCount - from + 1);
                ranges.add(new long[] {from, to});
            }
            for (long[] range : ranges) {
                String context = generator.tableName() + " [" + range[0] + ", " + range[1] + "), " + TestSeed.describe(seed);
                RowCursor cursor = generator.cursor(range[0], range[1]);
                List<Object[]> slice = new ArrayList<>();
                for (long rowIndex = range[0]; cursor.next(); rowIndex++) {
                    assertEquals(rowIndex, cursor.rowIndex(), context);
                    slice.add(cursor.row().clone());
                }
                assertSameRows(full.subList((int) range[0], (int) range[1]), slice, context);
                assertFalse(cursor.next(), context + ": a finished cursor stays finished");
            }
        }
    }

    @Test
    void chunksGeneratedInAnyOrderMakeTheWholeTable() {
        SplittableRandom random = new SplittableRandom(seed);
        for (TableGenerator generator : newGenerators()) {
            long rowCount = generator.rowCount();
            List<Object[]> full = collect(generator.cursor());
            int chunks = 1 + random.nextInt(8);
            long[] bounds = new long[chunks + 1];
            for (int chunk = 1; chunk < chunks; chunk++) {
                bounds[chunk] = random.nextLong(rowCount + 1);
            }
            bounds[chunks] = rowCount;
            Arrays.sort(bounds);
            List<List<Object[]>> parts = new ArrayList<>();
            for (int chunk = chunks - 1; chunk >= 0; chunk--) {
                parts.addFirst(collect(generator.cursor(bounds[chunk], bounds[chunk + 1])));
            }
            List<Object[]> joined = new ArrayList<>();
            parts.forEach(joined::addAll);
            assertSameRows(full, joined, generator.tableName() + " in " + chunks + " chunks, " + TestSeed.describe(seed));
        }
    }

    /** Generators are shared by loader threads, one cursor each. */
    @Test
    void oneGeneratorServesCursorsOnSeveralThreads() throws Exception {
        for (TableGenerator generator : newGenerators()) {
            List<Object[]> full = collect(generator.cursor());
            long rowCount = generator.rowCount();
            int chunks = 4;
            List<Future<List<Object[]>>> parts = new ArrayList<>();
            try (ExecutorService threads = Executors.newFixedThreadPool(chunks)) {
                for (int chunk = 0; chunk < chunks; chunk++) {
                    long from = rowCount * chunk / chunks;
                    long to = rowCount * (chunk + 1) / chunks;
                    parts.add(threads.submit(() -> collect(generator.cursor(from, to))));
                }
                List<Object[]> joined = new ArrayList<>();
                for (Future<List<Object[]>> part : parts) {
                    joined.addAll(part.get());
                }
                assertSameRows(full, joined,
                        generator.tableName() + " on " + chunks + " threads, " + TestSeed.describe(seed));
            }
        }
    }

    @Test
    void valuesAreCanonicalForTheirColumnsAndNullOnlyWhereAllowed() {
        for (TableGenerator generator : newGenerators()) {
            RowCursor cursor = generator.cursor();
            int columnCount = generator.schema().size();
            while (cursor.next()) {
                Object[] row = cursor.row();
                assertEquals(columnCount, row.length, generator.tableName());
                for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
                    Column column = generator.schema().column(columnIndex);
                    Object value = row[columnIndex];
                    String context = generator.tableName() + "." + column.name() + " at row " + cursor.rowIndex() + ", "
                            + TestSeed.describe(seed);
                    if (value == null) {
                        assertTrue(column.nullable(), context + " is NULL in a NOT NULL column");
                    } else {
                        assertEquals(value, Values.canonical(column.type(), value), context);
                    }
                }
            }
        }
    }

    @Test
    void iteratorHandsOutIndependentCopiesOfTheCursorRows() {
        for (TableGenerator generator : newGenerators()) {
            List<Object[]> fromCursor = collect(generator.cursor());
            List<Object[]> fromIterator = new ArrayList<>();
            Iterator<Object[]> rows = generator.rows();
            Object[] previous = null;
            while (rows.hasNext()) {
                Object[] row = rows.next();
                assertNotSame(previous, row, generator.tableName());
                fromIterator.add(row);
                previous = row;
            }
            assertSameRows(fromCursor, fromIterator, generator.tableName());
            assertThrows(NoSuchElementException.class, rows::next);
        }
    }

    @Test
    void rangesOutsideTheTableAreRejectedByName() {
        for (TableGenerator generator : newGenerators()) {
            long rowCount = generator.rowCount();
            for (long[] range : List.of(new long[] {-1, 0}, new long[] {1, 0}, new long[] {0, rowCount + 1})) {
                ColumbaException error = assertThrows(ColumbaException.class,
                        () -> generator.cursor(range[0], range[1]));
                assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
                assertEquals("[INVALID_ARGUMENT] row range [" + range[0] + ", " + range[1] + ") is not within table "
                        + generator.tableName() + " of " + rowCount + " rows", error.getMessage());
            }
        }
    }
}
