package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.util.List;

/**
 * The built-in functions of {@link Expr.Call}, each with its arity and result type. Every one
 * returns NULL when any argument is NULL. MOD is {@link ArithmeticOperator#MODULO}; {@code ||} is
 * {@link #CONCAT}.
 */
public enum ScalarFunction {
    /** CHAR_LENGTH(s), alias LENGTH: characters (code points) in {@code s}, bytes in a binary string, as INT. */
    CHAR_LENGTH(1, 1),
    /** UPPER(s) and LOWER(s), by Unicode's rules without locale, as VARCHAR (mapping can lengthen a string). */
    UPPER(1, 1),
    LOWER(1, 1),
    /**
     * SUBSTRING(s, start [, length]) with SQL's 1-based positions: the characters from
     * {@code start} to {@code start + length - 1} that exist; a negative length is an error (22011).
     */
    SUBSTRING(2, 3),
    /** TRIM(s [, characters]): removes leading and trailing characters of the set (default a space). */
    TRIM(1, 2),
    LTRIM(1, 2),
    RTRIM(1, 2),
    /** REPLACE(s, from, to): every occurrence; an empty {@code from} leaves {@code s} unchanged. */
    REPLACE(3, 3),
    /** REPEAT(s, count): empty for a count of zero or less. */
    REPEAT(2, 2),
    /** POSITION(needle, haystack), SQL's POSITION(needle IN haystack): 1-based, 0 when absent. */
    POSITION(2, 2),
    /** CONCAT(a, b, ...) and {@code a || b}: NULL if any argument is NULL. */
    CONCAT(2, Integer.MAX_VALUE),
    ABS(1, 1),
    /** ROUND(x [, digits]): half away from zero; negative digits round left of the point. */
    ROUND(1, 2),
    FLOOR(1, 1),
    CEIL(1, 1),
    /** POWER(x, y) as DOUBLE; an undefined result (0 to a negative power, a root of a negative) is an error (2201F). */
    POWER(2, 2),
    /** SQRT(x) as DOUBLE; a negative {@code x} is an error (2201F). */
    SQRT(1, 1),
    /**
     * DATEDIFF(unit, start, end), SQL Server's: how many boundaries of {@code unit} (the name of an
     * {@link IntervalUnit}, as a string) lie between {@code start} and {@code end}, each a DATE or
     * TIMESTAMP; negative when {@code end} is earlier; weeks start on Sunday. As INT: a count that
     * does not fit is an error (22003).
     */
    DATEDIFF(3, 3);

    private final int minimumArguments;
    private final int maximumArguments;

    ScalarFunction(int minimumArguments, int maximumArguments) {
        this.minimumArguments = minimumArguments;
        this.maximumArguments = maximumArguments;
    }

    /**
     * The type of a call with arguments of {@code argumentTypes}.
     *
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} naming the function and the offending argument
     */
    public SqlType resultType(List<SqlType> argumentTypes) {
        int count = argumentTypes.size();
        if (count < minimumArguments || count > maximumArguments) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, name() + " takes " + arityText() + " arguments, got " + count);
        }
        return switch (this) {
            case CHAR_LENGTH -> {
                if (!TypeRules.isBinary(argumentTypes.getFirst())) {
                    requireString(argumentTypes, 0);
                }
                yield SqlType.INT;
            }
            case UPPER, LOWER -> {
                // Case mapping can lengthen a string (German sharp s becomes SS), up to three characters for one.
                yield TypeRules.varchar(3L * TypeRules.maxLength(requireString(argumentTypes, 0)));
            }
            case SUBSTRING -> {
                SqlType string = requireString(argumentTypes, 0);
                for (int argument = 1; argument < count; argument++) {
                    requireInteger(argumentTypes, argument);
                }
                yield TypeRules.varchar(TypeRules.maxLength(string));
            }
            case TRIM, LTRIM, RTRIM -> {
                SqlType string = requireString(argumentTypes, 0);
                if (count == 2) {
                    requireString(argumentTypes, 1);
                }
                yield TypeRules.varchar(TypeRules.maxLength(string));
            }
            case REPLACE -> {
                SqlType string = requireString(argumentTypes, 0);
                requireString(argumentTypes, 1);
                SqlType replacement = requireString(argumentTypes, 2);
                yield TypeRules.varchar((long) TypeRules.maxLength(string) * Math.max(1, TypeRules.maxLength(replacement)));
            }
            case REPEAT -> {
                requireString(argumentTypes, 0);
                requireInteger(argumentTypes, 1);
                yield TypeRules.varchar(SqlType.VarcharType.MAX_LENGTH);
            }
            case POSITION -> {
                requireString(argumentTypes, 0);
                requireString(argumentTypes, 1);
                yield SqlType.INT;
            }
            case CONCAT -> {
                long length = 0;
                for (int argument = 0; argument < count; argument++) {
                    length += TypeRules.maxLength(requireString(argumentTypes, argument));
                }
                yield TypeRules.varchar(length);
            }
            case ABS -> requireNumeric(argumentTypes, 0);
            case ROUND -> {
                SqlType number = requireNumeric(argumentTypes, 0);
                if (count == 2) {
                    requireInteger(argumentTypes, 1);
                }
                yield number instanceof SqlType.DecimalType decimal
                        ? new SqlType.DecimalType(Math.min(TypeRules.MAX_DECIMAL_PRECISION, decimal.precision() + 1), decimal.scale())
                        : number;
            }
            case FLOOR, CEIL -> {
                SqlType number = requireNumeric(argumentTypes, 0);
                yield number instanceof SqlType.DecimalType decimal
                        ? new SqlType.DecimalType(Math.min(TypeRules.MAX_DECIMAL_PRECISION, decimal.precision() - decimal.scale() + 1), 0)
                        : number;
            }
            case POWER -> {
                requireNumeric(argumentTypes, 0);
                requireNumeric(argumentTypes, 1);
                yield SqlType.DOUBLE;
            }
            case SQRT -> {
                requireNumeric(argumentTypes, 0);
                yield SqlType.DOUBLE;
            }
            case DATEDIFF -> {
                requireString(argumentTypes, 0);
                requireDateTime(argumentTypes, 1);
                requireDateTime(argumentTypes, 2);
                yield SqlType.INT;
            }
        };
    }

    private String arityText() {
        if (minimumArguments == maximumArguments) {
            return String.valueOf(minimumArguments);
        }
        return maximumArguments == Integer.MAX_VALUE
                ? "at least " + minimumArguments
                : minimumArguments + " to " + maximumArguments;
    }

    private SqlType requireString(List<SqlType> types, int argument) {
        return require(types, argument, TypeRules.isString(types.get(argument)), "a string");
    }

    private SqlType requireNumeric(List<SqlType> types, int argument) {
        return require(types, argument, TypeRules.isNumeric(types.get(argument)), "a number");
    }

    private SqlType requireInteger(List<SqlType> types, int argument) {
        return require(types, argument, TypeRules.isInteger(types.get(argument)), "an INT or BIGINT");
    }

    private SqlType requireDateTime(List<SqlType> types, int argument) {
        return require(types, argument, TypeRules.isDateTime(types.get(argument)), "a DATE or TIMESTAMP");
    }

    private SqlType require(List<SqlType> types, int argument, boolean fits, String expected) {
        if (!fits) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "argument " + (argument + 1) + " of " + name()
                    + " must be " + expected + ", got " + types.get(argument).sqlName());
        }
        return types.get(argument);
    }
}
