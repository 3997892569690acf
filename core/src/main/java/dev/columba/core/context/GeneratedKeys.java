package dev.columba.core.context;

/**
 * The identity values one insert handed out: {@code count} values of {@code column} from
 * {@code first}, {@code increment} apart (one writer at a time per table, so a statement's values
 * are one such run). JDBC's {@code getGeneratedKeys} reads them.
 *
 * @param bigint whether the column is BIGINT (else INT)
 */
public record GeneratedKeys(String column, boolean bigint, long first, long increment, long count) {
    /** The {@code index}-th value, as the column's Java type. */
    public Object value(long index) {
        long value = first + index * increment;
        return bigint ? (Object) value : (Object) (int) value;
    }
}
