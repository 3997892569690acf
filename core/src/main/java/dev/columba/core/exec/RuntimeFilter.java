package dev.columba.core.exec;

import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * A bitmap filter, as SQL Server's batch mode calls it (a dynamic filter elsewhere): the set of
 * key values a hash join's build side holds, handed to a scan on the probe side so that rows
 * whose key cannot find a partner are dropped before they are decoded further, joined to other
 * tables and probed. Whole-number keys only (INT, BIGINT, DATE): a bit per value between the
 * build side's smallest and largest key.
 *
 * <p>Until the join publishes its keys the filter passes every row, so a probe side that starts
 * early (a parallel fragment's workers) loses nothing. A build side whose keys span more than
 * {@link #MAX_BITS} values leaves the filter passing everything. Keys that fill their span are
 * still worth a test: every value outside it is dropped (two nation keys of twenty-five). The
 * test costs a bit lookup a row. Publishing happens once; any thread may test rows afterwards.
 */
public final class RuntimeFilter implements java.util.function.LongPredicate {
    /** The widest key span a bitmap covers (16 MiB of bits). */
    static final long MAX_BITS = 1L << 27;

    private final String name;
    private volatile long[] bits;
    private volatile long min;
    private volatile boolean published;
    private volatile boolean useful;

    public RuntimeFilter(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Whether the filter drops rows now (published, and worth testing). */
    public boolean active() {
        return useful;
    }

    /** Whether the join has published its keys (whatever they made of the filter). */
    public boolean published() {
        return published;
    }

    /**
     * Publishes the build side's keys: the first {@code count} values of {@code keys}, whole numbers
     * in a 4- or 8-byte layout, NULLs skipped (they never match).
     */
    public void publish(FieldVector keys, int count, boolean wide) {
        ArrowBuf data = keys.getDataBuffer();
        ArrowBuf validity = keys.getValidityBuffer();
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (int index = 0; index < count; index++) {
            if (BitVectorHelper.get(validity, index) == 0) {
                continue;
            }
            long value = wide ? data.getLong((long) index * 8) : data.getInt((long) index * 4);
            low = Math.min(low, value);
            high = Math.max(high, value);
        }
        if (low > high) {
            publishBits(new long[1], 0);
            return;
        }
        long[] set = bitsFor(low, high);
        if (set != null) {
            for (int index = 0; index < count; index++) {
                if (BitVectorHelper.get(validity, index) != 0) {
                    long offset = (wide ? data.getLong((long) index * 8) : data.getInt((long) index * 4)) - low;
                    set[(int) (offset >>> 6)] |= 1L << offset;
                }
            }
        }
        publishBits(set, low);
    }

    /**
     * Publishes the build side's keys when their span is known: the first {@code count} values of
     * {@code keys}, none NULL, each within {@code [low, high]} (a hash join's table, whose keys
     * the build's sizing went through already). One pass, by address: a shared build's last step,
     * on one thread while the other workers wait.
     */
    public void publishWithin(FieldVector keys, int count, boolean wide, long low, long high) {
        if (count == 0) {
            publishBits(new long[1], 0);
            return;
        }
        long[] set = bitsFor(low, high);
        if (set != null) {
            ArrowBuf data = keys.getDataBuffer();
            Objects.checkFromIndexSize(0, (long) count * (wide ? 8 : 4), data.capacity());
            long address = data.memoryAddress();
            for (int index = 0; index < count; index++) {
                long offset = (wide ? MemoryUtil.getLong(address + 8L * index) : MemoryUtil.getInt(address + 4L * index)) - low;
                set[(int) (offset >>> 6)] |= 1L << offset;
            }
        }
        publishBits(set, low);
    }

    /** An empty bitmap over the values {@code [low, high]}, or null when that span is too wide to be worth one. */
    private static long[] bitsFor(long low, long high) {
        long span = high - low + 1;
        return span > 0 && span <= MAX_BITS ? new long[(int) ((span + 63) >>> 6)] : null;
    }

    /** Publishes {@code set} (a bit per value from {@code low}), or a filter that passes everything when null. */
    private void publishBits(long[] set, long low) {
        if (set != null) {
            min = low;
            bits = set;
        }
        useful = set != null;
        published = true;
    }

    /**
     * Whether a row with key {@code value} may find a partner: for a caller that tests one value
     * for many rows (a run of a run-length segment). Only once the filter is {@linkplain #active
     * active}.
     */
    @Override
    public boolean test(long value) {
        long[] set = bits;
        long offset = value - min;
        return offset >= 0 && offset < ((long) set.length << 6) && (set[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }

    /**
     * Keeps, of the live rows {@code rows[0, count)}, those whose {@code column} value may find a
     * partner: writes them to {@code kept} and returns how many. NULLs are dropped.
     */
    int filter(FieldVector column, boolean wide, int[] rows, int count, int[] kept) {
        long[] set = bits;
        long low = min;
        long size = (long) set.length << 6;
        long address = column.getDataBuffer().memoryAddress();
        int out = wide ? filterWide(address, set, low, size, rows, count, kept)
                : filterNarrow(address, set, low, size, rows, count, kept);
        if (column.getNullCount() == 0) {
            return out;
        }
        ArrowBuf validity = column.getValidityBuffer();
        int nonNull = 0;
        for (int index = 0; index < out; index++) {
            int row = kept[index];
            kept[nonNull] = row;
            nonNull += BitVectorHelper.get(validity, row);
        }
        return nonNull;
    }

    /*
     * The loops below read the column's data by address: the rows are the caller's live positions
     * in a vector of at least that many values, so every read is in bounds, and the loops are
     * free of Arrow's per-access checks. A NULL's slot holds some value; the caller drops NULLs
     * after the loop.
     */

    private static int filterNarrow(long address, long[] set, long low, long size, int[] rows, int count, int[] kept) {
        int out = 0;
        for (int index = 0; index < count; index++) {
            int row = rows[index];
            long offset = MemoryUtil.getInt(address + 4L * row) - low;
            boolean hit = offset >= 0 && offset < size && (set[(int) (offset >>> 6)] & (1L << offset)) != 0;
            kept[out] = row;
            out += hit ? 1 : 0;
        }
        return out;
    }

    private static int filterWide(long address, long[] set, long low, long size, int[] rows, int count, int[] kept) {
        int out = 0;
        for (int index = 0; index < count; index++) {
            int row = rows[index];
            long offset = MemoryUtil.getLong(address + 8L * row) - low;
            boolean hit = offset >= 0 && offset < size && (set[(int) (offset >>> 6)] & (1L << offset)) != 0;
            kept[out] = row;
            out += hit ? 1 : 0;
        }
        return out;
    }
}
