package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.EvaluationContext;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

/**
 * The merge join against the reference join: the contract's random inputs (NULL keys, duplicates
 * on both sides, selection vectors, tiny batches) sorted on the keys by a sort below each side, in
 * random directions, with and without a residual condition; then the edges the random inputs reach
 * rarely: runs of one key longer than a batch on both sides, all-NULL keys, empty sides, keys only
 * one side has, inputs out of order, and a run too long for the memory limit.
 */
class MergeJoinOperatorTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(2), List.of(3),
            List.of(4), List.of(6), List.of(0, 1), List.of(4, 0), List.of(5, 0));
    private static final JoinType[] TYPES = {JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI};

    private JoinType joinType;
    private List<Integer> keys;
    private Expr residual;

    @Override
    int inputCount() {
        return 2;
    }

    @Override
    int maxRows() {
        return 1500;
    }

    @Override
    Operator create(List<Operator> inputs) {
        joinType = TYPES[random.nextInt(TYPES.length)];
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        residual = random.nextInt(3) == 0 ? HashJoinOperatorTest.randomCondition(random) : null;
        List<Boolean> descending = new ArrayList<>();
        for (int key = 0; key < keys.size(); key++) {
            descending.add(random.nextBoolean());
        }
        return mergeJoin(inputs.get(0), inputs.get(1), joinType, keys, descending, residual, random.nextBoolean());
    }

    /** The merge join of {@code left} and {@code right}, each sorted on {@code keys} first (NULLs first or last). */
    private static MergeJoinOperator mergeJoin(Operator left, Operator right, JoinType type, List<Integer> keys,
                                               List<Boolean> descending, Expr residual, boolean nullsFirst) {
        List<SortKey> order = new ArrayList<>();
        for (int key = 0; key < keys.size(); key++) {
            order.add(new SortKey(keys.get(key), descending.get(key), nullsFirst));
        }
        return new MergeJoinOperator(new SortOperator(left, order), new SortOperator(right, order), type, keys, keys,
                descending, residual);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return reference(inputs.get(0), inputs.get(1), joinType, keys, residual);
    }

    private static List<Object[]> reference(List<Object[]> left, List<Object[]> right, JoinType type, List<Integer> keys,
                                            Expr residual) {
        return HashJoinOperatorTest.referenceJoin(left, right, type, (leftRow, rightRow) -> {
            for (int key : keys) {
                if (leftRow[key] == null || rightRow[key] == null || Comparisons.compare(leftRow[key], rightRow[key]) != 0) {
                    return false;
                }
            }
            return residual == null || Boolean.TRUE.equals(Evaluator.evaluate(residual, HashJoinOperatorTest.concat(leftRow, rightRow), EVALUATION));
        });
    }

    private void check(List<Object[]> left, List<Object[]> right, JoinType type, List<Integer> joinKeys, boolean descending,
                       int leftBatch, int rightBatch, String what) {
        List<Boolean> directions = new ArrayList<>();
        for (int key = 0; key < joinKeys.size(); key++) {
            directions.add(descending);
        }
        Operator join = mergeJoin(new ListSource(SCHEMA, left, leftBatch, new Random(left.size()), -1),
                new ListSource(SCHEMA, right, rightBatch, new Random(right.size()), -1), type, joinKeys, directions, null,
                descending);
        assertRows(reference(left, right, type, joinKeys, null), run(join, context(Math.min(leftBatch, rightBatch))),
                what + ", " + type + (descending ? " descending" : ""));
    }

    private static Object[] row(Integer key, Integer second) {
        return new Object[] {key, second == null ? null : "s" + second, null, null, null, null, null};
    }

    /**
     * A key with 300 rows on the left and 250 on the right, between keys with a few rows, read in
     * batches of 7 and 64: the run crosses many right batches, its left rows many left batches,
     * and every pair comes out once (75,000 pairs for INNER).
     */
    @Test
    void longRunsOfOneKeyOnBothSidesCrossBatchBoundaries() {
        List<Object[]> left = new ArrayList<>();
        List<Object[]> right = new ArrayList<>();
        for (int key = 0; key < 6; key++) {
            int leftCopies = key == 3 ? 300 : key % 2 + 1;
            int rightCopies = key == 3 ? 250 : key % 3;
            for (int copy = 0; copy < leftCopies; copy++) {
                left.add(row(key, copy));
            }
            for (int copy = 0; copy < rightCopies; copy++) {
                right.add(row(key, copy));
            }
        }
        for (JoinType type : TYPES) {
            for (boolean descending : new boolean[] {false, true}) {
                check(left, right, type, List.of(0), descending, 7, 64, "long runs");
                check(right, left, type, List.of(0), descending, 64, 7, "long runs, sides swapped");
            }
        }
    }

    /** All-NULL keys match nothing: INNER and SEMI return nothing, LEFT and ANTI every left row. */
    @Test
    void nullKeysNeverMatch() {
        List<Object[]> left = new ArrayList<>();
        List<Object[]> right = new ArrayList<>();
        for (int index = 0; index < 50; index++) {
            left.add(row(null, index % 3));
            right.add(row(null, index % 4));
        }
        for (JoinType type : TYPES) {
            check(left, right, type, List.of(0), false, 8, 8, "all-NULL keys");
            check(left, right, type, List.of(0, 1), false, 8, 8, "all-NULL first keys");
        }
        List<Object[]> partlyNull = new ArrayList<>();
        for (int index = 0; index < 60; index++) {
            partlyNull.add(row(index % 5, index % 2 == 0 ? null : index % 3));
        }
        for (JoinType type : TYPES) {
            for (boolean descending : new boolean[] {false, true}) {
                check(partlyNull, partlyNull, type, List.of(0, 1), descending, 9, 4, "NULLs in the second key");
            }
        }
    }

    /** An empty side: INNER and SEMI return nothing, LEFT and ANTI every left row. */
    @Test
    void emptySides() {
        List<Object[]> some = new ArrayList<>();
        for (int index = 0; index < 30; index++) {
            some.add(row(index / 3, index));
        }
        for (JoinType type : TYPES) {
            check(some, List.of(), type, List.of(0), false, 8, 8, "empty right");
            check(List.of(), some, type, List.of(0), false, 8, 8, "empty left");
            check(List.of(), List.of(), type, List.of(0), false, 8, 8, "both empty");
        }
    }

    /**
     * Keys that only one side has, interleaved (even keys left, multiples of three right), so the
     * join skips rows on both sides between matches; LEFT keeps the left rows without a partner.
     */
    @Test
    void keysOnOneSideOnlyAreSkipped() {
        List<Object[]> left = new ArrayList<>();
        List<Object[]> right = new ArrayList<>();
        for (int key = 0; key < 400; key++) {
            if (key % 2 == 0) {
                left.add(row(key, key));
            }
            if (key % 3 == 0) {
                right.add(row(key, key));
                right.add(row(key, key + 1));
            }
        }
        for (JoinType type : TYPES) {
            check(left, right, type, List.of(0), false, 16, 5, "interleaved keys");
            check(left, right, type, List.of(0), true, 5, 16, "interleaved keys");
        }
    }

    /** Disorder the join meets, before or inside a run, on either side, is an internal error naming the side. */
    @Test
    void unsortedInputsAreAnInternalError() {
        List<Object[]> sorted = List.of(row(1, 1), row(2, 2), row(3, 3));
        List<Object[]> unsorted = List.of(row(1, 1), row(3, 3), row(2, 2));
        List<Object[]> unsortedInARun = List.of(row(1, 1), row(2, 2), row(2, 2), row(1, 1), row(3, 3));
        for (boolean leftUnsorted : new boolean[] {true, false}) {
            checkUnsorted(leftUnsorted ? unsorted : sorted, leftUnsorted ? sorted : unsorted, leftUnsorted);
            checkUnsorted(leftUnsorted ? unsortedInARun : sorted, leftUnsorted ? sorted : unsortedInARun, leftUnsorted);
        }
    }

    private void checkUnsorted(List<Object[]> left, List<Object[]> right, boolean leftUnsorted) {
        MergeJoinOperator join = new MergeJoinOperator(ListSource.of(SCHEMA, left, 8), ListSource.of(SCHEMA, right, 8),
                JoinType.INNER, List.of(0), List.of(0), null, null);
        join.open(context(8));
        try {
            ColumbaException error = assertThrows(ColumbaException.class, () -> {
                while (join.next() != null) {
                    // reads until the disorder is found
                }
            });
            assertEquals(ErrorCode.INTERNAL, error.errorCode());
            assertTrue(error.getMessage().contains((leftUnsorted ? "left" : "right") + " input is not in the order"),
                    error.getMessage());
        } finally {
            join.close();
        }
    }

    @Test
    void onlyInnerLeftSemiAndAntiJoins() {
        for (JoinType type : List.of(JoinType.FULL, JoinType.RIGHT, JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI)) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> new MergeJoinOperator(
                    ListSource.of(SCHEMA, List.of(), 8), ListSource.of(SCHEMA, List.of(), 8), type, List.of(0), List.of(0),
                    null, null));
            assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        }
        ColumbaException mixed = assertThrows(ColumbaException.class, () -> new MergeJoinOperator(
                ListSource.of(SCHEMA, List.of(), 8), ListSource.of(SCHEMA, List.of(), 8), JoinType.INNER, List.of(0),
                List.of(6), null, null));
        assertEquals(ErrorCode.WRONG_TYPE, mixed.errorCode());
    }

    /**
     * One key on 40,000 rows of each side: the run is held whole, and a limit it does not fit in is
     * OUT_OF_MEMORY (53200) naming the join, with nothing left allocated once closed.
     */
    @Test
    void aRunLongerThanTheMemoryLimitIsOutOfMemory() {
        TableSchema wide = TableSchema.of(Column.notNull("id", SqlType.BIGINT), Column.nullable("text", SqlType.varchar(40)));
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 40_000; row++) {
            rows.add(new Object[] {7L, "some text to fill memory, row " + row});
        }
        try (Memory limited = new Memory(1L << 30)) {
            BufferAllocator query = limited.child("query", 1L << 20);
            MergeJoinOperator join = new MergeJoinOperator(ListSource.of(wide, rows, 1000), ListSource.of(wide, rows, 1000),
                    JoinType.SEMI, List.of(0), List.of(0), null, null);
            join.open(new ExecutionContext(QueryContext.withDefaults(), query, 1000, new EvaluationContext(LocalDateTime.now())));
            ColumbaException error = assertThrows(ColumbaException.class, () -> {
                while (join.next() != null) {
                    // runs until the limit is hit
                }
            });
            assertEquals("53200", error.errorCode().sqlState());
            assertTrue(error.getMessage().contains("MergeJoinOperator"), error.getMessage());
            join.close();
            assertEquals(0, query.getAllocatedMemory(), "nothing leaked");
            query.close();
        }
    }
}
