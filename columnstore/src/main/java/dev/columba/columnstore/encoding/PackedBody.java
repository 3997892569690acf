package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.type.SqlType;
import java.util.Arrays;

/**
 * A {@link EncodingKind#VALUE} body: one packed stream of the rows' stored values. Comparisons
 * run on the packed deltas: a range of values is a range of deltas ({@code constant - reference}),
 * tested with one subtraction and one unsigned comparison per row.
 */
record PackedBody(SqlType type, ValueKind kind, PackedLongs values) implements SegmentBody {
    /**
     * Selected rows are unpacked from one heap copy of the words they span while the span holds at
     * most this many packed bits a selected value; sparser, each is read where it lies. A read
     * where it lies is a checked access into the mapped segment at a scattered address, mostly a
     * cache miss; the copy streams the span's cache lines in order into a scratch array the reader
     * keeps (no allocation). With a fresh array per call (zeroed) the break-even was 256 bits;
     * TPC-H Q6 keeps about 2% of a batch's rows, 20 of 1024, whose span of ~24-bit prices is
     * ~1,200 bits a selected value.
     */
    private static final int BULK_BITS_PER_VALUE = 2048;

    @Override
    public void decode(int fromRow, int count, VectorWriter target, int targetIndex) {
        int chunk = Math.min(count, CHUNK);
        if (kind == ValueKind.DECIMAL64 && values.width() <= 57) {
            // Unpacked straight into the vector's 16-byte layout: no second pass to widen.
            long[] wide = target.scratch().wide(2 * chunk);
            byte[] words = target.scratch().words(PackedLongs.scratchFor(chunk));
            for (int done = 0; done < count; done += chunk) {
                int length = Math.min(chunk, count - done);
                values.readWide(fromRow + done, length, wide, words);
                target.putWideLongs(targetIndex + done, wide, length);
            }
            return;
        }
        long[] scratch = target.scratch().longs(chunk);
        byte[] words = target.scratch().words(PackedLongs.scratchFor(chunk));
        for (int done = 0; done < count; done += chunk) {
            int length = Math.min(chunk, count - done);
            values.read(fromRow + done, length, scratch, words);
            target.putLongs(targetIndex + done, scratch, length);
        }
    }

    @Override
    public void decodeSelected(int fromRow, int[] selection, int selected, VectorWriter target) {
        if (!kind.fitsLong()) {
            SegmentBody.super.decodeSelected(fromRow, selection, selected, target);
            return;
        }
        int chunk = Math.min(selected, CHUNK);
        long[] scratch = target.scratch().longs(chunk);
        for (int done = 0; done < selected; done += chunk) {
            int length = Math.min(chunk, selected - done);
            int span = selection[done + length - 1] - selection[done] + 1;
            if ((long) span * values.width() <= (long) length * BULK_BITS_PER_VALUE) {
                byte[] words = target.scratch().words(PackedLongs.scratchFor(span));
                values.readAt(fromRow, selection, done, length, scratch, words);
            } else {
                for (int index = 0; index < length; index++) {
                    scratch[index] = values.get(fromRow + selection[done + index]);
                }
            }
            target.putLongsAt(selection, done, scratch, length);
        }
    }

    /**
     * The whole range unpacked straight into {@code out} when more than a quarter of it is selected
     * (one sequential pass beats finding each selected value), else only the selected values, as
     * {@link #decodeSelected} finds them.
     */
    @Override
    public boolean readLongs(int fromRow, int count, int[] selection, int selected, long[] out, DecodeScratch scratch) {
        if (!kind.integral()) {
            return false;
        }
        if (selected > count / 4) {
            int chunk = Math.min(count, CHUNK);
            byte[] words = scratch.words(PackedLongs.scratchFor(chunk));
            for (int done = 0; done < count; done += chunk) {
                values.read(fromRow + done, Math.min(chunk, count - done), out, done, words);
            }
            return true;
        }
        int chunk = Math.min(selected, CHUNK);
        long[] found = scratch.longs(chunk);
        for (int done = 0; done < selected; done += chunk) {
            int length = Math.min(chunk, selected - done);
            int span = selection[done + length - 1] - selection[done] + 1;
            if ((long) span * values.width() <= (long) length * BULK_BITS_PER_VALUE) {
                byte[] words = scratch.words(PackedLongs.scratchFor(span));
                values.readAt(fromRow, selection, done, length, found, words);
            } else {
                for (int index = 0; index < length; index++) {
                    found[index] = values.get(fromRow + selection[done + index]);
                }
            }
            for (int index = 0; index < length; index++) {
                out[selection[done + index]] = found[index];
            }
        }
        return true;
    }

    /** The widest deltas {@link #sumValues} adds a chunk at a time in a long: {@link #CHUNK} (2^10) of them stay below 2^63. */
    static final int SUMMED_DELTA_WIDTH = 53;

    /** Every value is the reference plus a delta of {@code width} bits. */
    @Override
    public long lowestStored() {
        return values.reference();
    }

    @Override
    public long highestStored() {
        long highest = values.reference() + values.mask();
        return highest < values.reference() ? Long.MAX_VALUE : highest;
    }

    /**
     * Values of at most {@link #SUMMED_DELTA_WIDTH} bits of delta are added as their deltas, a
     * chunk's in a plain long (a loop the JIT vectorizes, without {@link ExactTotal#add}'s overflow
     * test a value), plus the reference times the rows: the same exact total, since each value is
     * the reference plus its delta. Wider deltas are added value by value.
     */
    @Override
    public boolean sumValues(int fromRow, int count, ExactTotal total) {
        if (!kind.integral()) {
            return false;
        }
        long[] scratch = new long[Math.min(count, CHUNK)];
        byte[] words = new byte[PackedLongs.scratchFor(scratch.length)];
        if (values.width() <= SUMMED_DELTA_WIDTH) {
            for (int done = 0; done < count; done += scratch.length) {
                int length = Math.min(scratch.length, count - done);
                values.deltas(fromRow + done, length, scratch, words);
                long sum = 0;
                for (int position = 0; position < length; position++) {
                    sum += scratch[position];
                }
                total.add(sum);
            }
            total.addTimes(values.reference(), count);
            return true;
        }
        for (int done = 0; done < count; done += scratch.length) {
            int length = Math.min(scratch.length, count - done);
            values.read(fromRow + done, length, scratch, words);
            for (int position = 0; position < length; position++) {
                total.add(scratch[position]);
            }
        }
        return true;
    }

    @Override
    public Object value(int row) {
        return ValueKind.fromLong(type, values.get(row));
    }

    @Override
    public RowFilter filter(ColumnPredicate predicate) {
        LongCondition condition = LongCondition.bind(type, predicate);
        long reference = values.reference();
        return switch (condition.shape) {
            case NONE -> RowFilter.NONE;
            case ALL -> RowFilter.ALL;
            case RANGE -> {
                // Valid deltas are value - reference for values >= reference, so clip the range there.
                long low = Math.max(condition.low, reference);
                if (low > condition.high) {
                    yield RowFilter.NONE;
                }
                yield new DeltaRange(values, values.heapWords(), low - reference, condition.high - low);
            }
            case NOT_EQUAL -> condition.low < reference ? RowFilter.ALL
                    : new DeltaNotEqual(values, values.heapWords(), condition.low - reference);
            case ONE_OF -> new OneOf(values, condition.points);
        };
    }

    /**
     * Deltas in {@code [lowDelta, lowDelta + span]}, unsigned. Rows tested one at a time ({@link
     * #matches}, {@link #refine}) are read from {@code words}, the stream's {@linkplain
     * PackedLongs#heapWords heap copy} (null: from the segment, see {@link PackedLongs#deltaIn}).
     */
    private record DeltaRange(PackedLongs values, byte[] words, long lowDelta, long span) implements RowFilter {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            if (this.words != null) {
                return values.selectDeltaRange(this.words, fromRow, count, lowDelta, span, selection);
            }
            long[] deltas = new long[Math.min(count, CHUNK)];
            byte[] words = new byte[PackedLongs.scratchFor(deltas.length)];
            int selected = 0;
            for (int done = 0; done < count; done += deltas.length) {
                int length = Math.min(deltas.length, count - done);
                values.deltas(fromRow + done, length, deltas, words);
                for (int position = 0; position < length; position++) {
                    selection[selected] = done + position;
                    selected += Long.compareUnsigned(deltas[position] - lowDelta, span) <= 0 ? 1 : 0;
                }
            }
            return selected;
        }

        @Override
        public boolean matches(int row) {
            return Long.compareUnsigned(values.deltaIn(words, row) - lowDelta, span) <= 0;
        }

        @Override
        public boolean wordParallel() {
            return words != null && values.width() >= 1 && values.width() <= PackedLongs.MAX_WORD_PARALLEL_WIDTH;
        }

        /**
         * Two ranges of the same stream (a column's lower and upper bound, pushed as two
         * predicates) as one: one pass over the packed values instead of two. The deltas and the
         * range's ends are unsigned ({@code lowDelta + span} is the high value less the reference).
         */
        @Override
        public RowFilter intersect(RowFilter other) {
            if (!(other instanceof DeltaRange range) || range.values != values) {
                return null;
            }
            long low = Long.compareUnsigned(lowDelta, range.lowDelta) >= 0 ? lowDelta : range.lowDelta;
            long highOfThis = lowDelta + span;
            long highOfOther = range.lowDelta + range.span;
            long high = Long.compareUnsigned(highOfThis, highOfOther) <= 0 ? highOfThis : highOfOther;
            if (Long.compareUnsigned(low, high) > 0) {
                return RowFilter.NONE;
            }
            return new DeltaRange(values, words != null ? words : range.words, low, high - low);
        }

        @Override
        public void andMatches(int fromRow, int count, long[] bits) {
            if (!wordParallel()) {
                RowFilter.super.andMatches(fromRow, count, bits);
                return;
            }
            long mask = values.mask();
            if (Long.compareUnsigned(lowDelta, mask) > 0) {
                Arrays.fill(bits, 0, (count + 63) >>> 6, 0);
                return;
            }
            // Deltas never pass the mask: the range ends there at the latest.
            long highDelta = Long.compareUnsigned(span, mask - lowDelta) >= 0 ? mask : lowDelta + span;
            values.andDeltaRangeBits(words, fromRow, count, lowDelta, highDelta, bits);
        }

        @Override
        public int refine(int fromRow, int[] selection, int selectedCount) {
            byte[] words = this.words;
            long lowDelta = this.lowDelta;
            long span = this.span;
            int kept = 0;
            for (int index = 0; index < selectedCount; index++) {
                int rowInRange = selection[index];
                selection[kept] = rowInRange;
                kept += Long.compareUnsigned(values.deltaIn(words, fromRow + rowInRange) - lowDelta, span) <= 0 ? 1 : 0;
            }
            return kept;
        }
    }

    /** Deltas other than {@code delta}; {@code words} as {@link DeltaRange}'s. */
    private record DeltaNotEqual(PackedLongs values, byte[] words, long delta) implements RowFilter {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            long[] deltas = new long[Math.min(count, CHUNK)];
            byte[] words = new byte[PackedLongs.scratchFor(deltas.length)];
            int selected = 0;
            for (int done = 0; done < count; done += deltas.length) {
                int length = Math.min(deltas.length, count - done);
                values.deltas(fromRow + done, length, deltas, words);
                for (int position = 0; position < length; position++) {
                    selection[selected] = done + position;
                    selected += deltas[position] != delta ? 1 : 0;
                }
            }
            return selected;
        }

        @Override
        public boolean matches(int row) {
            return values.deltaIn(words, row) != delta;
        }
    }

    private record OneOf(PackedLongs values, long[] points) implements RowFilter {
        @Override
        public int select(int fromRow, int count, int[] selection) {
            int selected = 0;
            for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                selection[selected] = rowInRange;
                selected += matches(fromRow + rowInRange) ? 1 : 0;
            }
            return selected;
        }

        @Override
        public boolean matches(int row) {
            return Arrays.binarySearch(points, values.get(row)) >= 0;
        }
    }
}
