package dev.columba.core.expr;

import dev.columba.core.batch.Batch;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The vectorized casts: between numeric types, between DATE and TIMESTAMP, between BOOLEAN and
 * integers, and between string types. Casts to and from strings of other types (formatting and
 * parsing) run row by row through {@link Casts}. Each conversion here rounds and fails exactly
 * as {@link Casts} does.
 */
final class CastKernel extends Kernel {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /** Doubles below 2^63 in magnitude round to a long without saturating. */
    private static final double LONG_RANGE = 0x1p63;
    /** Unscaled values up to 2^53 convert to double exactly, as do powers of ten up to 10^22. */
    private static final long EXACT_DOUBLE_INTEGER = 1L << 53;
    private static final double[] EXACT_POWERS_OF_TEN = new double[23];

    static {
        double power = 1;
        for (int exponent = 0; exponent < EXACT_POWERS_OF_TEN.length; exponent++) {
            EXACT_POWERS_OF_TEN[exponent] = power;
            power *= 10;
        }
    }

    /** The conversions this kernel does; anything else has no kernel. */
    private enum Conversion {
        INTEGER_TO_INTEGER, INTEGER_TO_DOUBLE, INTEGER_TO_DECIMAL, INTEGER_TO_BOOLEAN, BOOLEAN_TO_INTEGER,
        DECIMAL_TO_DECIMAL, DECIMAL_TO_DOUBLE, DECIMAL_TO_INTEGER, DOUBLE_TO_INTEGER,
        DATE_TO_TIMESTAMP, TIMESTAMP_TO_DATE, STRING_TO_STRING
    }

    private final Conversion conversion;
    private final SqlType from;
    private final int sourceScale;
    private final byte[] padding;
    private byte[] scratch = new byte[64];

    private CastKernel(Kernel operand, SqlType type, Conversion conversion, BufferAllocator allocator) {
        super(type, List.of(operand), allocator);
        this.conversion = conversion;
        this.from = operand.type;
        this.sourceScale = from instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
        this.padding = type instanceof SqlType.CharType character ? new byte[character.length()] : new byte[0];
        Arrays.fill(padding, (byte) ' ');
    }

    /** A kernel casting {@code operand} to {@code type}, or null when this cast runs row by row. */
    static Kernel create(Kernel operand, SqlType type, BufferAllocator allocator) {
        Conversion conversion = conversionOf(operand.type, type);
        return conversion == null ? null : new CastKernel(operand, type, conversion, allocator);
    }

    /**
     * Whether a cast needs no work at all: same type, or a string (a binary string) into a
     * VARCHAR (a VARBINARY) at least as long, which does not pad.
     */
    static boolean isIdentity(SqlType from, SqlType to) {
        if (from.equals(to)) {
            return true;
        }
        if (to instanceof SqlType.VarbinaryType varbinary && TypeRules.isBinary(from)) {
            return TypeRules.maxLength(from) <= varbinary.maxLength();
        }
        return to instanceof SqlType.VarcharType varchar && TypeRules.isString(from)
                && TypeRules.maxLength(from) <= varchar.maxLength();
    }

    private static Conversion conversionOf(SqlType from, SqlType to) {
        boolean fromInteger = TypeRules.isInteger(from);
        boolean toInteger = TypeRules.isInteger(to);
        if (fromInteger && toInteger) {
            return Conversion.INTEGER_TO_INTEGER;
        }
        if (fromInteger) {
            return switch (to) {
                case SqlType.DoubleType ignored -> Conversion.INTEGER_TO_DOUBLE;
                case SqlType.DecimalType ignored -> Conversion.INTEGER_TO_DECIMAL;
                case SqlType.BooleanType ignored -> Conversion.INTEGER_TO_BOOLEAN;
                default -> null;
            };
        }
        if (from instanceof SqlType.BooleanType && toInteger) {
            return Conversion.BOOLEAN_TO_INTEGER;
        }
        if (from instanceof SqlType.DecimalType) {
            return switch (to) {
                case SqlType.DecimalType ignored -> Conversion.DECIMAL_TO_DECIMAL;
                case SqlType.DoubleType ignored -> Conversion.DECIMAL_TO_DOUBLE;
                default -> toInteger ? Conversion.DECIMAL_TO_INTEGER : null;
            };
        }
        if (from instanceof SqlType.DoubleType && toInteger) {
            return Conversion.DOUBLE_TO_INTEGER;
        }
        if (from instanceof SqlType.DateType && to instanceof SqlType.TimestampType) {
            return Conversion.DATE_TO_TIMESTAMP;
        }
        if (from instanceof SqlType.TimestampType && to instanceof SqlType.DateType) {
            return Conversion.TIMESTAMP_TO_DATE;
        }
        if (TypeRules.isString(from) && TypeRules.isString(to)) {
            return Conversion.STRING_TO_STRING;
        }
        return null;
    }

    @Override
    FieldVector evaluate(Batch input, Rows rows) {
        FieldVector values = children.getFirst().evaluate(input, rows);
        FieldVector out = output(input.rowCount());
        ArrowBuf data = values.getDataBuffer();
        ArrowBuf validity = values.getValidityBuffer();
        ArrowBuf outData = out.getDataBuffer();
        ArrowBuf outValidity = out.getValidityBuffer();
        for (int index = 0; index < rows.count; index++) {
            int row = rows.positions[index];
            if (!Bits.get(validity, row)) {
                out.setNull(row);
                continue;
            }
            switch (conversion) {
                case INTEGER_TO_INTEGER -> writeInteger(outData, row, readInteger(data, row));
                case INTEGER_TO_DOUBLE -> outData.setDouble((long) row * 8, (double) readInteger(data, row));
                case INTEGER_TO_DECIMAL -> integerToDecimal(outData, row, readInteger(data, row));
                case INTEGER_TO_BOOLEAN -> Bits.set(outData, row, readInteger(data, row) != 0);
                case BOOLEAN_TO_INTEGER -> writeInteger(outData, row, Bits.get(data, row) ? 1 : 0);
                case DECIMAL_TO_DECIMAL -> decimalToDecimal(data, outData, row);
                case DECIMAL_TO_DOUBLE -> outData.setDouble((long) row * 8, decimalToDouble(data, row));
                case DECIMAL_TO_INTEGER -> writeInteger(outData, row, decimalToInteger(data, row));
                case DOUBLE_TO_INTEGER -> writeInteger(outData, row, doubleToInteger(data.getDouble((long) row * 8)));
                case DATE_TO_TIMESTAMP -> outData.setLong((long) row * 8, data.getInt((long) row * 4) * MICROS_PER_DAY);
                case TIMESTAMP_TO_DATE -> outData.setInt((long) row * 4,
                        (int) Math.floorDiv(data.getLong((long) row * 8), MICROS_PER_DAY));
                case STRING_TO_STRING -> {
                    castString((VarCharVector) values, (VarCharVector) out, row);
                    continue;
                }
            }
            Bits.set(outValidity, row, true);
        }
        return finish(out, input.rowCount());
    }

    private long readInteger(ArrowBuf data, int row) {
        return from instanceof SqlType.IntegerType ? data.getInt((long) row * 4) : data.getLong((long) row * 8);
    }

    private void writeInteger(ArrowBuf outData, int row, long value) {
        if (type instanceof SqlType.IntegerType) {
            if (value != (int) value) {
                throw Casts.outOfRange(value, type);
            }
            outData.setInt((long) row * 4, (int) value);
        } else {
            outData.setLong((long) row * 8, value);
        }
    }

    private void integerToDecimal(ArrowBuf outData, int row, long value) {
        SqlType.DecimalType decimal = (SqlType.DecimalType) type;
        int scale = decimal.scale();
        if (scale < Decimal128.POWERS_OF_TEN.length) {
            long factor = Decimal128.POWERS_OF_TEN[scale];
            long high = Math.multiplyHigh(value, factor);
            long low = value * factor;
            if (Decimal128.exceedsPrecision(high, low, decimal.precision())) {
                throw Casts.outOfRange(value, type);
            }
            Decimal128.write(outData, row, high, low);
        } else {
            Decimal128.write(outData, row, Casts.fitDecimal(BigDecimal.valueOf(value), decimal, value).unscaledValue());
        }
    }

    private void decimalToDecimal(ArrowBuf data, ArrowBuf outData, int row) {
        SqlType.DecimalType decimal = (SqlType.DecimalType) type;
        long high = Decimal128.high(data, row);
        long low = Decimal128.low(data, row);
        int targetScale = decimal.scale();
        if (Decimal128.fitsLong(high, low)) {
            long result;
            boolean done = true;
            if (targetScale >= sourceScale) {
                done = Decimal128.scaleFits(low, targetScale - sourceScale);
                result = done ? Decimal128.scale(low, targetScale - sourceScale) : 0;
            } else if (sourceScale - targetScale < Decimal128.POWERS_OF_TEN.length) {
                result = Decimal128.divideRoundHalfUp(low, Decimal128.POWERS_OF_TEN[sourceScale - targetScale]);
            } else {
                result = 0;
            }
            if (done) {
                if (Decimal128.exceedsPrecision(result, decimal.precision())) {
                    throw Casts.outOfRange(BigDecimal.valueOf(low, sourceScale), type);
                }
                Decimal128.writeLong(outData, row, result);
                return;
            }
        }
        BigDecimal value = Decimal128.toBigDecimal(high, low, sourceScale);
        Decimal128.write(outData, row, Casts.fitDecimal(value, decimal, value).unscaledValue());
    }

    private double decimalToDouble(ArrowBuf data, int row) {
        long high = Decimal128.high(data, row);
        long low = Decimal128.low(data, row);
        if (Decimal128.fitsLong(high, low) && low >= -EXACT_DOUBLE_INTEGER && low <= EXACT_DOUBLE_INTEGER
                && sourceScale < EXACT_POWERS_OF_TEN.length) {
            // Both operands are exact doubles, so the one rounding of the division is the correct one.
            return (double) low / EXACT_POWERS_OF_TEN[sourceScale];
        }
        return Decimal128.toBigDecimal(high, low, sourceScale).doubleValue();
    }

    private long decimalToInteger(ArrowBuf data, int row) {
        long high = Decimal128.high(data, row);
        long low = Decimal128.low(data, row);
        if (Decimal128.fitsLong(high, low) && sourceScale < Decimal128.POWERS_OF_TEN.length) {
            return Decimal128.divideRoundHalfUp(low, Decimal128.POWERS_OF_TEN[sourceScale]);
        }
        return ((Number) Casts.cast(Decimal128.toBigDecimal(high, low, sourceScale), from, SqlType.BIGINT)).longValue();
    }

    private long doubleToInteger(double value) {
        if (value == -LONG_RANGE && type instanceof SqlType.BigintType) {
            return Long.MIN_VALUE;
        }
        if (!(Math.abs(value) < LONG_RANGE)) {
            throw Casts.outOfRange(value, type);
        }
        long magnitude = Math.round(Math.abs(value));
        return value < 0 ? -magnitude : magnitude;
    }

    /** Truncates to the target length in characters (UTF-8 lead bytes) and blank-pads a CHAR. */
    private void castString(VarCharVector values, VarCharVector out, int row) {
        ArrowBuf offsets = values.getOffsetBuffer();
        ArrowBuf data = values.getDataBuffer();
        int start = offsets.getInt((long) row * 4);
        int end = offsets.getInt((long) (row + 1) * 4);
        int limit = TypeRules.maxLength(type);
        int characters = 0;
        int cut = start;
        while (cut < end && characters < limit) {
            cut += Utf8.sequenceLength(data.getByte(cut));
            characters++;
        }
        cut = Math.min(cut, end);
        int length = cut - start;
        int pad = padding.length > characters ? padding.length - characters : 0;
        if (pad == 0) {
            out.setSafe(row, start, length, data);
            return;
        }
        if (scratch.length < length + pad) {
            scratch = new byte[Math.max(length + pad, scratch.length * 2)];
        }
        data.getBytes(start, scratch, 0, length);
        System.arraycopy(padding, 0, scratch, length, pad);
        out.setSafe(row, scratch, 0, length + pad);
    }
}
