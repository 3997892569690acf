package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.util.List;

/**
 * How expression types combine: which types compare, the common type of two operands (the type
 * both are converted to before comparing, in CASE and COALESCE, in IN lists), the default result
 * type of arithmetic, and which casts exist. The planner may pass Calcite's types instead of these
 * defaults wherever an expression takes an explicit type.
 */
public final class TypeRules {
    /** The widest DECIMAL, Arrow's Decimal128. */
    public static final int MAX_DECIMAL_PRECISION = SqlType.DecimalType.MAX_PRECISION;

    /** The scale a DECIMAL quotient keeps at least when its precision must be capped. */
    static final int MINIMUM_DIVISION_SCALE = 6;

    /** Families of types that convert into each other implicitly. */
    public enum Family { BOOLEAN, NUMERIC, STRING, DATETIME, BINARY, UUID }

    private TypeRules() {
    }

    public static Family family(SqlType type) {
        return switch (type) {
            case SqlType.BooleanType ignored -> Family.BOOLEAN;
            case SqlType.IntegerType ignored -> Family.NUMERIC;
            case SqlType.BigintType ignored -> Family.NUMERIC;
            case SqlType.DoubleType ignored -> Family.NUMERIC;
            case SqlType.DecimalType ignored -> Family.NUMERIC;
            case SqlType.VarcharType ignored -> Family.STRING;
            case SqlType.CharType ignored -> Family.STRING;
            case SqlType.VarbinaryType ignored -> Family.BINARY;
            case SqlType.BinaryType ignored -> Family.BINARY;
            case SqlType.UuidType ignored -> Family.UUID;
            case SqlType.DateType ignored -> Family.DATETIME;
            case SqlType.TimestampType ignored -> Family.DATETIME;
        };
    }

    public static boolean isNumeric(SqlType type) {
        return family(type) == Family.NUMERIC;
    }

    /** INT or BIGINT. */
    public static boolean isInteger(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType;
    }

    public static boolean isString(SqlType type) {
        return family(type) == Family.STRING;
    }

    public static boolean isDateTime(SqlType type) {
        return family(type) == Family.DATETIME;
    }

    public static boolean isBinary(SqlType type) {
        return family(type) == Family.BINARY;
    }

    /** The declared length of a VARCHAR or CHAR (characters), or of a VARBINARY or BINARY (bytes). */
    public static int maxLength(SqlType type) {
        return switch (type) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            case SqlType.VarbinaryType varbinary -> varbinary.maxLength();
            case SqlType.BinaryType binary -> binary.length();
            default -> throw wrongType("a string", type);
        };
    }

    /** A VARCHAR of {@code length} characters, capped at the longest VARCHAR. */
    public static SqlType varchar(long length) {
        return SqlType.varchar((int) Math.max(1, Math.min(length, SqlType.VarcharType.MAX_LENGTH)));
    }

    /** The exact decimal type holding every value of an INT, BIGINT or DECIMAL type. */
    public static SqlType.DecimalType asDecimal(SqlType type) {
        return switch (type) {
            case SqlType.IntegerType ignored -> new SqlType.DecimalType(10, 0);
            case SqlType.BigintType ignored -> new SqlType.DecimalType(19, 0);
            case SqlType.DecimalType decimal -> decimal;
            default -> throw wrongType("an exact numeric", type);
        };
    }

    /**
     * The type both operands convert to before they are compared or merged.
     *
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} naming both types when they do not mix
     */
    public static SqlType commonType(SqlType left, SqlType right) {
        if (left.equals(right)) {
            return left;
        }
        Family family = family(left);
        if (family != family(right)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE,
                    "cannot combine " + left.sqlName() + " with " + right.sqlName());
        }
        return switch (family) {
            case BOOLEAN -> left;
            case NUMERIC -> commonNumericType(left, right);
            case STRING -> varchar(Math.max(maxLength(left), maxLength(right)));
            case BINARY -> SqlType.varbinary(Math.max(maxLength(left), maxLength(right)));
            case DATETIME -> SqlType.TIMESTAMP;
            case UUID -> left;
        };
    }

    /** The common type of all {@code types}, folded left to right. */
    public static SqlType commonType(List<SqlType> types) {
        if (types.isEmpty()) {
            throw new IllegalArgumentException("no types to combine");
        }
        SqlType common = types.getFirst();
        for (SqlType type : types.subList(1, types.size())) {
            common = commonType(common, type);
        }
        return common;
    }

    private static SqlType commonNumericType(SqlType left, SqlType right) {
        if (left instanceof SqlType.DoubleType || right instanceof SqlType.DoubleType) {
            return SqlType.DOUBLE;
        }
        if (left instanceof SqlType.DecimalType || right instanceof SqlType.DecimalType) {
            SqlType.DecimalType leftDecimal = asDecimal(left);
            SqlType.DecimalType rightDecimal = asDecimal(right);
            int scale = Math.max(leftDecimal.scale(), rightDecimal.scale());
            int integerDigits = Math.max(leftDecimal.precision() - leftDecimal.scale(),
                    rightDecimal.precision() - rightDecimal.scale());
            return cappedDecimal(integerDigits + scale, scale, scale);
        }
        return left instanceof SqlType.BigintType || right instanceof SqlType.BigintType ? SqlType.BIGINT : SqlType.INT;
    }

    /**
     * The default result type of {@code left operator right}: integers stay integers (BIGINT if
     * either is), DOUBLE if either is, and DECIMAL otherwise with SQL Server's precision and
     * scale rules, capped at 38 digits.
     */
    public static SqlType arithmeticType(ArithmeticOperator operator, SqlType left, SqlType right) {
        requireNumeric(left, operator);
        requireNumeric(right, operator);
        if (left instanceof SqlType.DoubleType || right instanceof SqlType.DoubleType) {
            return SqlType.DOUBLE;
        }
        if (isInteger(left) && isInteger(right)) {
            return left instanceof SqlType.BigintType || right instanceof SqlType.BigintType ? SqlType.BIGINT : SqlType.INT;
        }
        SqlType.DecimalType a = asDecimal(left);
        SqlType.DecimalType b = asDecimal(right);
        int p1 = a.precision();
        int s1 = a.scale();
        int p2 = b.precision();
        int s2 = b.scale();
        return switch (operator) {
            case ADD, SUBTRACT -> {
                int scale = Math.max(s1, s2);
                yield cappedDecimal(Math.max(p1 - s1, p2 - s2) + scale + 1, scale, scale);
            }
            case MULTIPLY -> cappedDecimal(p1 + p2, s1 + s2, Math.min(s1 + s2, MINIMUM_DIVISION_SCALE));
            case DIVIDE -> {
                int scale = Math.max(MINIMUM_DIVISION_SCALE, s1 + p2 + 1);
                yield cappedDecimal(p1 - s1 + s2 + scale, scale, Math.min(scale, MINIMUM_DIVISION_SCALE));
            }
            case MODULO -> {
                int scale = Math.max(s1, s2);
                yield cappedDecimal(Math.min(p1 - s1, p2 - s2) + scale, scale, scale);
            }
        };
    }

    /**
     * DECIMAL(precision, scale), or when precision exceeds 38 digits, DECIMAL(38, s) where s gives
     * up the excess digits but stays at least {@code minimumScale}.
     */
    private static SqlType cappedDecimal(int precision, int scale, int minimumScale) {
        if (precision <= MAX_DECIMAL_PRECISION) {
            return new SqlType.DecimalType(Math.max(precision, 1), scale);
        }
        int excess = precision - MAX_DECIMAL_PRECISION;
        int cappedScale = Math.max(Math.min(minimumScale, scale), scale - excess);
        return new SqlType.DecimalType(MAX_DECIMAL_PRECISION, Math.min(cappedScale, MAX_DECIMAL_PRECISION));
    }

    /**
     * Checks that {@code left operator right} may produce {@code result}: integer results from
     * integer operands, DECIMAL results from exact operands, DOUBLE from any numeric operands.
     */
    static void checkArithmetic(ArithmeticOperator operator, SqlType left, SqlType right, SqlType result) {
        requireNumeric(left, operator);
        requireNumeric(right, operator);
        boolean fits = switch (result) {
            case SqlType.IntegerType ignored -> isInteger(left) && isInteger(right);
            case SqlType.BigintType ignored -> isInteger(left) && isInteger(right);
            case SqlType.DecimalType ignored -> !(left instanceof SqlType.DoubleType) && !(right instanceof SqlType.DoubleType);
            case SqlType.DoubleType ignored -> true;
            default -> false;
        };
        if (!fits) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, left.sqlName() + " " + operator.symbol() + " "
                    + right.sqlName() + " cannot produce " + result.sqlName());
        }
    }

    private static void requireNumeric(SqlType type, ArithmeticOperator operator) {
        if (!isNumeric(type)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE,
                    "operator " + operator.symbol() + " needs numeric operands, got " + type.sqlName());
        }
    }

    /**
     * Whether CAST from {@code from} to {@code to} exists: within a family always; strings to and
     * from everything; BOOLEAN to and from INT and BIGINT; UUID to and from binary strings (its 16
     * bytes); nothing else across families.
     */
    public static boolean castable(SqlType from, SqlType to) {
        Family source = family(from);
        Family target = family(to);
        if (source == target || source == Family.STRING || target == Family.STRING) {
            return true;
        }
        if ((source == Family.UUID && target == Family.BINARY) || (source == Family.BINARY && target == Family.UUID)) {
            return true;
        }
        return (source == Family.BOOLEAN && isInteger(to)) || (target == Family.BOOLEAN && isInteger(from));
    }

    static ColumbaException wrongType(String expected, SqlType actual) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, "expected " + expected + ", got " + actual.sqlName());
    }
}
