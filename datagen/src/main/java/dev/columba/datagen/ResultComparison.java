package dev.columba.datagen;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Compares a result with a reference answer, value by value: Columba's against the reference engine's
 * (integration-tests), Trino's through the connector against Columba's (trino). It lives beside the
 * generators whose data those answers are over, the one module both test suites depend on.
 *
 * <p>Rows: the same count; then, in the order of the reference, consecutive rows with equal
 * ORDER BY keys form a group, and the same positions of the actual result must hold the same
 * rows in any order (a multiset). A query without ORDER BY is one group. So the order is checked
 * exactly as far as the query fixes it, and no further.
 *
 * <p>Values: strings, dates and whole numbers exactly. Decimals are exact once the finer one is
 * seen at the coarser scale: the two may differ by no more than half a unit in the last place of
 * each (both are the exact result rounded to their scale, and engines choose different result
 * scales). Where either side is floating point, the difference may also reach a relative
 * {@value #RELATIVE_TOLERANCE} of the value.
 */
public final class ResultComparison {
    public static final double RELATIVE_TOLERANCE = 1e-9;

    private ResultComparison() {
    }

    /**
     * Null when the results agree, otherwise a description of the first difference.
     *
     * @param sortColumns the output columns of the query's ORDER BY, outermost first (empty without ORDER BY)
     */
    public static String difference(List<List<Object>> expected, List<List<Object>> actual, int[] sortColumns) {
        if (expected.size() != actual.size()) {
            return "expected " + expected.size() + " rows, got " + actual.size();
        }
        int groupStart = 0;
        while (groupStart < expected.size()) {
            int groupEnd = groupStart + 1;
            while (groupEnd < expected.size() && sameKeys(expected.get(groupStart), expected.get(groupEnd), sortColumns)) {
                groupEnd++;
            }
            String difference = multisetDifference(expected.subList(groupStart, groupEnd), actual.subList(groupStart, groupEnd),
                    groupStart);
            if (difference != null) {
                return difference;
            }
            groupStart = groupEnd;
        }
        return null;
    }

    private static boolean sameKeys(List<Object> left, List<Object> right, int[] sortColumns) {
        if (sortColumns.length == 0) {
            return true;
        }
        for (int column : sortColumns) {
            if (!Objects.equals(left.get(column), right.get(column))) {
                return false;
            }
        }
        return true;
    }

    /** Matches every expected row with a distinct equal actual row (groups are small: quadratic is fine). */
    private static String multisetDifference(List<List<Object>> expected, List<List<Object>> actual, int firstRow) {
        boolean[] matched = new boolean[actual.size()];
        for (int expectedIndex = 0; expectedIndex < expected.size(); expectedIndex++) {
            List<Object> row = expected.get(expectedIndex);
            boolean found = false;
            for (int actualIndex = 0; actualIndex < actual.size() && !found; actualIndex++) {
                if (!matched[actualIndex] && rowDifference(row, actual.get(actualIndex)) == null) {
                    matched[actualIndex] = true;
                    found = true;
                }
            }
            if (!found) {
                List<Object> positional = actual.get(expectedIndex);
                return "row " + (firstRow + expectedIndex) + ": expected " + row + " but no row of rows " + firstRow + ".."
                        + (firstRow + expected.size() - 1) + " matches; at that position " + positional + " ("
                        + rowDifference(row, positional) + ")";
            }
        }
        return null;
    }

    /** Null when the rows agree, otherwise which column differs. */
    public static String rowDifference(List<Object> expected, List<Object> actual) {
        if (expected.size() != actual.size()) {
            return "expected " + expected.size() + " columns, got " + actual.size();
        }
        for (int column = 0; column < expected.size(); column++) {
            if (!sameValue(expected.get(column), actual.get(column))) {
                return "column " + (column + 1) + ": expected " + describe(expected.get(column)) + ", got "
                        + describe(actual.get(column));
            }
        }
        return null;
    }

    private static String describe(Object value) {
        return value == null ? "NULL" : value + " (" + value.getClass().getSimpleName() + ")";
    }

    public static boolean sameValue(Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        if (expected instanceof Number expectedNumber && actual instanceof Number actualNumber) {
            return sameNumber(expectedNumber, actualNumber);
        }
        return normalize(expected).equals(normalize(actual));
    }

    private static Object normalize(Object value) {
        return switch (value) {
            case java.sql.Date date -> date.toLocalDate();
            case java.sql.Timestamp timestamp -> timestamp.toLocalDateTime();
            case LocalDate date -> date;
            case LocalDateTime timestamp -> timestamp;
            case Character character -> String.valueOf(character);
            default -> value;
        };
    }

    private static boolean sameNumber(Number expected, Number actual) {
        boolean approximate = isApproximate(expected) || isApproximate(actual);
        BigDecimal left = exact(expected);
        BigDecimal right = exact(actual);
        if (left == null || right == null) {
            return expected.doubleValue() == actual.doubleValue();
        }
        if (!approximate && (!isDecimal(expected) || !isDecimal(actual) || left.scale() == right.scale())) {
            // Whole numbers, or decimals rounded to the same scale: nothing may differ.
            return left.compareTo(right) == 0;
        }
        BigDecimal allowed = BigDecimal.ZERO;
        if (isDecimal(expected)) {
            allowed = allowed.add(halfUnit(left.scale()));
        }
        if (isDecimal(actual)) {
            allowed = allowed.add(halfUnit(right.scale()));
        }
        if (approximate) {
            allowed = allowed.add(left.abs().max(right.abs()).multiply(BigDecimal.valueOf(RELATIVE_TOLERANCE)));
        }
        return left.subtract(right).abs().compareTo(allowed) <= 0;
    }

    private static BigDecimal halfUnit(int scale) {
        return scale <= 0 ? BigDecimal.ZERO : BigDecimal.valueOf(5, scale + 1);
    }

    private static boolean isApproximate(Number number) {
        return number instanceof Double || number instanceof Float;
    }

    private static boolean isDecimal(Number number) {
        return number instanceof BigDecimal;
    }

    /** The number as an exact decimal; null for NaN and infinities. */
    private static BigDecimal exact(Number number) {
        return switch (number) {
            case BigDecimal decimal -> decimal;
            case BigInteger integer -> new BigDecimal(integer);
            case Double value -> Double.isFinite(value) ? new BigDecimal(value) : null;
            case Float value -> Float.isFinite(value) ? new BigDecimal(value) : null;
            default -> BigDecimal.valueOf(number.longValue());
        };
    }
}
