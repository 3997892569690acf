package dev.columba.core.exec;

/**
 * What an aggregation's input computed itself for one aggregate call over rows it did not return
 * (a columnstore scan answering from its segments, see {@link HashAggregateOperator#foldFrom}),
 * in the call's argument's terms:
 * <ul>
 *   <li>COUNT: {@code count} rows or non-NULL values, {@code value} unused;</li>
 *   <li>SUM and AVG: the exact total as a {@link java.math.BigDecimal} at the argument's scale
 *       (null when no value was added) and the {@code count} of values added;</li>
 *   <li>MIN and MAX: the extreme as a Java value of the argument's type, null when none.</li>
 * </ul>
 */
public record FoldedAggregate(long count, Object value) {
    public FoldedAggregate {
        if (count < 0) {
            throw new IllegalArgumentException("a folded aggregate counts " + count + " values");
        }
    }
}
