package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.context.QueryContext;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.ComparisonOperator;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;

class HashJoinOperatorTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(0, 1), List.of(4),
            List.of(2), List.of(3), List.of(5, 0), List.of(0, 4), List.of(4, 0));

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

    /** A column of the pair of rows: left columns first, then right ones. */
    static Expr pairColumn(boolean right, int column) {
        return new Expr.ColumnReference(column + (right ? SCHEMA.size() : 0), SCHEMA.column(column).type());
    }

    /** Conditions over a left row and a right row, as a residual or a nested-loop join condition. */
    static Expr randomCondition(java.util.Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> new Expr.Comparison(ComparisonOperator.LESS_THAN, pairColumn(false, 2), pairColumn(true, 2));
            case 1 -> new Expr.Or(List.of(new Expr.Comparison(ComparisonOperator.EQUAL, pairColumn(false, 1), pairColumn(true, 1)),
                    pairColumn(true, 5)));
            case 2 -> new Expr.Comparison(ComparisonOperator.GREATER_THAN,
                    Expr.Arithmetic.of(ArithmeticOperator.ADD, pairColumn(false, 3), pairColumn(true, 3)),
                    new Expr.Literal(1.0, SqlType.DOUBLE));
            default -> new Expr.Comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, pairColumn(false, 0), pairColumn(true, 0));
        };
    }

    @Override
    Operator create(List<Operator> inputs) {
        joinType = JoinType.values()[random.nextInt(JoinType.values().length)];
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        residual = random.nextInt(3) == 0 ? randomCondition(random) : null;
        return new HashJoinOperator(inputs.get(0), inputs.get(1), joinType, keys, keys, residual);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return referenceJoin(inputs.get(0), inputs.get(1), joinType, (left, right) -> {
            for (int key : keys) {
                if (left[key] == null || right[key] == null || Comparisons.compare(left[key], right[key]) != 0) {
                    return false;
                }
            }
            return residual == null || Boolean.TRUE.equals(Evaluator.evaluate(residual, concat(left, right), EVALUATION));
        });
    }

    static Object[] concat(Object[] left, Object[] right) {
        Object[] pair = new Object[left.length + right.length];
        System.arraycopy(left, 0, pair, 0, left.length);
        if (right != null) {
            System.arraycopy(right, 0, pair, left.length, right.length);
        }
        return pair;
    }

    /** A join on Java lists by the book: every pair is tested. */
    static List<Object[]> referenceJoin(List<Object[]> left, List<Object[]> right, JoinType joinType,
                                        BiPredicate<Object[], Object[]> matches) {
        List<Object[]> result = new ArrayList<>();
        for (Object[] leftRow : left) {
            boolean matched = false;
            for (Object[] rightRow : right) {
                if (matches.test(leftRow, rightRow)) {
                    matched = true;
                    if (joinType == JoinType.INNER || joinType == JoinType.LEFT || joinType == JoinType.FULL
                            || joinType == JoinType.RIGHT) {
                        result.add(concat(leftRow, rightRow));
                    }
                }
            }
            if ((joinType == JoinType.LEFT || joinType == JoinType.FULL) && !matched) {
                result.add(concat(leftRow, new Object[SCHEMA.size()]));
            }
            if ((joinType == JoinType.SEMI && matched) || (joinType == JoinType.ANTI && !matched)) {
                result.add(leftRow);
            }
        }
        boolean unmatchedRight = joinType == JoinType.FULL || joinType == JoinType.RIGHT;
        if (joinType == JoinType.RIGHT_SEMI || joinType == JoinType.RIGHT_ANTI || unmatchedRight) {
            for (Object[] rightRow : right) {
                boolean matched = left.stream().anyMatch(leftRow -> matches.test(leftRow, rightRow));
                if (unmatchedRight && !matched) {
                    result.add(concat(new Object[SCHEMA.size()], rightRow));
                } else if (!unmatchedRight && matched == (joinType == JoinType.RIGHT_SEMI)) {
                    result.add(rightRow);
                }
            }
        }
        return result;
    }

    /**
     * Builds without duplicate keys (single INT keys held dense, spread BIGINT keys hashed, pairs
     * of INT and DATE keys), probed by rows that find a partner for all, most, a few or none of
     * them, with NULL keys and deselected rows among them: every join type returns what the
     * reference join does. INNER and LEFT then return the left batch itself (a view) where at
     * least a quarter of its rows is selected, and copy the pairs where fewer are.
     */
    @Test
    void uniqueBuildKeysWithEveryJoinTypeAndMatchRate() {
        List<List<Integer>> keyChoices = List.of(List.of(0), List.of(6), List.of(0, 4));
        for (int round = 0; round < 120; round++) {
            List<Integer> roundKeys = keyChoices.get(round % keyChoices.size());
            JoinType roundType = JoinType.values()[random.nextInt(JoinType.values().length)];
            double matchRate = new double[] {1.0, 0.9, 0.1, 0.0}[random.nextInt(4)];
            int buildCount = 1 + random.nextInt(400);
            List<Object[]> build = randomRows(buildCount);
            for (int row = 0; row < buildCount; row++) {
                setUniqueKey(build.get(row), roundKeys, row);
            }
            List<Object[]> probe = randomRows(random.nextInt(600));
            for (Object[] row : probe) {
                int choice = random.nextInt(20);
                if (choice == 0) {
                    row[roundKeys.get(random.nextInt(roundKeys.size()))] = null;
                } else if (random.nextDouble() < matchRate) {
                    setUniqueKey(row, roundKeys, random.nextInt(buildCount));
                } else {
                    setUniqueKey(row, roundKeys, buildCount + 1 + random.nextInt(1000));
                }
            }
            keys = roundKeys;
            joinType = roundType;
            residual = null;
            int batchSize = 1 + random.nextInt(128);
            Operator join = new HashJoinOperator(new ListSource(SCHEMA, probe, batchSize, new Random(round), -1),
                    new ListSource(SCHEMA, build, batchSize, new Random(-round), -1), roundType, roundKeys, roundKeys, null);
            assertRows(expected(List.of(probe, build)), run(join, context(batchSize)),
                    "round " + round + ": " + roundType + " on " + roundKeys + ", match rate " + matchRate);
        }
    }

    /**
     * Sets the key columns {@code keys} of {@code row} to the {@code index}-th of distinct keys: an
     * INT, a spread BIGINT, or an (INT, DATE) pair whose INT repeats (three dates each).
     */
    private static void setUniqueKey(Object[] row, List<Integer> keys, int index) {
        if (keys.equals(List.of(0, 4))) {
            row[0] = index / 3 - 50;
            row[4] = LocalDate.of(2024, 1, 1).plusDays(index % 3);
        } else {
            row[0] = index * 7 - 5;
            row[6] = index * 1_000_003L * 1_000_000L;
        }
    }

    @Test
    void innerJoinsWithAtMostOnePartnerReturnTheLeftBatchUnlessFewRowsMatch() {
        List<Object[]> build = randomRows(100);
        for (int row = 0; row < build.size(); row++) {
            setUniqueKey(build.get(row), List.of(0, 4), row);
        }
        for (int matching : new int[] {64, 40, 10}) {
            List<Object[]> probe = randomRows(64);
            for (int row = 0; row < probe.size(); row++) {
                setUniqueKey(probe.get(row), List.of(0, 4), row < matching ? row : 1000 + row);
            }
            HashJoinOperator join = new HashJoinOperator(ListSource.of(SCHEMA, probe, 64), ListSource.of(SCHEMA, build, 64),
                    JoinType.INNER, List.of(0, 4), List.of(0, 4), null);
            join.open(context(64));
            try {
                dev.columba.core.batch.Batch batch = join.next();
                assertEquals(matching, batch.selectedCount());
                assertEquals(matching >= 16, !batch.ownsVectors(), matching + " of 64 rows matching: a view of the left batch");
                assertEquals(null, join.next());
            } finally {
                join.close();
            }
        }
    }

    @Test
    void outputColumnsOfTheJoinTypes() {
        Operator left = ListSource.of(SCHEMA, List.of(), 4);
        Operator right = ListSource.of(SCHEMA, List.of(), 4);
        TableSchema inner = new HashJoinOperator(left, right, JoinType.LEFT, List.of(0), List.of(0), null).schema();
        assertEquals(14, inner.size());
        assertEquals("k0", inner.column(7).name());
        assertTrue(inner.column(13).nullable());
        assertEquals(SCHEMA, new HashJoinOperator(left, right, JoinType.ANTI, List.of(0), List.of(0), null).schema());
        TableSchema full = new HashJoinOperator(left, right, JoinType.FULL, List.of(0), List.of(0), null).schema();
        assertTrue(full.columns().stream().allMatch(column -> column.nullable()), "both sides of a FULL join may be NULL");
        TableSchema rightJoin = new HashJoinOperator(left, right, JoinType.RIGHT, List.of(0), List.of(0), null).schema();
        assertTrue(rightJoin.column(0).nullable(), "the left side of a RIGHT join may be NULL");
        assertEquals(SCHEMA.column(0).nullable(), rightJoin.column(7).nullable(), "the right side of a RIGHT join as its input");
        ColumbaException mismatch = assertThrows(ColumbaException.class,
                () -> new HashJoinOperator(left, right, JoinType.INNER, List.of(0), List.of(6), null));
        assertEquals(ErrorCode.WRONG_TYPE, mismatch.errorCode());
    }

    @Test
    void aBuildSideOverTheMemoryLimitIsOutOfMemoryAndLeaksNothing() {
        BufferAllocator small = memory.child("small query", 512 * 1024);
        List<Object[]> build = randomRows(30_000);
        HashJoinOperator join = new HashJoinOperator(ListSource.of(SCHEMA, randomRows(10), 1000),
                ListSource.of(SCHEMA, build, 1000), JoinType.INNER, List.of(1, 2), List.of(1, 2), null);
        join.open(new ExecutionContext(QueryContext.withDefaults(), small, 1000, EVALUATION));
        ColumbaException error = assertThrows(ColumbaException.class, join::next);
        assertEquals(ErrorCode.OUT_OF_MEMORY, error.errorCode());
        assertEquals("53200", error.errorCode().sqlState());
        assertTrue(error.getMessage().contains("HashJoinOperator"), error.getMessage());
        join.close();
        assertEquals(0, small.getAllocatedMemory());
        small.close();
    }
}
