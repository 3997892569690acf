package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * An aggregation split for a parallel plan whose final merge runs in the workers: each of three
 * workers aggregates its input partially, the workers exchange the partial groups by the hash of
 * their keys ({@link RepartitionOperator}), each merges the groups of its partition, and the gather
 * returns what one aggregation over all rows returns, for every function and type and for keys of
 * every layout (the reference is the serial aggregation). The base class's cases stop early, fail
 * an input and cancel while workers wait for each other at the exchange, and check that nothing
 * leaks.
 */
class RepartitionedAggregationTest extends OperatorTestBase {
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
        return repartitioned(inputs, keys);
    }

    private static Operator repartitioned(List<Operator> inputs, List<Integer> keys) {
        SharedRepartition shared = new SharedRepartition();
        List<Operator> workers = new ArrayList<>();
        for (Operator input : inputs) {
            Operator exchange = new RepartitionOperator(HashAggregateOperator.partial(input, keys, AGGREGATES), firstColumns(keys.size()), shared);
            workers.add(HashAggregateOperator.merging(exchange, keys.size(), AGGREGATES,
                    HashAggregateOperator.argumentTypes(SCHEMA, AGGREGATES)));
        }
        return new GatherOperator(workers);
    }

    private static List<Integer> firstColumns(int count) {
        List<Integer> columns = new ArrayList<>();
        for (int column = 0; column < count; column++) {
            columns.add(column);
        }
        return columns;
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return HashAggregateOperatorTest.reference(all, keys, AGGREGATES);
    }

    @Test
    void eachGroupIsMergedByOneWorkerAndTheWorkersShareTheGroups() {
        List<Operator> sources = new ArrayList<>();
        for (int input = 0; input < 3; input++) {
            List<Object[]> rows = new ArrayList<>();
            for (int row = 0; row < 3000; row++) {
                rows.add(new Object[] {row % 500, null, null, null, null, null, (long) input});
            }
            sources.add(new ListSource(SCHEMA, rows, 64, null, -1));
        }
        SharedRepartition shared = new SharedRepartition();
        List<HashAggregateOperator> workers = new ArrayList<>();
        for (Operator source : sources) {
            Operator exchange = new RepartitionOperator(HashAggregateOperator.partial(source, List.of(0), AGGREGATES), List.of(0), shared);
            workers.add(HashAggregateOperator.merging(exchange, 1, AGGREGATES, HashAggregateOperator.argumentTypes(SCHEMA, AGGREGATES)));
        }
        GatherOperator gather = new GatherOperator(List.copyOf(workers));
        gather.open(context(100));
        Set<Object> keys = new HashSet<>();
        int rows = 0;
        for (Batch batch = gather.next(); batch != null; batch = gather.next()) {
            for (int row = 0; row < batch.selectedCount(); row++) {
                assertTrue(keys.add(batch.column(0).getObject(batch.selectedRow(row))), "a key comes from one worker only");
                rows++;
            }
        }
        gather.close();
        assertEquals(500, rows);
        assertEquals(3, shared.partitions());
    }

    @Test
    void aWorkerThatFailsBeforeHandingInFailsTheOthersInsteadOfLeavingThemWaiting() {
        List<Operator> sources = List.of(
                new ListSource(SCHEMA, randomRows(3000), 10, null, -1),
                new ListSource(SCHEMA, randomRows(3000), 10, null, 5),
                new ListSource(SCHEMA, randomRows(3000), 10, null, -1));
        Operator gather = repartitioned(sources, List.of(0));
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
