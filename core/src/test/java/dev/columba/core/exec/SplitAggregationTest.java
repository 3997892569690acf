package dev.columba.core.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * An aggregation split for a parallel plan — a partial aggregation per worker (three, over inputs
 * of different sizes, some empty), gathered, then the final merge — returns what one aggregation
 * over all the rows returns, for every function and type (the reference is the serial one's), with
 * and without group keys. DISTINCT aggregates are never split.
 */
class SplitAggregationTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(), List.of(0), List.of(1), List.of(0, 1),
            List.of(4, 5), List.of(2, 6, 0));
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
        List<Operator> partials = new ArrayList<>();
        for (Operator input : inputs) {
            partials.add(HashAggregateOperator.partial(input, keys, AGGREGATES));
        }
        return HashAggregateOperator.merging(new GatherOperator(partials), keys.size(), AGGREGATES,
                HashAggregateOperator.argumentTypes(SCHEMA, AGGREGATES));
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> all = new ArrayList<>();
        inputs.forEach(all::addAll);
        return HashAggregateOperatorTest.reference(all, keys, AGGREGATES);
    }
}
