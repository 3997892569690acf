package dev.columba.core.exec;

import java.util.List;
import java.util.Objects;

/**
 * Window functions that share a window: {@code OVER (PARTITION BY partition ORDER BY order frame)}.
 * Groups with the same partitioning and order share one sort in the {@link WindowOperator}.
 *
 * @param partition the input columns whose values split the rows into partitions (NULLs equal, as in GROUP BY)
 * @param order the order within a partition; rows equal on it are peers
 */
public record WindowGroup(List<Integer> partition, List<SortKey> order, WindowFrame frame, List<WindowCall> calls) {
    public WindowGroup {
        partition = List.copyOf(partition);
        order = List.copyOf(order);
        Objects.requireNonNull(frame, "frame");
        calls = List.copyOf(calls);
        if (calls.isEmpty()) {
            throw new IllegalArgumentException("a window group needs at least one function");
        }
    }

    /** The sort that brings this group's partitions together in its order: partition columns first. */
    List<SortKey> sortKeys() {
        List<SortKey> keys = new java.util.ArrayList<>();
        for (int column : partition) {
            keys.add(SortKey.ascending(column));
        }
        keys.addAll(order);
        return keys;
    }
}
