package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A hash join in a parallel fragment whose build input the workers divide: each of n workers has
 * its own share of the left (probe) rows and its own share of the right (build) rows, and the
 * table is built from all the right shares. The rows are the serial join's of all left rows with
 * all right rows, for every join type, with and without a residual, at 1, 2 and 3 workers; every
 * worker reads its own share once and closes it; the table's and the shares' memory is released
 * (the base class checks the query's allocator); one worker's failure while reading its share ends
 * every worker with that failure.
 */
class SharedHashBuildReadByEachTest {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(0, 1), List.of(4),
            List.of(2), List.of(5, 0), List.of(6), List.of(0, 4));

    abstract static class Workers extends OperatorTestBase {
        private final int workers;
        /** Whether every build, however small, is filled by all the workers together (in tiny partitions, so keys probe past them). */
        private final boolean fillTogether;
        private JoinType joinType;
        private List<Integer> keys;
        private Expr residual;
        private final List<ListSource> rightShares = new ArrayList<>();

        Workers(int workers) {
            this(workers, false);
        }

        Workers(int workers, boolean fillTogether) {
            this.workers = workers;
            this.fillTogether = fillTogether;
        }

        @Override
        int inputCount() {
            return 2 * workers;
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
            return join(inputs, joinType, keys, residual);
        }

        private Operator join(List<Operator> inputs, JoinType type, List<Integer> joinKeys, Expr condition) {
            SharedHashBuild shared = SharedHashBuild.readByEach();
            rightShares.clear();
            List<Operator> copies = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                ListSource right = (ListSource) inputs.get(workers + worker);
                rightShares.add(right);
                HashJoinOperator copy = new HashJoinOperator(inputs.get(worker), right, type, joinKeys, joinKeys, condition, shared);
                if (fillTogether) {
                    copy.fillInParallelFrom(0, 1);
                }
                copies.add(copy);
            }
            return new GatherOperator(copies);
        }

        @Override
        List<Object[]> expected(List<List<Object[]>> inputs) {
            List<Object[]> left = new ArrayList<>();
            List<Object[]> right = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                left.addAll(inputs.get(worker));
                right.addAll(inputs.get(workers + worker));
            }
            return HashJoinOperatorTest.referenceJoin(left, right, joinType, (l, r) -> {
                for (int key : keys) {
                    if (l[key] == null || r[key] == null || Comparisons.compare(l[key], r[key]) != 0) {
                        return false;
                    }
                }
                return residual == null
                        || Boolean.TRUE.equals(Evaluator.evaluate(residual, HashJoinOperatorTest.concat(l, r), EVALUATION));
            });
        }

        @Override
        List<Object[]> run(Operator operator, ExecutionContext context) {
            List<Object[]> rows = super.run(operator, context);
            for (ListSource share : rightShares) {
                assertTrue(share.opened && share.closed, "every worker read its share of the build input and closed it");
            }
            assertEquals(0, queryAllocator.getAllocatedMemory());
            return rows;
        }

        @Test
        void oneWorkersFailureWhileReadingItsShareReachesEveryWorker() {
            for (int failing = 0; failing < workers; failing++) {
                List<Operator> sources = new ArrayList<>();
                for (int input = 0; input < inputCount(); input++) {
                    boolean fails = input == workers + failing;
                    sources.add(new ListSource(SCHEMA, randomRows(200), 10, null, fails ? 2 : -1));
                }
                Operator operator = join(sources, JoinType.INNER, List.of(0), null);
                operator.open(context(10));
                ColumbaException failure = assertThrows(ColumbaException.class, () -> {
                    while (operator.next() != null) {
                        // drains until the failing share fails
                    }
                });
                assertEquals(ErrorCode.IO_ERROR, failure.errorCode(), "worker " + failing + "'s failure");
                operator.close();
                for (Operator source : sources) {
                    ListSource list = (ListSource) source;
                    assertTrue(list.closed || !list.opened, "inputs closed");
                }
                assertEquals(0, queryAllocator.getAllocatedMemory(), "the shares handed in were freed");
            }
        }
    }

    @Nested
    class OneWorker extends Workers {
        OneWorker() {
            super(1);
        }
    }

    @Nested
    class TwoWorkers extends Workers {
        TwoWorkers() {
            super(2);
        }
    }

    @Nested
    class ThreeWorkers extends Workers {
        ThreeWorkers() {
            super(3);
        }
    }

    @Nested
    class TwoWorkersFillingTogether extends Workers {
        TwoWorkersFillingTogether() {
            super(2, true);
        }
    }

    @Nested
    class ThreeWorkersFillingTogether extends Workers {
        ThreeWorkersFillingTogether() {
            super(3, true);
        }
    }
}
