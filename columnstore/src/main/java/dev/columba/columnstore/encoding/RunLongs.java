package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;
import static dev.columba.columnstore.encoding.SegmentFormat.LE_SHORT;
import static dev.columba.columnstore.encoding.SegmentFormat.RUNS_HEADER_BYTES;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A run stream read in place: {@code rowCount} rows as runs of equal values. Layout: u32 run
 * count {@code R}, i64 reference, u8 value width, u8 length width, u16 index stride {@code k};
 * then the run values as a packed stream body (reference + delta), the run lengths minus one
 * packed, and the run index: {@code ceil(R / k)} u32 entries, entry {@code b} the first row of
 * run {@code b * k}.
 *
 * <p>Finding row {@code i}: binary search of the index for the last entry not after {@code i},
 * then at most {@code k} run lengths summed from there: {@code O(log(R / k) + k)}. Opening checks
 * every run length and index entry once ({@code O(R)}), so a corrupt stream is rejected before use
 * and the loops that follow can trust it. Immutable.
 */
final class RunLongs {
    private final MemorySegment bytes;
    private final int runCount;
    private final int rowCount;
    private final long reference;
    private final int valueWidth;
    private final int lengthWidth;
    private final int stride;
    private final long lengthsOffset;
    private final long indexOffset;
    private final long end;
    /** The run values and the run lengths minus one, for reading many at a time. */
    private final PackedLongs values;
    private final PackedLongs lengthsLessOne;

    private RunLongs(MemorySegment bytes, long offset, int runCount, int rowCount, long reference,
                     int valueWidth, int lengthWidth, int stride) {
        this.bytes = bytes;
        this.runCount = runCount;
        this.rowCount = rowCount;
        this.reference = reference;
        this.valueWidth = valueWidth;
        this.lengthWidth = lengthWidth;
        this.stride = stride;
        long valuesOffset = offset + RUNS_HEADER_BYTES;
        this.lengthsOffset = valuesOffset + SegmentFormat.packedBytes(runCount, valueWidth);
        this.indexOffset = lengthsOffset + SegmentFormat.packedBytes(runCount, lengthWidth);
        this.end = indexOffset + 4L * indexEntries(runCount, stride);
        this.values = PackedLongs.words(bytes, valuesOffset, reference, valueWidth, runCount);
        this.lengthsLessOne = PackedLongs.words(bytes, lengthsOffset, 0, lengthWidth, runCount);
    }

    private static long indexEntries(long runCount, int stride) {
        return (runCount + stride - 1) / stride;
    }

    /**
     * Checks and reads the stream of {@code rowCount} rows at {@code offset}, which must end by
     * {@code limit}. With {@code checked}, the caller vouches that these very bytes passed the
     * run-by-run check before (SegmentReader#open), and only the header is checked.
     */
    static RunLongs read(MemorySegment bytes, long offset, long limit, int rowCount, String origin, boolean checked) {
        if (limit - offset < RUNS_HEADER_BYTES) {
            throw SegmentFormat.corrupt(origin, "run stream at offset " + offset + " needs " + RUNS_HEADER_BYTES
                    + " header bytes, " + (limit - offset) + " remain");
        }
        long runCount = Integer.toUnsignedLong(bytes.get(LE_INT, offset));
        long reference = bytes.get(LE_LONG, offset + 4);
        int valueWidth = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset + 12));
        int lengthWidth = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset + 13));
        int stride = Short.toUnsignedInt(bytes.get(LE_SHORT, offset + 14));
        if (rowCount == 0 ? runCount != 0 : runCount < 1 || runCount > rowCount) {
            throw SegmentFormat.corrupt(origin, "run count " + runCount + " at offset " + offset + " for " + rowCount + " rows");
        }
        if (valueWidth > 64) {
            throw SegmentFormat.corrupt(origin, "bit width " + valueWidth + " at offset " + (offset + 12));
        }
        if (lengthWidth > 32) {
            throw SegmentFormat.corrupt(origin, "bit width " + lengthWidth + " at offset " + (offset + 13));
        }
        if (stride == 0) {
            throw SegmentFormat.corrupt(origin, "run index stride 0 at offset " + (offset + 14));
        }
        long needed = RUNS_HEADER_BYTES + SegmentFormat.packedBytes(runCount, valueWidth)
                + SegmentFormat.packedBytes(runCount, lengthWidth) + 4 * indexEntries(runCount, stride);
        if (needed > limit - offset) {
            throw SegmentFormat.corrupt(origin, runCount + " runs at offset " + offset + " need " + needed
                    + " bytes, " + (limit - offset) + " remain");
        }
        RunLongs runs = new RunLongs(bytes, offset, (int) runCount, rowCount, reference, valueWidth, lengthWidth, stride);
        if (!checked) {
            runs.check(origin);
        }
        return runs;
    }

    private void check(String origin) {
        long start = 0;
        long[] lengths = new long[Math.min(runCount, SegmentBody.CHUNK)];
        byte[] words = new byte[PackedLongs.scratchFor(lengths.length)];
        for (int run = 0; run < runCount; run++) {
            int buffered = run % lengths.length;
            if (buffered == 0) {
                lengthsLessOne.read(run, Math.min(lengths.length, runCount - run), lengths, words);
            }
            if (run % stride == 0) {
                long entryOffset = indexOffset + 4L * (run / stride);
                long indexed = Integer.toUnsignedLong(bytes.get(LE_INT, entryOffset));
                if (indexed != start) {
                    throw SegmentFormat.corrupt(origin, "run index entry " + (run / stride) + " at offset " + entryOffset
                            + " says run " + run + " starts at row " + indexed + ", the lengths say " + start);
                }
            }
            start += lengths[buffered] + 1;
            if (start > rowCount) {
                throw SegmentFormat.corrupt(origin, "runs at offset " + lengthsOffset + " cover more than the "
                        + rowCount + " rows by run " + run);
            }
        }
        if (start != rowCount) {
            throw SegmentFormat.corrupt(origin, "runs at offset " + lengthsOffset + " cover " + start + " of "
                    + rowCount + " rows");
        }
    }

    long end() {
        return end;
    }

    int rowCount() {
        return rowCount;
    }

    int runCount() {
        return runCount;
    }

    long reference() {
        return reference;
    }

    int valueWidth() {
        return valueWidth;
    }

    long value(int run) {
        return values.get(run);
    }

    int length(int run) {
        return (int) lengthsLessOne.delta(run) + 1;
    }

    /** A position in the runs: a cursor, not thread-safe, one per decode or filter call. */
    Cursor cursor() {
        return new Cursor();
    }

    /** A forward move of more rows than this past the current run {@linkplain Cursor#seek seeks} instead of walking runs. */
    private static final int SEEK_ROWS = 256;

    final class Cursor {
        /** Runs of at most this many rows are written by {@link #expand} without a loop. */
        static final int SHORT_RUN = 8;
        /** Runs {@link #expand} reads at a time. */
        private static final int BUFFERED_RUNS = 128;
        /** The current run, and the rows {@code [start, end)} it covers. */
        int run;
        int start;
        int end;
        /** For {@link #expand}: the values and lengths of runs {@code [bufferFrom, bufferFrom + buffered)}. */
        private long[] bufferedValues;
        private long[] bufferedLengths;
        private byte[] words;
        private int bufferFrom;
        private int buffered;

        /** Moves to the run holding {@code row} (which is in {@code [0, rowCount)}). */
        void seek(int row) {
            int low = 0;
            int high = (int) indexEntries(runCount, stride) - 1;
            while (low < high) {
                int middle = (low + high + 1) >>> 1;
                if (bytes.get(LE_INT, indexOffset + 4L * middle) <= row) {
                    low = middle;
                } else {
                    high = middle - 1;
                }
            }
            run = low * stride;
            start = bytes.get(LE_INT, indexOffset + 4L * low);
            end = start + length(run);
            while (end <= row) {
                next();
            }
        }

        /**
         * Moves forward to the run holding {@code row}, which is at or after the current run's
         * start: run by run across short gaps, by {@link #seek} across long ones.
         */
        void moveTo(int row) {
            if (row - end > SEEK_ROWS) {
                seek(row);
            }
            while (end <= row) {
                next();
            }
        }

        /** Moves to the next run; the caller knows there is one. */
        void next() {
            run++;
            start = end;
            end = start + length(run);
        }

        long value() {
            return RunLongs.this.value(run);
        }

        /**
         * Writes the values of rows {@code [row, row + count)} to {@code out[0, count)}; the cursor
         * is on the run holding {@code row} and ends on the run holding the last of them. Run
         * values and lengths are unpacked {@link #BUFFERED_RUNS} at a time (one bounds-checked bulk
         * copy each), not one checked read per run. A run of at most {@link #SHORT_RUN} rows is
         * written as {@link #SHORT_RUN} stores whatever its length, without a loop whose exit
         * mispredicts at every run; the stores past its end land in the next run's rows (or in
         * {@code out}'s slack, which the caller leaves: {@code out.length >= count + SHORT_RUN}
         * lets every run be written so).
         */
        void expand(int row, int count, long[] out) {
            int last = row + count;
            int at = 0;
            while (true) {
                if (run < bufferFrom || run >= bufferFrom + buffered) {
                    buffer(run);
                }
                long value = bufferedValues[run - bufferFrom];
                int stop = Math.min(end, last);
                int length = stop - row;
                if (length <= SHORT_RUN && at + SHORT_RUN <= out.length) {
                    out[at] = value;
                    out[at + 1] = value;
                    out[at + 2] = value;
                    out[at + 3] = value;
                    out[at + 4] = value;
                    out[at + 5] = value;
                    out[at + 6] = value;
                    out[at + 7] = value;
                } else {
                    Arrays.fill(out, at, at + length, value);
                }
                at += length;
                row = stop;
                if (row == last) {
                    return;
                }
                run++;
                start = end;
                if (run >= bufferFrom + buffered) {
                    buffer(run);
                }
                end = start + (int) bufferedLengths[run - bufferFrom];
            }
        }

        /**
         * Writes to {@code selection} the offsets from {@code base} of the rows of {@code [row, row +
         * count)} whose run's value {@code keep} accepts, and returns how many: one test a run, the
         * runs unpacked as {@link #expand} unpacks them. The cursor is on the run holding
         * {@code row} and ends on the run holding the last of the rows.
         */
        int select(int row, int count, int[] selection, int base, java.util.function.LongPredicate keep) {
            int last = row + count;
            int selected = 0;
            while (true) {
                if (run < bufferFrom || run >= bufferFrom + buffered) {
                    buffer(run);
                }
                int stop = Math.min(end, last);
                if (keep.test(bufferedValues[run - bufferFrom])) {
                    for (int kept = row; kept < stop; kept++) {
                        selection[selected++] = kept - base;
                    }
                }
                row = stop;
                if (row == last) {
                    return selected;
                }
                run++;
                start = end;
                if (run >= bufferFrom + buffered) {
                    buffer(run);
                }
                end = start + (int) bufferedLengths[run - bufferFrom];
            }
        }

        private void buffer(int from) {
            if (bufferedValues == null) {
                bufferedValues = new long[BUFFERED_RUNS];
                bufferedLengths = new long[BUFFERED_RUNS];
                words = new byte[PackedLongs.scratchFor(BUFFERED_RUNS)];
            }
            int length = Math.min(runCount - from, BUFFERED_RUNS);
            values.read(from, length, bufferedValues, words);
            lengthsLessOne.read(from, length, bufferedLengths, words);
            for (int index = 0; index < length; index++) {
                bufferedLengths[index]++;
            }
            bufferFrom = from;
            buffered = length;
        }
    }

    // ---- Writing ----------------------------------------------------------------------------------

    /** Bytes of a run stream of {@code runCount} runs whose values span {@code valueWidth} bits. */
    static long bytes(long runCount, int valueWidth, int lengthWidth) {
        return RUNS_HEADER_BYTES + SegmentFormat.packedBytes(runCount, valueWidth)
                + SegmentFormat.packedBytes(runCount, lengthWidth)
                + 4 * indexEntries(runCount, SegmentFormat.RUN_INDEX_STRIDE);
    }

    /** Writes runs {@code values[i]} x {@code lengths[i]} for {@code i < runCount}. */
    static void write(ByteWriter out, long[] values, int[] lengths, int runCount, long reference, int valueWidth,
                      int lengthWidth) {
        out.putInt(runCount);
        out.putLong(reference);
        out.putByte(valueWidth);
        out.putByte(lengthWidth);
        out.putShort(SegmentFormat.RUN_INDEX_STRIDE);
        BitPacker valuePacker = new BitPacker(out, valueWidth);
        for (int run = 0; run < runCount; run++) {
            valuePacker.add(values[run] - reference);
        }
        valuePacker.finish();
        BitPacker lengthPacker = new BitPacker(out, lengthWidth);
        for (int run = 0; run < runCount; run++) {
            lengthPacker.add(lengths[run] - 1);
        }
        lengthPacker.finish();
        int start = 0;
        for (int run = 0; run < runCount; run++) {
            if (run % SegmentFormat.RUN_INDEX_STRIDE == 0) {
                out.putInt(start);
            }
            start += lengths[run];
        }
    }
}
