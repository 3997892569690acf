package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * A hash join in a parallel fragment: three workers, each with its own share of the left (probe)
 * rows and its own copy of the right input, share one build. The rows are the serial join's of all
 * left rows with the right input, for every join type, with and without a residual; the right input
 * is read by one worker only (the others' copies are never opened) and every copy is closed; the
 * shared table's memory is released (the base class checks the query's allocator).
 */
class SharedHashBuildTest extends OperatorTestBase {
    private static final int WORKERS = 3;
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(0, 1), List.of(4),
            List.of(2), List.of(5, 0));

    private JoinType joinType;
    private List<Integer> keys;
    private Expr residual;
    private final List<ListSource> rightCopies = new ArrayList<>();

    @Override
    int inputCount() {
        return WORKERS + 1;
    }

    @Override
    int maxRows() {
        return 1000;
    }

    @Override
    Operator create(List<Operator> inputs) {
        joinType = JoinType.values()[random.nextInt(JoinType.values().length)];
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        residual = random.nextInt(3) == 0 ? HashJoinOperatorTest.randomCondition(random) : null;
        ListSource right = (ListSource) inputs.get(WORKERS);
        SharedHashBuild shared = SharedHashBuild.readByOne();
        rightCopies.clear();
        List<Operator> workers = new ArrayList<>();
        for (int worker = 0; worker < WORKERS; worker++) {
            // The planner gives each worker a copy of the build input; the first copy is the source itself.
            ListSource copy = worker == 0 ? right : right.copy();
            rightCopies.add(copy);
            workers.add(new HashJoinOperator(inputs.get(worker), copy, joinType, keys, keys, residual, shared));
        }
        return new GatherOperator(workers);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> left = new ArrayList<>();
        for (int worker = 0; worker < WORKERS; worker++) {
            left.addAll(inputs.get(worker));
        }
        List<Object[]> rows = HashJoinOperatorTest.referenceJoin(left, inputs.get(WORKERS), joinType, (l, r) -> {
            for (int key : keys) {
                if (l[key] == null || r[key] == null || Comparisons.compare(l[key], r[key]) != 0) {
                    return false;
                }
            }
            return residual == null || Boolean.TRUE.equals(Evaluator.evaluate(residual, HashJoinOperatorTest.concat(l, r), EVALUATION));
        });
        return rows;
    }

    @Override
    List<Object[]> run(Operator operator, ExecutionContext context) {
        List<Object[]> rows = super.run(operator, context);
        long opened = rightCopies.stream().filter(copy -> copy.opened).count();
        assertTrue(opened <= 1, opened + " workers read the build input");
        assertTrue(rightCopies.stream().allMatch(copy -> copy.closed || !copy.opened), "every build input read was closed");
        assertEquals(0, queryAllocator.getAllocatedMemory());
        return rows;
    }
}
