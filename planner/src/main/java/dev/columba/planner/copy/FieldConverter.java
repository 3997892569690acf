package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.StoreAssignment;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Converts one CSV field, as UTF-8 bytes, to a value of one column by store assignment. The
 * common shapes are read straight from the bytes — whole numbers, plain decimals that fit their
 * column, {@code yyyy-mm-dd} dates, text that fits — without an intermediate String or regular
 * expression; anything else (signs, exponents, rounding, padding, a value that does not fit) goes
 * through {@link StoreAssignment#convert}, which is also where every error comes from, so a field
 * is accepted, converted and refused exactly as INSERT would. One per column and parsing thread
 * (the decoder is not thread-safe).
 */
final class FieldConverter {
    private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int power = 1; power < POWERS_OF_TEN.length; power++) {
            POWERS_OF_TEN[power] = POWERS_OF_TEN[power - 1] * 10;
        }
    }

    private enum Kind { INTEGER, BIGINT, DECIMAL, DATE, VARCHAR, OTHER }

    private final Column column;
    private final String table;
    private final Kind kind;
    private final int scale;
    private final int integerDigits;
    private final int maxLength;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    FieldConverter(Column column, String table) {
        this.column = column;
        this.table = table;
        this.kind = switch (column.type()) {
            case SqlType.IntegerType ignored -> Kind.INTEGER;
            case SqlType.BigintType ignored -> Kind.BIGINT;
            case SqlType.DecimalType decimal when decimal.precision() <= 18 -> Kind.DECIMAL;
            case SqlType.DateType ignored -> Kind.DATE;
            case SqlType.VarcharType ignored -> Kind.VARCHAR;
            default -> Kind.OTHER;
        };
        this.scale = column.type() instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
        this.integerDigits = column.type() instanceof SqlType.DecimalType decimal ? decimal.precision() - decimal.scale() : 0;
        this.maxLength = column.type() instanceof SqlType.VarcharType varchar ? varchar.maxLength() : 0;
    }

    /**
     * The value of {@code bytes[start, end)}, which holds only ASCII bytes if {@code ascii}.
     *
     * @throws ColumbaException as store assignment refuses the value (22001, 22003, 22018, ...), or
     *         INVALID_ARGUMENT for bytes that are not UTF-8
     */
    Object convert(byte[] bytes, int start, int end, boolean ascii) {
        Object fast = switch (kind) {
            case INTEGER -> {
                long value = wholeNumber(bytes, start, end);
                yield value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? (Object) (int) value : null;
            }
            case BIGINT -> {
                long value = wholeNumber(bytes, start, end);
                yield value == Long.MIN_VALUE ? null : (Object) value;
            }
            case DECIMAL -> decimal(bytes, start, end);
            case DATE -> date(bytes, start, end);
            case VARCHAR -> ascii && end - start <= maxLength ? latin1(bytes, start, end) : null;
            case OTHER -> null;
        };
        if (fast != null) {
            return fast;
        }
        return StoreAssignment.convert(text(bytes, start, end, ascii), TEXT, column, table);
    }

    /** The field as text (for the slow path and for header names). */
    String text(byte[] bytes, int start, int end, boolean ascii) {
        if (ascii) {
            return latin1(bytes, start, end);
        }
        try {
            return decoder.decode(ByteBuffer.wrap(bytes, start, end - start)).toString();
        } catch (CharacterCodingException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the field is not valid UTF-8 (" + e.getMessage()
                    + "); COPY reads files as UTF8");
        }
    }

    /** ASCII bytes as a String: ISO-8859-1 decodes them by copying (a compact string). */
    private static String latin1(byte[] bytes, int start, int end) {
        return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** {@code [-]digits} of at most 18 digits, else Long.MIN_VALUE (the slow path decides). */
    private static long wholeNumber(byte[] bytes, int start, int end) {
        int position = start;
        boolean negative = position < end && bytes[position] == '-';
        if (negative) {
            position++;
        }
        int digits = end - position;
        if (digits < 1 || digits > 18) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (; position < end; position++) {
            int digit = bytes[position] - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /** {@code [-]digits[.digits]} with at most the column's scale after the point and its integer digits before. */
    private BigDecimal decimal(byte[] bytes, int start, int end) {
        int position = start;
        boolean negative = position < end && bytes[position] == '-';
        if (negative) {
            position++;
        }
        long unscaled = 0;
        int before = 0;
        int after = -1;
        for (; position < end; position++) {
            byte b = bytes[position];
            if (b == '.' && after < 0) {
                after = 0;
                continue;
            }
            int digit = b - '0';
            if (digit < 0 || digit > 9) {
                return null;
            }
            unscaled = unscaled * 10 + digit;
            if (after >= 0) {
                after++;
            } else {
                before++;
            }
            if (before > integerDigits || after > scale) {
                return null;
            }
        }
        if (before == 0 && after <= 0) {
            return null;
        }
        int fraction = Math.max(after, 0);
        unscaled *= POWERS_OF_TEN[scale - fraction];
        return BigDecimal.valueOf(negative ? -unscaled : unscaled, scale);
    }

    /** {@code yyyy-mm-dd}, years 1 to 9999, a real date. */
    private static LocalDate date(byte[] bytes, int start, int end) {
        if (end - start != 10 || bytes[start + 4] != '-' || bytes[start + 7] != '-') {
            return null;
        }
        int year = digits(bytes, start, 4);
        int month = digits(bytes, start + 5, 2);
        int day = digits(bytes, start + 8, 2);
        if (year < 1 || month < 0 || day < 0) {
            return null;
        }
        try {
            return LocalDate.of(year, month, day);
        } catch (DateTimeException e) {
            return null;
        }
    }

    private static int digits(byte[] bytes, int start, int count) {
        int value = 0;
        for (int position = start; position < start + count; position++) {
            int digit = bytes[position] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
