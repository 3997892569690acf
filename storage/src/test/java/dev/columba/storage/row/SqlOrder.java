package dev.columba.storage.row;

import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The SQL order of values and keys, computed on the Java values: the reference the key encoding's
 * byte order must agree with. NULL first; DOUBLE with -0.0 equal to 0.0 and NaN largest; strings
 * by code point (not by UTF-16 unit, as {@link String#compareTo} would); CHAR with its padding.
 */
final class SqlOrder {
    private SqlOrder() {
    }

    static int compareKeys(List<SqlType> types, Object[] left, Object[] right) {
        for (int columnIndex = 0; columnIndex < types.size(); columnIndex++) {
            int order = compare(types.get(columnIndex), left[columnIndex], right[columnIndex]);
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /** Compares two values of {@code type}, either possibly NULL and not necessarily canonical. */
    static int compare(SqlType type, Object left, Object right) {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        Object canonicalLeft = Values.canonical(type, left);
        Object canonicalRight = Values.canonical(type, right);
        return switch (type) {
            case SqlType.BooleanType ignored -> Boolean.compare((Boolean) canonicalLeft, (Boolean) canonicalRight);
            case SqlType.IntegerType ignored -> Integer.compare((Integer) canonicalLeft, (Integer) canonicalRight);
            case SqlType.BigintType ignored -> Long.compare((Long) canonicalLeft, (Long) canonicalRight);
            case SqlType.DoubleType ignored -> Double.compare(withoutNegativeZero((Double) canonicalLeft),
                    withoutNegativeZero((Double) canonicalRight));
            case SqlType.DecimalType ignored -> ((BigDecimal) canonicalLeft).compareTo((BigDecimal) canonicalRight);
            case SqlType.VarcharType ignored -> compareCodePoints((String) canonicalLeft, (String) canonicalRight);
            case SqlType.CharType ignored -> compareCodePoints((String) canonicalLeft, (String) canonicalRight);
            case SqlType.DateType ignored -> ((LocalDate) canonicalLeft).compareTo((LocalDate) canonicalRight);
            case SqlType.TimestampType ignored -> ((LocalDateTime) canonicalLeft).compareTo((LocalDateTime) canonicalRight);
            case SqlType.VarbinaryType ignored -> java.util.Arrays.compareUnsigned((byte[]) canonicalLeft, (byte[]) canonicalRight);
            case SqlType.BinaryType ignored -> java.util.Arrays.compareUnsigned((byte[]) canonicalLeft, (byte[]) canonicalRight);
            case SqlType.UuidType ignored -> java.util.Arrays.compareUnsigned(Values.uuidToBytes((java.util.UUID) canonicalLeft),
                    Values.uuidToBytes((java.util.UUID) canonicalRight));
        };
    }

    /** The value a key decodes to: canonical, with -0.0 as 0.0 (NaN is already one value to equals). */
    static Object keyCanonical(SqlType type, Object value) {
        if (value == null) {
            return null;
        }
        Object canonical = Values.canonical(type, value);
        return canonical instanceof Double number && number == 0.0 ? 0.0 : canonical;
    }

    private static double withoutNegativeZero(double value) {
        return value == 0.0 ? 0.0 : value;
    }

    private static int compareCodePoints(String left, String right) {
        int leftIndex = 0;
        int rightIndex = 0;
        while (leftIndex < left.length() && rightIndex < right.length()) {
            int leftCodePoint = left.codePointAt(leftIndex);
            int rightCodePoint = right.codePointAt(rightIndex);
            if (leftCodePoint != rightCodePoint) {
                return Integer.compare(leftCodePoint, rightCodePoint);
            }
            leftIndex += Character.charCount(leftCodePoint);
            rightIndex += Character.charCount(rightCodePoint);
        }
        return Boolean.compare(leftIndex < left.length(), rightIndex < right.length());
    }
}
