package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.List;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;

/**
 * A hash join whose build publishes its key values to a bitmap filter on its probe input (the
 * probe side's scan in a real plan): the rows are the plain join's for INNER, SEMI, RIGHT_SEMI and RIGHT_ANTI joins on
 * whole-number keys (INT, DATE, BIGINT), with NULL keys and duplicates, with and without a
 * residual condition; and the filter's own rules: it passes everything until published, drops
 * NULLs and values outside the build side's, stays off for a key span it cannot cover, and is
 * not tested for a while after it dropped almost nothing.
 */
class BitmapFilterJoinTest extends OperatorTestBase {
    private static final List<Integer> WHOLE_NUMBER_KEYS = List.of(0, 4, 6);

    private JoinType joinType;
    private int key;
    private Expr residual;
    private RuntimeFilter filter;
    private RuntimeFilterOperator probe;

    @Override
    int inputCount() {
        return 2;
    }

    @Override
    Operator create(List<Operator> inputs) {
        List<JoinType> partnerDropping = List.of(JoinType.INNER, JoinType.SEMI, JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI);
        joinType = partnerDropping.get(random.nextInt(partnerDropping.size()));
        key = WHOLE_NUMBER_KEYS.get(random.nextInt(WHOLE_NUMBER_KEYS.size()));
        residual = random.nextInt(3) == 0 ? HashJoinOperatorTest.randomCondition(random) : null;
        filter = new RuntimeFilter("Bitmap1");
        probe = new RuntimeFilterOperator(inputs.get(0), key, filter);
        HashJoinOperator join = new HashJoinOperator(probe, inputs.get(1), joinType, List.of(key), List.of(key), residual);
        join.publishKeys(0, filter);
        return join;
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return HashJoinOperatorTest.referenceJoin(inputs.get(0), inputs.get(1), joinType, (l, r) -> {
            if (l[key] == null || r[key] == null || Comparisons.compare(l[key], r[key]) != 0) {
                return false;
            }
            return residual == null || Boolean.TRUE.equals(Evaluator.evaluate(residual, HashJoinOperatorTest.concat(l, r), EVALUATION));
        });
    }

    @Override
    List<Object[]> run(Operator operator, ExecutionContext context) {
        List<Object[]> rows = super.run(operator, context);
        long[] counts = probe.rowsInAndOut();
        assertTrue(counts[1] <= counts[0], "a bitmap filter never adds rows");
        return rows;
    }

    @Test
    void passesEverythingUntilPublishedThenOnlyTheBuildSidesValues() {
        try (IntVector build = new IntVector("k", queryAllocator); IntVector probeValues = new IntVector("k", queryAllocator)) {
            fill(build, 5, 7, null, 7, 12);
            fill(probeValues, 4, 5, null, 6, 7, 12, 13, -3);
            RuntimeFilter bitmap = new RuntimeFilter("Bitmap1");
            assertFalse(bitmap.active());
            bitmap.publish(build, build.getValueCount(), false);
            assertTrue(bitmap.published());
            assertTrue(bitmap.active());
            int[] rows = {0, 1, 2, 3, 4, 5, 6, 7};
            int[] kept = new int[rows.length];
            int count = bitmap.filter(probeValues, false, rows, rows.length, kept);
            assertArrayEquals(new int[] {1, 4, 5}, java.util.Arrays.copyOf(kept, count));
        }
    }

    @Test
    void staysOffWhenTheKeysSpanTooWideAndKeepsDenseKeysInTheirSpan() {
        try (BigIntVector wide = new BigIntVector("l", queryAllocator); IntVector dense = new IntVector("k", queryAllocator)) {
            wide.allocateNew(2);
            wide.set(0, 0);
            wide.set(1, RuntimeFilter.MAX_BITS + 1);
            wide.setValueCount(2);
            RuntimeFilter sparse = new RuntimeFilter("Bitmap1");
            sparse.publish(wide, 2, true);
            assertTrue(sparse.published());
            assertFalse(sparse.active(), "a span wider than the bitmap passes everything");
            fill(dense, 6, 7, 6, 7, 7);
            RuntimeFilter full = new RuntimeFilter("Bitmap2");
            full.publish(dense, 5, false);
            assertTrue(full.active(), "keys filling their span still drop every other value");
            try (IntVector nations = new IntVector("k", queryAllocator)) {
                fill(nations, 5, 6, 7, 8, 24);
                int[] kept = new int[5];
                int count = full.filter(nations, false, new int[] {0, 1, 2, 3, 4}, 5, kept);
                assertArrayEquals(new int[] {1, 2}, java.util.Arrays.copyOf(kept, count));
            }
        }
    }

    @Test
    void aFilterThatDropsAlmostNothingPassesRowsUntestedForAWhileThenIsJudgedAgain() {
        TableSchema schema = new TableSchema(List.of(Column.nullable("k", SqlType.INT)));
        List<Object[]> rows = new java.util.ArrayList<>();
        int useless = RuntimeFilterProbe.JUDGE_ROWS;
        for (int row = 0; row < useless; row++) {
            rows.add(new Object[] {row % 100});
        }
        // Rows the filter would drop: passed untested for SKIP_ROWS rows, then dropped again.
        int absent = RuntimeFilterProbe.SKIP_ROWS + 3 * RuntimeFilterProbe.JUDGE_ROWS;
        for (int row = 0; row < absent; row++) {
            rows.add(new Object[] {1_000});
        }
        RuntimeFilter bitmap = keysBelow100();
        RuntimeFilterOperator operator = new RuntimeFilterOperator(ListSource.of(schema, rows, 4_096), 0, bitmap);
        List<Object[]> passed = super.run(operator, context(4_096));
        assertEquals(useless + RuntimeFilterProbe.SKIP_ROWS, passed.size(),
                "every row of the useless stretch, then the skipped rows; the rest dropped once judged again");
        assertArrayEquals(new long[] {rows.size(), passed.size()}, operator.rowsInAndOut());
    }

    @Test
    void aFilterThatDropsRowsKeepsTesting() {
        TableSchema schema = new TableSchema(List.of(Column.nullable("k", SqlType.INT)));
        List<Object[]> rows = new java.util.ArrayList<>();
        int total = 4 * RuntimeFilterProbe.JUDGE_ROWS;
        int kept = 0;
        for (int row = 0; row < total; row++) {
            int value = row % 10 == 0 ? 1_000 : row % 100;
            kept += value < 100 ? 1 : 0;
            rows.add(new Object[] {value});
        }
        RuntimeFilter bitmap = keysBelow100();
        RuntimeFilterOperator operator = new RuntimeFilterOperator(ListSource.of(schema, rows, 4_096), 0, bitmap);
        assertEquals(kept, super.run(operator, context(4_096)).size(), "a filter dropping one row in ten is always tested");
    }

    /** A published filter of the keys 0 ... 99. */
    private RuntimeFilter keysBelow100() {
        try (IntVector build = new IntVector("k", queryAllocator)) {
            build.allocateNew(100);
            for (int value = 0; value < 100; value++) {
                build.set(value, value);
            }
            build.setValueCount(100);
            RuntimeFilter bitmap = new RuntimeFilter("Bitmap1");
            bitmap.publish(build, 100, false);
            return bitmap;
        }
    }

    @Test
    void anEmptyBuildSideDropsEveryRow() {
        try (IntVector build = new IntVector("k", queryAllocator); IntVector probeValues = new IntVector("k", queryAllocator)) {
            fill(build, (Integer) null);
            fill(probeValues, 0, 1);
            RuntimeFilter bitmap = new RuntimeFilter("Bitmap1");
            bitmap.publish(build, 1, false);
            assertTrue(bitmap.active());
            assertEquals(0, bitmap.filter(probeValues, false, new int[] {0, 1}, 2, new int[2]));
        }
    }

    @Test
    void onlyWholeNumberColumnsAndPartnerDroppingJoins() {
        TableSchema schema = new TableSchema(List.of(Column.nullable("s", SqlType.varchar(4)), Column.nullable("k", SqlType.INT)));
        ListSource strings = new ListSource(schema, List.<Object[]>of(), 4, null, -1);
        assertThrows(ColumbaException.class, () -> new RuntimeFilterOperator(strings, 0, new RuntimeFilter("Bitmap1")));
        ListSource left = new ListSource(schema, List.<Object[]>of(), 4, null, -1);
        ListSource right = new ListSource(schema, List.<Object[]>of(), 4, null, -1);
        HashJoinOperator outer = new HashJoinOperator(left, right, JoinType.LEFT, List.of(1), List.of(1), null);
        assertThrows(ColumbaException.class, () -> outer.publishKeys(0, new RuntimeFilter("Bitmap1")));
        HashJoinOperator anti = new HashJoinOperator(left, right, JoinType.ANTI, List.of(1), List.of(1), null);
        assertThrows(ColumbaException.class, () -> anti.publishKeys(0, new RuntimeFilter("Bitmap1")));
        HashJoinOperator onStrings = new HashJoinOperator(left, right, JoinType.INNER, List.of(0), List.of(0), null);
        assertThrows(ColumbaException.class, () -> onStrings.publishKeys(0, new RuntimeFilter("Bitmap2")));
    }

    /**
     * A join's table publishes its keys with their span known from the build's sizing, in one
     * pass: the filter keeps exactly what one published by scanning the keys keeps, for narrow and
     * wide keys, a span too wide for a bitmap, and no keys at all.
     */
    @Test
    void keysPublishedWithTheirKnownSpanFilterAsScannedOnesDo() {
        java.util.Random random = new java.util.Random(17);
        for (int trial = 0; trial < 30; trial++) {
            boolean wide = trial % 2 == 1;
            int count = trial == 0 || trial == 1 ? 0 : 1 + random.nextInt(500);
            long spread = trial % 7 == 6 ? RuntimeFilter.MAX_BITS * 2 : 1 + random.nextInt(5000);
            long base = random.nextInt(1000) - 500;
            try (BigIntVector keys = new BigIntVector("l", queryAllocator); IntVector narrow = new IntVector("k", queryAllocator);
                 BigIntVector probe = new BigIntVector("p", queryAllocator); IntVector narrowProbe = new IntVector("q", queryAllocator)) {
                keys.allocateNew(Math.max(1, count));
                narrow.allocateNew(Math.max(1, count));
                long low = Long.MAX_VALUE;
                long high = Long.MIN_VALUE;
                for (int index = 0; index < count; index++) {
                    long value = base + (wide ? (long) (random.nextDouble() * spread) : random.nextInt((int) Math.min(spread, 1 << 30)));
                    keys.set(index, value);
                    narrow.set(index, (int) value);
                    low = Math.min(low, value);
                    high = Math.max(high, value);
                }
                keys.setValueCount(count);
                narrow.setValueCount(count);
                int probes = 2000;
                probe.allocateNew(probes);
                narrowProbe.allocateNew(probes);
                int[] rows = new int[probes];
                for (int index = 0; index < probes; index++) {
                    long value = index < count ? keys.get(index) : base - 5 + (long) (random.nextDouble() * (Math.min(spread, 10_000) + 10));
                    probe.set(index, value);
                    narrowProbe.set(index, (int) value);
                    rows[index] = index;
                }
                probe.setValueCount(probes);
                narrowProbe.setValueCount(probes);
                RuntimeFilter scanned = new RuntimeFilter("Bitmap1");
                RuntimeFilter known = new RuntimeFilter("Bitmap2");
                scanned.publish(wide ? keys : narrow, count, wide);
                known.publishWithin(wide ? keys : narrow, count, wide, count == 0 ? 0 : low, count == 0 ? -1 : high);
                assertEquals(scanned.active(), known.active(), "trial " + trial);
                if (scanned.active()) {
                    int[] keptScanned = new int[probes];
                    int[] keptKnown = new int[probes];
                    int a = scanned.filter(wide ? probe : narrowProbe, wide, rows, probes, keptScanned);
                    int b = known.filter(wide ? probe : narrowProbe, wide, rows, probes, keptKnown);
                    assertArrayEquals(java.util.Arrays.copyOf(keptScanned, a), java.util.Arrays.copyOf(keptKnown, b), "trial " + trial);
                    assertTrue(count == 0 || b >= count, "every build key passes");
                }
            }
        }
    }

    private static void fill(IntVector vector, Integer... values) {
        vector.allocateNew(values.length);
        for (int index = 0; index < values.length; index++) {
            if (values[index] == null) {
                vector.setNull(index);
            } else {
                vector.set(index, values[index]);
            }
        }
        vector.setValueCount(values.length);
    }
}
