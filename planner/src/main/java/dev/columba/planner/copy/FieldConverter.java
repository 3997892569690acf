package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.StoreAssignment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;

/**
 * Converts one CSV field, as UTF-8 bytes, to a value of one column by store assignment, written
 * into the column of a {@link ColumnBatch}. The common shapes are read straight from the bytes
 * into the batch's primitive arrays — whole numbers, plain decimals that fit their column (as their
 * unscaled value), {@code yyyy-mm-dd} dates (as days since the epoch), ASCII text that fits (its
 * bytes as they are) — without an intermediate String, boxed value or regular expression; anything
 * else (signs, exponents, rounding, padding, a value that does not fit) goes through
 * {@link StoreAssignment#convert}, which is also where every error comes from, so a field is
 * accepted, converted and refused exactly as INSERT would. One per column and parsing thread
 * (the decoder is not thread-safe).
 */
final class FieldConverter {
    private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);
    private static final long[] POWERS_OF_TEN = new long[19];
    /** Days from 0000-01-01 (proleptic) to 1970-01-01, as {@link LocalDate#toEpochDay} counts them. */
    private static final long DAYS_0000_TO_1970 = 719_528;
    /** Not a value of the fast paths: the field goes through store assignment. */
    private static final long NO_VALUE = Long.MIN_VALUE;

    static {
        POWERS_OF_TEN[0] = 1;
        for (int power = 1; power < POWERS_OF_TEN.length; power++) {
            POWERS_OF_TEN[power] = POWERS_OF_TEN[power - 1] * 10;
        }
    }

    private enum Kind { INTEGER, BIGINT, DECIMAL, DATE, VARCHAR, CHAR, OTHER }

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
            case SqlType.CharType ignored -> Kind.CHAR;
            default -> Kind.OTHER;
        };
        this.scale = column.type() instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
        this.integerDigits = column.type() instanceof SqlType.DecimalType decimal ? decimal.precision() - decimal.scale() : 0;
        this.maxLength = switch (column.type()) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            default -> 0;
        };
    }

    /**
     * Writes the value of {@code bytes[start, end)}, which holds only ASCII bytes if {@code ascii},
     * as column {@code target} of {@code batch}'s row being written.
     *
     * @throws ColumbaException as store assignment refuses the value (22001, 22003, 22018, ...), or
     *         INVALID_ARGUMENT for bytes that are not UTF-8
     */
    void convertInto(ColumnBatch batch, int target, byte[] bytes, int start, int end, boolean ascii) {
        switch (kind) {
            case INTEGER -> {
                long value = wholeNumber(bytes, start, end);
                if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
                    batch.setLong(target, value);
                    return;
                }
            }
            case BIGINT -> {
                long value = wholeNumber(bytes, start, end);
                if (value != NO_VALUE) {
                    batch.setLong(target, value);
                    return;
                }
            }
            case DECIMAL -> {
                long unscaled = unscaledDecimal(bytes, start, end);
                if (unscaled != NO_VALUE) {
                    batch.setLong(target, unscaled);
                    return;
                }
            }
            case DATE -> {
                long days = epochDay(bytes, start, end);
                if (days != NO_VALUE) {
                    batch.setLong(target, days);
                    return;
                }
            }
            case VARCHAR -> {
                if (ascii && end - start <= maxLength) {
                    batch.setBytes(target, bytes, start, end);
                    return;
                }
            }
            case CHAR -> {
                // Exactly the length: store assignment would neither pad nor refuse it.
                if (ascii && end - start == maxLength) {
                    batch.setBytes(target, bytes, start, end);
                    return;
                }
            }
            case OTHER -> {
            }
        }
        batch.setValue(target, StoreAssignment.convert(text(bytes, start, end, ascii), TEXT, column, table));
    }

    /**
     * The one-pass conversion of {@link CsvBlockParser}'s plain records: converts the unquoted field
     * at {@code position}, which runs to the first delimiter or line break, into column
     * {@code target} of {@code batch}'s row being written when it has one of the shapes
     * {@link #convertInto} reads straight from the bytes (other types: ASCII text that store
     * assignment accepts), and returns where it stops; returns -1
     * (having written nothing, or a value the general path overwrites) for anything else, which
     * then goes the general way — the same conversions, so the same values, and every error.
     */
    int convertUnquoted(ColumnBatch batch, int target, byte[] data, int position, int end, byte delimiter,
                        long delimiterPattern) {
        // One small method per shape, so that the JIT inlines this dispatch and each shape's loop.
        return switch (kind) {
            case INTEGER, BIGINT -> wholeNumberField(batch, target, data, position, end);
            case DECIMAL -> decimalField(batch, target, data, position, end);
            case DATE -> dateField(batch, target, data, position, end);
            case VARCHAR, CHAR -> textField(batch, target, data, position, end, delimiter, delimiterPattern);
            case OTHER -> otherField(batch, target, data, position, end, delimiter, delimiterPattern);
        };
    }

    /** {@code [-]digits} (at most 18, within INT for an INT column) up to the first other byte, as {@link #wholeNumber}. */
    private int wholeNumberField(ColumnBatch batch, int target, byte[] data, int position, int end) {
        int stop = position;
        boolean negative = stop < end && data[stop] == '-';
        if (negative) {
            stop++;
        }
        int digitsStart = stop;
        long value = 0;
        while (stop < end) {
            int digit = data[stop] - '0';
            if (notDigit(digit)) {
                break;
            }
            value = value * 10 + digit;
            stop++;
        }
        int digits = stop - digitsStart;
        if (digits < 1 || digits > 18) {
            return -1;
        }
        if (negative) {
            value = -value;
        }
        if (kind == Kind.INTEGER && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            return -1;
        }
        batch.setLong(target, value);
        return stop;
    }

    /** {@code [-]digits[.digits]} up to the first other byte (a second point included), as {@link #unscaledDecimal}. */
    private int decimalField(ColumnBatch batch, int target, byte[] data, int position, int end) {
        int stop = position;
        boolean negative = stop < end && data[stop] == '-';
        if (negative) {
            stop++;
        }
        long unscaled = 0;
        int before = 0;
        int after = -1;
        for (; stop < end; stop++) {
            byte b = data[stop];
            if (b == '.' && after < 0) {
                after = 0;
                continue;
            }
            int digit = b - '0';
            if (notDigit(digit)) {
                break;
            }
            unscaled = unscaled * 10 + digit;
            if (after >= 0) {
                after++;
            } else {
                before++;
            }
            if (before > integerDigits || after > scale) {
                return -1;
            }
        }
        if (before == 0 && after <= 0) {
            return -1;
        }
        unscaled *= POWERS_OF_TEN[scale - Math.max(after, 0)];
        batch.setLong(target, negative ? -unscaled : unscaled);
        return stop;
    }

    private int dateField(ColumnBatch batch, int target, byte[] data, int position, int end) {
        int stop = position + 10;
        long days = stop < end ? epochDay(data, position, stop) : NO_VALUE;
        if (days == NO_VALUE) {
            return -1;
        }
        batch.setLong(target, days);
        return stop;
    }

    private int textField(ColumnBatch batch, int target, byte[] data, int position, int end, byte delimiter,
                          long delimiterPattern) {
        int stop = CsvBlockParser.scanUnquoted(data, position, end, delimiter, delimiterPattern);
        int length = stop - position;
        if (stop < 0 || (kind == Kind.CHAR ? length != maxLength : length > maxLength)) {
            return -1;
        }
        batch.setBytes(target, data, position, stop);
        return stop;
    }

    /**
     * No shape of its own: the field's text through store assignment, as the general path converts
     * it; a value it refuses is left to the general path, which reports it.
     */
    private int otherField(ColumnBatch batch, int target, byte[] data, int position, int end, byte delimiter,
                           long delimiterPattern) {
        int stop = CsvBlockParser.scanUnquoted(data, position, end, delimiter, delimiterPattern);
        if (stop < 0) {
            return -1;
        }
        try {
            convertInto(batch, target, data, position, stop, true);
        } catch (ColumbaException refused) {
            return -1;
        }
        return stop;
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

    /** {@code [-]digits} of at most 18 digits, else {@link #NO_VALUE} (the slow path decides). */
    private static long wholeNumber(byte[] bytes, int start, int end) {
        int position = start;
        boolean negative = position < end && bytes[position] == '-';
        if (negative) {
            position++;
        }
        int digits = end - position;
        if (digits < 1 || digits > 18) {
            return NO_VALUE;
        }
        long value = 0;
        for (; position < end; position++) {
            int digit = bytes[position] - '0';
            if (digit < 0 || digit > 9) {
                return NO_VALUE;
            }
            value = value * 10 + digit;
        }
        return negative ? -value : value;
    }

    /**
     * The unscaled value at the column's scale of {@code [-]digits[.digits]} with at most the
     * column's scale after the point and its integer digits before, else {@link #NO_VALUE}.
     */
    private long unscaledDecimal(byte[] bytes, int start, int end) {
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
                return NO_VALUE;
            }
            unscaled = unscaled * 10 + digit;
            if (after >= 0) {
                after++;
            } else {
                before++;
            }
            if (before > integerDigits || after > scale) {
                return NO_VALUE;
            }
        }
        if (before == 0 && after <= 0) {
            return NO_VALUE;
        }
        int fraction = Math.max(after, 0);
        unscaled *= POWERS_OF_TEN[scale - fraction];
        return negative ? -unscaled : unscaled;
    }

    /**
     * Days since 1970-01-01 of {@code yyyy-mm-dd}, years 1 to 9999, a real date (the day within
     * its month), counted as {@link LocalDate#toEpochDay} counts; else {@link #NO_VALUE}.
     */
    static long epochDay(byte[] bytes, int start, int end) {
        if (end - start != 10 || bytes[start + 4] != '-' || bytes[start + 7] != '-') {
            return NO_VALUE;
        }
        int y0 = bytes[start] - '0';
        int y1 = bytes[start + 1] - '0';
        int y2 = bytes[start + 2] - '0';
        int y3 = bytes[start + 3] - '0';
        int m0 = bytes[start + 5] - '0';
        int m1 = bytes[start + 6] - '0';
        int d0 = bytes[start + 8] - '0';
        int d1 = bytes[start + 9] - '0';
        if (notDigit(y0) | notDigit(y1) | notDigit(y2) | notDigit(y3) | notDigit(m0) | notDigit(m1) | notDigit(d0)
                | notDigit(d1)) {
            return NO_VALUE;
        }
        int year = ((y0 * 10 + y1) * 10 + y2) * 10 + y3;
        int month = m0 * 10 + m1;
        int day = d0 * 10 + d1;
        if (year < 1 || month < 1 || month > 12 || day < 1 || day > monthLength(year, month)) {
            return NO_VALUE;
        }
        long total = 365L * year + (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400
                + (367L * month - 362) / 12 + day - 1;
        if (month > 2) {
            total -= isLeap(year) ? 1 : 2;
        }
        return total - DAYS_0000_TO_1970;
    }

    private static boolean isLeap(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    private static int monthLength(int year, int month) {
        return switch (month) {
            case 2 -> isLeap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** A byte minus {@code '0'} that is no digit: unsigned, so bytes below {@code '0'} count too. */
    private static boolean notDigit(int value) {
        return Integer.compareUnsigned(value, 9) > 0;
    }
}
