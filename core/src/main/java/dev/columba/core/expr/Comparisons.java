package dev.columba.core.expr;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.UUID;

/**
 * SQL's order of non-NULL Java values, across the types of one family: exact numbers compare
 * exactly, a DOUBLE on either side makes it a comparison of doubles, strings compare by code
 * point (the order of their UTF-8 bytes), a DATE is its midnight when compared with a TIMESTAMP,
 * FALSE sorts before TRUE, binary strings and UUIDs compare as unsigned bytes. Among doubles, -0.0 equals 0.0 and NaN is greater than everything
 * else and equal to itself.
 */
public final class Comparisons {
    private Comparisons() {
    }

    /** Negative, zero or positive as {@code left} sorts before, with or after {@code right}; neither may be null. */
    public static int compare(Object left, Object right) {
        return switch (left) {
            case Boolean bool -> Boolean.compare(bool, (Boolean) right);
            case String text -> compareCodePoints(text, (String) right);
            case LocalDate date -> right instanceof LocalDate other
                    ? date.compareTo(other)
                    : date.atStartOfDay().compareTo((LocalDateTime) right);
            case LocalDateTime timestamp -> right instanceof LocalDate other
                    ? timestamp.compareTo(other.atStartOfDay())
                    : timestamp.compareTo((LocalDateTime) right);
            case Number number -> compareNumbers(number, (Number) right);
            case byte[] bytes -> Arrays.compareUnsigned(bytes, (byte[]) right);
            case UUID uuid -> compareUuids(uuid, (UUID) right);
            default -> throw new IllegalArgumentException("not a SQL value: " + left.getClass().getName());
        };
    }

    /** A UUID's order: its 16 bytes unsigned, most significant first (not {@link UUID#compareTo}, which is signed). */
    private static int compareUuids(UUID left, UUID right) {
        int high = Long.compareUnsigned(left.getMostSignificantBits(), right.getMostSignificantBits());
        return high != 0 ? high : Long.compareUnsigned(left.getLeastSignificantBits(), right.getLeastSignificantBits());
    }

    private static int compareNumbers(Number left, Number right) {
        if (left instanceof Double || right instanceof Double) {
            return compareDoubles(left.doubleValue(), toDouble(right));
        }
        if (!(left instanceof BigDecimal) && !(right instanceof BigDecimal)) {
            return Long.compare(left.longValue(), right.longValue());
        }
        return toDecimal(left).compareTo(toDecimal(right));
    }

    private static double toDouble(Number number) {
        return number.doubleValue();
    }

    private static BigDecimal toDecimal(Number number) {
        return number instanceof BigDecimal decimal ? decimal : BigDecimal.valueOf(number.longValue());
    }

    /** SQL order of doubles: -0.0 equals 0.0; NaN is the greatest value and equals itself. */
    public static int compareDoubles(double left, double right) {
        if (left < right) {
            return -1;
        }
        if (left > right) {
            return 1;
        }
        if (left == right) {
            return 0;
        }
        return Double.compare(left, right);
    }

    /** Compares by Unicode code point, which is the order of the strings' UTF-8 bytes. */
    public static int compareCodePoints(String left, String right) {
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
        return Integer.compare(left.length() - leftIndex, right.length() - rightIndex);
    }
}
