package dev.columba.columnstore.encoding;

import java.math.BigInteger;

/**
 * An exact sum of longs, for totals computed straight from a segment's encoded values
 * ({@link SegmentReader#sumValues}): a 64-bit running sum that spills into a 128-bit part when an
 * addition would overflow, so the common case is one add and one sign test a value. 128 bits hold
 * the sum of 2^64 longs, more than a scan ever adds. Not thread-safe: one per scan.
 */
public final class ExactTotal {
    private long running;
    private long high;
    private long low;

    /** Adds {@code value}. */
    public void add(long value) {
        long sum = running;
        long result = sum + value;
        if (((sum ^ result) & (value ^ result)) < 0) {
            addWide(sum >> 63, sum);
            result = value;
        }
        running = result;
    }

    /** Adds {@code value * times} exactly (a run of {@code times} equal values). */
    public void addTimes(long value, long times) {
        long productLow = value * times;
        long productHigh = Math.multiplyHigh(value, times);
        if (productHigh == (productLow >> 63)) {
            add(productLow);
        } else {
            addWide(productHigh, productLow);
        }
    }

    /** Adds another total. */
    public void add(ExactTotal other) {
        add(other.running);
        addWide(other.high, other.low);
    }

    private void addWide(long valueHigh, long valueLow) {
        long sumLow = low + valueLow;
        long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
        high = high + valueHigh + carry;
        low = sumLow;
    }

    /** The total. */
    public BigInteger value() {
        BigInteger wide = BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
        return wide.add(BigInteger.valueOf(running));
    }
}
