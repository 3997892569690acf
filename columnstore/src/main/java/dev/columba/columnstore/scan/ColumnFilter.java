package dev.columba.columnstore.scan;

import dev.columba.columnstore.encoding.ColumnPredicate;
import java.util.Objects;

/** A predicate on one column that the scan evaluates itself: on encoded data where it can. */
public record ColumnFilter(int column, ColumnPredicate predicate) {
    public ColumnFilter {
        Objects.requireNonNull(predicate, "predicate");
        if (column < 0) {
            throw new IllegalArgumentException("column " + column);
        }
    }
}
