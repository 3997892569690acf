package dev.columba.planner.schema;

import dev.columba.core.expr.Comparisons;
import java.util.Objects;

/**
 * The smallest and largest value of a table's leading clustered-key column, in the column's Java
 * representation: what the cost model needs to estimate how many rows a key range holds. Bounds
 * may be wider than the data (deletes do not narrow them), never narrower.
 */
public record KeyBounds(Object min, Object max) {
    public KeyBounds {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (Comparisons.compare(min, max) > 0) {
            throw new IllegalArgumentException("key bounds " + min + " > " + max);
        }
    }

    /** These bounds stretched to include {@code value} (ignored when null). */
    public KeyBounds including(Object value) {
        if (value == null) {
            return this;
        }
        Object low = Comparisons.compare(value, min) < 0 ? value : min;
        Object high = Comparisons.compare(value, max) > 0 ? value : max;
        return low == min && high == max ? this : new KeyBounds(low, high);
    }
}
