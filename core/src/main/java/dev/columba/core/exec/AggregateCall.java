package dev.columba.core.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.Objects;

/**
 * One aggregate of a {@link HashAggregateOperator}: {@code function([DISTINCT] input[argument])
 * [FILTER (WHERE input[filter])]} producing a column {@code name} of {@code type}, as Calcite's
 * {@code AggregateCall} describes it.
 *
 * <p>Result types: COUNT is BIGINT. SUM and AVG of exact numbers may be INT, BIGINT, DECIMAL or
 * DOUBLE (the exact total is converted at the end: rounded half away from zero, an error (22003) if
 * it does not fit); of DOUBLE, DOUBLE. MIN and MAX have their argument's type. {@link #defaultType}
 * gives the types H2 gives, for differential tests.
 *
 * @param argument the input column, or {@link #NO_ARGUMENT} for COUNT(*)
 * @param filter a BOOLEAN input column whose TRUE rows alone are aggregated, or {@link #NO_FILTER}
 * @param separator what STRING_AGG puts between two values; null for every other function
 */
public record AggregateCall(AggregateFunction function, int argument, boolean distinct, int filter, SqlType type, String name,
                            String separator) {
    public static final int NO_ARGUMENT = -1;
    public static final int NO_FILTER = -1;

    public AggregateCall {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        if (argument < NO_ARGUMENT || filter < NO_FILTER) {
            throw new IllegalArgumentException("argument and filter columns must be columns or -1, were " + argument + " and " + filter);
        }
        if (argument == NO_ARGUMENT && (function != AggregateFunction.COUNT || distinct)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "only COUNT(*) takes no argument, not " + function
                    + (distinct ? " DISTINCT" : ""));
        }
        if ((function == AggregateFunction.STRING_AGG) != (separator != null)) {
            throw new IllegalArgumentException("STRING_AGG and only STRING_AGG takes a separator: " + function
                    + " with " + (separator == null ? "none" : "'" + separator + "'"));
        }
    }

    /** A call of any function but STRING_AGG, which takes no separator. */
    public AggregateCall(AggregateFunction function, int argument, boolean distinct, int filter, SqlType type, String name) {
        this(function, argument, distinct, filter, type, name, null);
    }

    /** {@code STRING_AGG(input[argument], separator)} named {@code name}: VARCHAR without a declared length. */
    public static AggregateCall stringAgg(int argument, String separator, String name) {
        return new AggregateCall(AggregateFunction.STRING_AGG, argument, false, NO_FILTER,
                SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), name, separator);
    }

    /** COUNT(*) named {@code name}. */
    public static AggregateCall countStar(String name) {
        return new AggregateCall(AggregateFunction.COUNT, NO_ARGUMENT, false, NO_FILTER, SqlType.BIGINT, name);
    }

    /** {@code function([DISTINCT] argument)} with the {@linkplain #defaultType default result type}, no filter. */
    public static AggregateCall of(AggregateFunction function, int argument, boolean distinct, TableSchema input, String name) {
        SqlType argumentType = argument == NO_ARGUMENT ? null : input.column(argument).type();
        return new AggregateCall(function, argument, distinct, NO_FILTER, defaultType(function, argumentType), name);
    }

    /**
     * COUNT: BIGINT. SUM: INT to BIGINT, BIGINT to DECIMAL(38,0), DECIMAL(p,s) to DECIMAL(min(38, p+10), s),
     * DOUBLE to DOUBLE. AVG: INT and DOUBLE to DOUBLE, BIGINT to DECIMAL(29,10), DECIMAL(p,s) to
     * DECIMAL(min(38, p+10), min(38, s+10)) with at least as many integer digits. MIN and MAX: the argument's type.
     */
    public static SqlType defaultType(AggregateFunction function, SqlType argumentType) {
        return switch (function) {
            case COUNT -> SqlType.BIGINT;
            case MIN, MAX -> argumentType;
            case STRING_AGG -> SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
            case SUM -> switch (argumentType) {
                case SqlType.IntegerType ignored -> SqlType.BIGINT;
                case SqlType.BigintType ignored -> SqlType.decimal(38, 0);
                case SqlType.DecimalType decimal -> SqlType.decimal(Math.min(38, decimal.precision() + 10), decimal.scale());
                case SqlType.DoubleType ignored -> SqlType.DOUBLE;
                default -> throw notNumeric(function, argumentType);
            };
            case AVG -> switch (argumentType) {
                case SqlType.IntegerType ignored -> SqlType.DOUBLE;
                case SqlType.DoubleType ignored -> SqlType.DOUBLE;
                case SqlType.BigintType ignored -> SqlType.decimal(29, 10);
                case SqlType.DecimalType decimal -> {
                    int scale = Math.min(38, decimal.scale() + 10);
                    yield SqlType.decimal(Math.min(38, Math.max(decimal.precision() + 10, scale + 1)), scale);
                }
                default -> throw notNumeric(function, argumentType);
            };
        };
    }

    private static ColumbaException notNumeric(AggregateFunction function, SqlType type) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, function + " needs a number, got " + type.sqlName());
    }
}
