package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.ComparisonOperator;
import dev.columba.core.expr.Expr;
import dev.columba.core.type.SqlType;
import dev.columba.core.batch.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * RIGHT_SEMI and RIGHT_ANTI hash joins against the left SEMI and ANTI joins they stand for: the
 * preserved rows A built and the other rows B probed must give exactly what probing with A against
 * a build of B gives — random rows with NULL keys and duplicates on both sides, single and composite
 * keys, with and without a residual condition (the same condition, its column references moved to
 * where each join puts A's and B's columns), serial and with three workers sharing one build.
 */
class RightSemiJoinTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(0, 1), List.of(4),
            List.of(6), List.of(5, 0));
    private static final int WORKERS = 3;

    private JoinType joinType;
    private List<Integer> keys;
    private int conditionKind;

    @Override
    int inputCount() {
        return 2;
    }

    @Override
    int maxRows() {
        return 1500;
    }

    /**
     * A condition over a row of A and a row of B, A's columns at {@code aOffset} and B's at
     * {@code bOffset} of the pair; kind -1 is none. Not symmetric, so a join that swapped them would fail.
     */
    static Expr condition(int kind, int aOffset, int bOffset) {
        return switch (kind) {
            case -1 -> null;
            case 0 -> new Expr.Comparison(ComparisonOperator.LESS_THAN, column(aOffset, 2), column(bOffset, 2));
            case 1 -> new Expr.Or(List.of(new Expr.Comparison(ComparisonOperator.EQUAL, column(aOffset, 1), column(bOffset, 1)),
                    column(bOffset, 5)));
            case 2 -> new Expr.Comparison(ComparisonOperator.GREATER_THAN,
                    Expr.Arithmetic.of(ArithmeticOperator.SUBTRACT, column(aOffset, 3), column(bOffset, 3)),
                    new Expr.Literal(1.0, SqlType.DOUBLE));
            default -> new Expr.Comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, column(aOffset, 4), column(bOffset, 4));
        };
    }

    private static Expr column(int offset, int column) {
        return new Expr.ColumnReference(offset + column, SCHEMA.column(column).type());
    }

    @Override
    Operator create(List<Operator> inputs) {
        joinType = random.nextBoolean() ? JoinType.RIGHT_SEMI : JoinType.RIGHT_ANTI;
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        conditionKind = random.nextInt(3) == 0 ? random.nextInt(4) : -1;
        // Probe with B (input 1), build A (input 0): the pairs are B's columns, then A's.
        return new HashJoinOperator(inputs.get(1), inputs.get(0), joinType, keys, keys,
                condition(conditionKind, SCHEMA.size(), 0));
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return leftJoin(inputs.get(0), inputs.get(1), joinType == JoinType.RIGHT_SEMI ? JoinType.SEMI : JoinType.ANTI,
                keys, conditionKind, 1 + random.nextInt(50));
    }

    /** The rows of A that the existing left SEMI or ANTI hash join keeps, probing with A against a build of B. */
    private List<Object[]> leftJoin(List<Object[]> a, List<Object[]> b, JoinType type, List<Integer> joinKeys, int kind,
                                    int batchSize) {
        Operator join = new HashJoinOperator(ListSource.of(SCHEMA, a, batchSize), ListSource.of(SCHEMA, b, batchSize), type,
                joinKeys, joinKeys, condition(kind, 0, SCHEMA.size()));
        return run(join, context(batchSize));
    }

    @Test
    void duplicatesAndNullKeysOnBothSides() {
        List<Object[]> a = rows(1, 1, 2, null, 3, 3, 5);
        List<Object[]> b = rows(1, 1, null, 3, 4, null);
        assertKeys(List.of(1, 1, 3, 3), run(rightJoin(a, b, JoinType.RIGHT_SEMI, 2), context(2)));
        // The NULL key of A matches nothing, so NOT EXISTS keeps its row.
        assertKeys(Arrays.asList(2, null, 5), run(rightJoin(a, b, JoinType.RIGHT_ANTI, 2), context(2)));
    }

    @Test
    void emptyBuildAndEmptyProbe() {
        List<Object[]> a = rows(1, null, 2);
        assertKeys(List.of(), run(rightJoin(List.of(), a, JoinType.RIGHT_SEMI, 4), context(4)));
        assertKeys(List.of(), run(rightJoin(List.of(), a, JoinType.RIGHT_ANTI, 4), context(4)));
        assertKeys(List.of(), run(rightJoin(a, List.of(), JoinType.RIGHT_SEMI, 4), context(4)));
        assertKeys(Arrays.asList(1, null, 2), run(rightJoin(a, List.of(), JoinType.RIGHT_ANTI, 4), context(4)));
    }

    @Test
    void buildRowsComeOutInBatchesOfTheBatchSize() {
        List<Object[]> a = randomRows(1000);
        List<Object[]> b = randomRows(300);
        for (JoinType type : List.of(JoinType.RIGHT_SEMI, JoinType.RIGHT_ANTI)) {
            Operator join = rightJoin(a, b, type, 16);
            join.open(context(16));
            int rows = 0;
            try {
                for (Batch batch = join.next(); batch != null; batch = join.next()) {
                    assertTrue(batch.selectedCount() <= 16, "a batch of at most the batch size");
                    rows += batch.selectedCount();
                }
            } finally {
                join.close();
            }
            List<Object[]> expected = leftJoin(a, b, type == JoinType.RIGHT_SEMI ? JoinType.SEMI : JoinType.ANTI, List.of(0), -1, 16);
            assertEquals(expected.size(), rows, type.name());
        }
    }

    @Test
    void workersSharingOneBuildReturnEachBuildRowOnce() {
        for (int round = 0; round < 16; round++) {
            JoinType type = round % 2 == 0 ? JoinType.RIGHT_SEMI : JoinType.RIGHT_ANTI;
            List<Integer> joinKeys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
            int kind = round % 4 < 2 ? -1 : random.nextInt(4);
            List<Object[]> a = randomRows(random.nextInt(400));
            List<List<Object[]>> shares = new ArrayList<>();
            List<Object[]> b = new ArrayList<>();
            for (int worker = 0; worker < WORKERS; worker++) {
                List<Object[]> share = randomRows(random.nextInt(300));
                shares.add(share);
                b.addAll(share);
            }
            int batchSize = 1 + random.nextInt(40);
            SharedHashBuild shared = SharedHashBuild.readByOne();
            List<Operator> workers = new ArrayList<>();
            ListSource build = new ListSource(SCHEMA, a, batchSize, new Random(round), -1);
            for (int worker = 0; worker < WORKERS; worker++) {
                ListSource copy = worker == 0 ? build : build.copy();
                workers.add(new HashJoinOperator(new ListSource(SCHEMA, shares.get(worker), batchSize, new Random(worker), -1), copy,
                        type, joinKeys, joinKeys, condition(kind, SCHEMA.size(), 0), shared));
            }
            List<Object[]> actual = run(new GatherOperator(workers), context(batchSize));
            List<Object[]> expected = leftJoin(a, b, type == JoinType.RIGHT_SEMI ? JoinType.SEMI : JoinType.ANTI, joinKeys, kind,
                    batchSize);
            assertRows(expected, actual, "seed " + seed + ", round " + round + ", " + type + " on " + joinKeys + ", condition " + kind);
        }
    }

    private static Operator rightJoin(List<Object[]> build, List<Object[]> probe, JoinType type, int batchSize) {
        return new HashJoinOperator(ListSource.of(SCHEMA, probe, batchSize), ListSource.of(SCHEMA, build, batchSize), type,
                List.of(0), List.of(0), null);
    }

    /** Rows whose key (column 0) is each of {@code keys}, the other columns those of a fixed row. */
    private static List<Object[]> rows(Integer... keys) {
        List<Object[]> rows = new ArrayList<>();
        for (int index = 0; index < keys.length; index++) {
            Object[] row = randomRow(new Random(index));
            row[0] = keys[index];
            rows.add(row);
        }
        return rows;
    }

    private static void assertKeys(List<Integer> expected, List<Object[]> actual) {
        List<Integer> keys = new ArrayList<>();
        for (Object[] row : actual) {
            keys.add((Integer) row[0]);
        }
        keys.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
        List<Integer> sorted = new ArrayList<>(expected);
        sorted.sort(Comparator.nullsFirst(Comparator.naturalOrder()));
        assertEquals(sorted, keys);
    }
}
