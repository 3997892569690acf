package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An aggregation the workers of a parallel plan finish together ({@link
 * HashAggregateOperator#mergeAcrossWorkers}, {@link SharedAggregation}): each of three workers
 * aggregates its input into one table per partition of the keys' hash, and each then finishes one
 * partition of every worker's groups in place; the gather returns what one aggregation over all
 * rows returns, for every function and type and for keys of every layout (the reference is the
 * serial aggregation). The base class's cases stop early, fail an input and cancel while workers
 * wait for each other, and check that nothing leaks. The cases below cover groups that all workers
 * meet, groups that only one meets, NULL keys, and from one to eight workers.
 */
class PartitionedAggregationTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(0), List.of(1), List.of(0, 1),
            List.of(4, 5), List.of(2, 6, 0), List.of(3), List.of(6));
    private static final List<AggregateCall> AGGREGATES = HashAggregateOperatorTest.AGGREGATES.stream()
            .filter(call -> !call.distinct()).toList();

    private List<Integer> keys;

    @Override
    int inputCount() {
        return 3;
    }

    @Override
    Operator create(List<Operator> inputs) {
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        return acrossWorkers(inputs, keys, new SharedAggregation());
    }

    private static GatherOperator acrossWorkers(List<Operator> inputs, List<Integer> keys, SharedAggregation shared) {
        List<Operator> workers = new ArrayList<>();
        for (Operator input : inputs) {
            HashAggregateOperator worker = new HashAggregateOperator(input, keys, AGGREGATES);
            worker.mergeAcrossWorkers(shared);
            workers.add(worker);
        }
        return new GatherOperator(workers);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return HashAggregateOperatorTest.reference(all, keys, AGGREGATES);
    }

    /** Runs {@code inputs} across as many workers and checks the rows against the serial reference and that each key comes once. */
    private void checkAcrossWorkers(List<List<Object[]>> inputs, List<Integer> groupKeys, int batchSize, String what) {
        keys = groupKeys;
        List<Operator> sources = new ArrayList<>();
        for (List<Object[]> rows : inputs) {
            sources.add(new ListSource(SCHEMA, rows, batchSize, null, -1));
        }
        SharedAggregation shared = new SharedAggregation();
        List<Object[]> rows = run(acrossWorkers(sources, groupKeys, shared), context(batchSize));
        assertRows(expected(inputs), rows, what + " (seed " + seed + ")");
        Set<List<Object>> seen = new HashSet<>();
        for (Object[] row : rows) {
            List<Object> key = new ArrayList<>();
            for (int column = 0; column < groupKeys.size(); column++) {
                key.add(row[column]);
            }
            assertTrue(seen.add(key), () -> what + ": key " + key + " returned by two workers");
        }
        assertEquals(inputs.size(), shared.partitions(), what);
    }

    @Test
    void groupsEveryWorkerMeetsAreMergedOnce() {
        for (int workers = 1; workers <= 8; workers++) {
            List<List<Object[]>> inputs = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                List<Object[]> rows = new ArrayList<>();
                for (int row = 0; row < 2000; row++) {
                    rows.add(new Object[] {row % 300, "s" + (row % 3), BigDecimal.valueOf(row, 2), (double) worker,
                        null, row % 2 == 0, (long) row});
                }
                inputs.add(rows);
            }
            checkAcrossWorkers(inputs, List.of(0), 64, workers + " workers, every key in every worker");
            checkAcrossWorkers(inputs, List.of(1, 0), 64, workers + " workers, string and int keys in every worker");
        }
    }

    @Test
    void groupsOnlyOneWorkerMeetsAreAdoptedWhole() {
        for (int workers = 1; workers <= 8; workers++) {
            List<List<Object[]>> inputs = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                List<Object[]> rows = new ArrayList<>();
                // Clustered, disjoint keys per worker (order keys in lineitem's order): each group is one worker's.
                for (int row = 0; row < 3000; row++) {
                    int key = worker * 1000 + row / 3;
                    rows.add(new Object[] {key, null, BigDecimal.valueOf(row, 2), null, null, null, (long) key * 7});
                }
                inputs.add(rows);
            }
            checkAcrossWorkers(inputs, List.of(0), 128, workers + " workers, disjoint int keys");
            checkAcrossWorkers(inputs, List.of(6), 128, workers + " workers, disjoint bigint keys");
        }
    }

    @Test
    void groupsSharedByTablesAfterTheAdoptedOneAreReturnedOnce() {
        // Worker 0 has the most groups (its tables are adopted); workers 1 and 2 share keys
        // 10000-10399 that worker 0 lacks: worker 1's tables keep them and must take worker 2's
        // rows of them, which are then not returned a second time.
        List<List<Object[]>> inputs = new ArrayList<>();
        for (int worker = 0; worker < 3; worker++) {
            List<Object[]> rows = new ArrayList<>();
            int own = worker == 0 ? 3000 : 500;
            for (int row = 0; row <= own; row++) {
                int key = worker * 5000 + row;
                rows.add(new Object[] {key, null, BigDecimal.valueOf(row, 2), (double) row, null, row % 2 == 0, (long) key});
            }
            if (worker > 0) {
                for (int row = 0; row < 400; row++) {
                    rows.add(new Object[] {10000 + row, null, BigDecimal.valueOf(row + worker, 2), null, null, null, 10000L + row});
                }
            }
            inputs.add(rows);
        }
        checkAcrossWorkers(inputs, List.of(0), 64, "3 workers, keys shared after the adopted table");
        checkAcrossWorkers(inputs, List.of(6), 64, "3 workers, bigint keys shared after the adopted table");
        checkAcrossWorkers(inputs, List.of(0, 6), 64, "3 workers, composite keys shared after the adopted table");
    }

    @Test
    void nullKeysFormOneGroupAcrossWorkers() {
        for (int workers = 2; workers <= 5; workers++) {
            List<List<Object[]>> inputs = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                List<Object[]> rows = new ArrayList<>();
                for (int row = 0; row < 500; row++) {
                    Integer key = row % 4 == 0 ? null : row % 50;
                    String string = row % 5 == 0 ? null : "v" + (row % 7);
                    rows.add(new Object[] {key, string, BigDecimal.valueOf(100, 2), 1.0, null, null, null});
                }
                inputs.add(rows);
            }
            checkAcrossWorkers(inputs, List.of(0), 32, workers + " workers, NULL int keys");
            checkAcrossWorkers(inputs, List.of(1), 32, workers + " workers, NULL string keys");
            checkAcrossWorkers(inputs, List.of(0, 1), 32, workers + " workers, NULL composite keys");
        }
    }

    @Test
    void keysThatSpreadFarLeaveTheDenseArraysWithTheirValues() {
        for (int workers : new int[] {2, 3, 4}) {
            List<List<Object[]>> inputs = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                List<Object[]> rows = new ArrayList<>();
                // Close keys first (each partition's table starts dense), then keys far apart and negative ones.
                for (int row = 0; row < 1500; row++) {
                    long key = row < 1000 ? row % 300 : (row - 1000) * -1_000_003L * (row % 2 == 0 ? 1 : -7);
                    rows.add(new Object[] {(int) (key % 100_000_000), null, BigDecimal.valueOf(row, 2), null, null, null, key * 1_000_000L});
                }
                inputs.add(rows);
            }
            checkAcrossWorkers(inputs, List.of(0), 64, workers + " workers, int keys leaving the dense array");
            checkAcrossWorkers(inputs, List.of(6), 64, workers + " workers, bigint keys leaving the dense array");
        }
    }

    @Test
    void randomInputsOverManyWorkers() {
        for (int workers : new int[] {2, 4, 7}) {
            List<List<Object[]>> inputs = new ArrayList<>();
            for (int worker = 0; worker < workers; worker++) {
                inputs.add(randomRows(random.nextInt(1500)));
            }
            for (List<Integer> choice : KEY_CHOICES) {
                checkAcrossWorkers(inputs, choice, 1 + random.nextInt(100), workers + " workers, keys " + choice);
            }
        }
    }

    @Test
    void eachWorkerReturnsTheGroupsOfItsPartition() {
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < 3; input++) {
            List<Object[]> rows = new ArrayList<>();
            for (int row = 0; row < 3000; row++) {
                rows.add(new Object[] {row % 500, null, null, null, null, null, (long) input});
            }
            sources.add(new ListSource(SCHEMA, rows, 64, null, -1));
        }
        SharedAggregation shared = new SharedAggregation();
        List<HashAggregateOperator> workers = new ArrayList<>();
        for (Operator source : sources) {
            HashAggregateOperator worker = new HashAggregateOperator(source, List.of(0), AGGREGATES);
            worker.mergeAcrossWorkers(shared);
            workers.add(worker);
        }
        // Each worker on a thread of its own, as a gather runs them, recording the keys it returns.
        List<Set<Integer>> byWorker = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (HashAggregateOperator worker : workers) {
            Set<Integer> mine = new HashSet<>();
            byWorker.add(mine);
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    worker.open(context(100));
                    for (Batch batch = worker.next(); batch != null; batch = worker.next()) {
                        for (int row = 0; row < batch.selectedCount(); row++) {
                            mine.add((Integer) batch.column(0).getObject(batch.selectedRow(row)));
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    worker.close();
                }
            }));
        }
        for (Thread thread : threads) {
            assertDoesNotThrow(() -> thread.join());
        }
        assertEquals(List.of(), failures);
        int rows = 0;
        for (int worker = 0; worker < 3; worker++) {
            rows += byWorker.get(worker).size();
            for (int key : byWorker.get(worker)) {
                assertEquals(worker, SharedAggregation.wholeNumberPartitionOf(key, 3), "key " + key + " is finished by the worker of its partition");
            }
        }
        assertEquals(500, rows, "every key once");
    }

    @Test
    void aWorkerThatFailsBeforeHandingInFailsTheOthersInsteadOfLeavingThemWaiting() {
        List<Operator> sources = List.of(
                new ListSource(SCHEMA, randomRows(3000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(3000), 10, null, 5),
                new ListSource(SCHEMA, randomRows(3000), 10, null, -1));
        Operator gather = acrossWorkers(sources, List.of(0), new SharedAggregation());
        gather.open(context(10));
        ColumbaException failure = assertThrows(ColumbaException.class, () -> {
            while (gather.next() != null) {
                // drains until the second worker's input fails
            }
        });
        assertEquals(ErrorCode.IO_ERROR, failure.errorCode());
        gather.close();
        for (Operator source : sources) {
            assertTrue(((ListSource) source).closed, "every worker closed its fragment");
        }
    }
}
