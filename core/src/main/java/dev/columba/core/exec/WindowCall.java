package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.util.Objects;

/**
 * One window function of a {@link WindowGroup}: {@code function(input[argument], offset, default)}
 * producing a column {@code name} of {@code type}.
 *
 * <p>Types: ROW_NUMBER, RANK, DENSE_RANK and COUNT are BIGINT or INT, NTILE INT or BIGINT; LAG,
 * LEAD, FIRST_VALUE, LAST_VALUE, MIN and MAX have their argument's type; SUM and AVG convert their
 * exact total as the hash aggregate does ({@link AggregateCall}).
 *
 * @param argument the input column, or {@link #NO_ARGUMENT} (ranking functions, COUNT(*))
 * @param offset LAG/LEAD: rows back or ahead (1 by default); NTILE: the number of buckets; else 0
 * @param defaultValue LAG/LEAD: the value past the partition's edge, of {@code type} (null: NULL); else null
 */
public record WindowCall(WindowFunction function, int argument, long offset, Object defaultValue, SqlType type, String name) {
    public static final int NO_ARGUMENT = -1;

    public WindowCall {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        if (argument < NO_ARGUMENT) {
            throw new IllegalArgumentException("argument must be a column or -1, was " + argument);
        }
        boolean needsArgument = switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK, NTILE, COUNT -> false;
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, SUM, SUM0, AVG, MIN, MAX -> true;
        };
        if (needsArgument && argument == NO_ARGUMENT) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, function + " needs an argument");
        }
        if (function == WindowFunction.NTILE && offset < 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "NTILE needs a number of buckets of 1 or more, got " + offset);
        }
        if ((function == WindowFunction.LAG || function == WindowFunction.LEAD) && offset < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, function + " needs an offset of 0 or more, got " + offset);
        }
    }

    /** A function without argument (ROW_NUMBER, RANK, DENSE_RANK, COUNT(*)). */
    public static WindowCall of(WindowFunction function, SqlType type, String name) {
        return new WindowCall(function, NO_ARGUMENT, 0, null, type, name);
    }

    /** A function of one column (FIRST_VALUE, LAST_VALUE, the aggregates). */
    public static WindowCall of(WindowFunction function, int argument, SqlType type, String name) {
        return new WindowCall(function, argument, 0, null, type, name);
    }
}
