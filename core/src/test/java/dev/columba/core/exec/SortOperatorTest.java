package dev.columba.core.exec;

import dev.columba.core.expr.Comparisons;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

class SortOperatorTest extends OperatorTestBase {
    List<SortKey> keys;

    List<SortKey> randomKeys() {
        List<SortKey> result = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int key = 0; key < count; key++) {
            result.add(new SortKey(random.nextInt(SCHEMA.size()), random.nextBoolean(), random.nextBoolean()));
        }
        return result;
    }

    @Override
    Operator create(List<Operator> inputs) {
        keys = randomKeys();
        return new SortOperator(inputs.getFirst(), keys);
    }

    /** The rows stably sorted by {@code keys}, on Java values. */
    static List<Object[]> sorted(List<Object[]> rows, List<SortKey> keys) {
        Comparator<Object[]> order = (left, right) -> {
            for (SortKey key : keys) {
                Object a = left[key.column()];
                Object b = right[key.column()];
                if (a == null || b == null) {
                    if (a == b) {
                        continue;
                    }
                    return (a == null) == key.nullsFirst() ? -1 : 1;
                }
                int comparison = Comparisons.compare(a, b);
                if (comparison != 0) {
                    return key.descending() ? -comparison : comparison;
                }
            }
            return 0;
        };
        List<Object[]> result = new ArrayList<>(rows);
        result.sort(order);
        return result;
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return sorted(inputs.getFirst(), keys);
    }

    @Override
    boolean ordered() {
        return true;
    }
}
