package dev.columba.columnstore.scan;

import dev.columba.columnstore.encoding.ColumnPredicate;
import java.util.Objects;

/**
 * {@code left <operator> right} between two columns of the same table, evaluated by the scan
 * before the other columns are decoded (TPC-H Q12's {@code l_commitdate < l_receiptdate}). The
 * two columns are of the same type; a row where either is NULL does not pass (SQL's UNKNOWN is
 * not true).
 *
 * @param left     the table column on the left of the operator
 * @param operator how the left value must compare to the right one
 * @param right    the table column on the right, not {@code left}
 */
public record ColumnComparison(int left, ColumnPredicate.Operator operator, int right) {
    public ColumnComparison {
        Objects.requireNonNull(operator, "operator");
        if (left < 0 || right < 0 || left == right) {
            throw new IllegalArgumentException("columns " + left + " and " + right);
        }
    }
}
