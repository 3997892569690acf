package dev.columba.core.expr;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.DecimalVector;

/**
 * Arithmetic on the 128-bit two's-complement unscaled values of a {@link DecimalVector}, read and
 * written as two longs (low word first, little-endian) so loops allocate nothing. Kernels take a
 * long fast path when values fit in 64 bits and fall back to {@link BigDecimal} for the rest.
 */
final class Decimal128 {
    /** The largest precision whose every value fits in a long: |v| < 10^18 < 2^63. */
    static final int LONG_PRECISION = 18;
    /** {@code POWERS_OF_TEN[i] == 10^i} for i in 0..18. */
    static final long[] POWERS_OF_TEN = new long[19];
    /** High and low words of 10^i for i in 0..38, for precision checks on 128-bit values. */
    private static final long[] BOUND_HIGH = new long[39];
    private static final long[] BOUND_LOW = new long[39];

    static {
        long power = 1;
        for (int exponent = 0; exponent < POWERS_OF_TEN.length; exponent++) {
            POWERS_OF_TEN[exponent] = power;
            power *= 10;
        }
        BigInteger bound = BigInteger.ONE;
        for (int exponent = 0; exponent < BOUND_HIGH.length; exponent++) {
            BOUND_LOW[exponent] = bound.longValue();
            BOUND_HIGH[exponent] = bound.shiftRight(64).longValue();
            bound = bound.multiply(BigInteger.TEN);
        }
    }

    private Decimal128() {
    }

    static long low(ArrowBuf data, int row) {
        return data.getLong((long) row * DecimalVector.TYPE_WIDTH);
    }

    static long high(ArrowBuf data, int row) {
        return data.getLong((long) row * DecimalVector.TYPE_WIDTH + 8);
    }

    /** Whether the 128-bit value (high, low) is a sign-extended long. */
    static boolean fitsLong(long high, long low) {
        return high == (low >> 63);
    }

    static void write(ArrowBuf data, int row, long high, long low) {
        long offset = (long) row * DecimalVector.TYPE_WIDTH;
        data.setLong(offset, low);
        data.setLong(offset + 8, high);
    }

    static void writeLong(ArrowBuf data, int row, long value) {
        write(data, row, value >> 63, value);
    }

    static void write(ArrowBuf data, int row, BigInteger unscaled) {
        write(data, row, unscaled.shiftRight(64).longValue(), unscaled.longValue());
    }

    static BigInteger toBigInteger(long high, long low) {
        if (fitsLong(high, low)) {
            return BigInteger.valueOf(low);
        }
        return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
    }

    static BigDecimal toBigDecimal(long high, long low, int scale) {
        return fitsLong(high, low) ? BigDecimal.valueOf(low, scale) : new BigDecimal(toBigInteger(high, low), scale);
    }

    /** Whether |(high, low)| has more than {@code precision} digits, that is, is at least 10^precision. */
    static boolean exceedsPrecision(long high, long low, int precision) {
        if (high < 0) {
            if (high == Long.MIN_VALUE && low == 0) {
                return true;
            }
            long negatedLow = -low;
            high = low == 0 ? -high : ~high;
            low = negatedLow;
        }
        long boundHigh = BOUND_HIGH[precision];
        if (high != boundHigh) {
            return Long.compareUnsigned(high, boundHigh) > 0;
        }
        return Long.compareUnsigned(low, BOUND_LOW[precision]) >= 0;
    }

    /** Whether |value| has more than {@code precision} digits. */
    static boolean exceedsPrecision(long value, int precision) {
        if (precision >= 19) {
            return false;
        }
        return value >= POWERS_OF_TEN[precision] || value <= -POWERS_OF_TEN[precision];
    }

    /** Whether {@code value * 10^exponent} fits in a long. */
    static boolean scaleFits(long value, int exponent) {
        if (exponent >= POWERS_OF_TEN.length) {
            return value == 0;
        }
        long factor = POWERS_OF_TEN[exponent];
        return Math.multiplyHigh(value, factor) == ((value * factor) >> 63);
    }

    /** {@code value * 10^exponent}; only valid when {@link #scaleFits} says so. */
    static long scale(long value, int exponent) {
        return exponent >= POWERS_OF_TEN.length ? 0 : value * POWERS_OF_TEN[exponent];
    }

    /** {@code dividend / divisor} rounded half away from zero; the divisor is neither 0 nor Long.MIN_VALUE. */
    static long divideRoundHalfUp(long dividend, long divisor) {
        long quotient = dividend / divisor;
        long remainder = dividend % divisor;
        long absoluteRemainder = Math.abs(remainder);
        if (absoluteRemainder != 0 && absoluteRemainder >= Math.abs(divisor) - absoluteRemainder) {
            quotient += (dividend < 0) == (divisor < 0) ? 1 : -1;
        }
        return quotient;
    }
}
