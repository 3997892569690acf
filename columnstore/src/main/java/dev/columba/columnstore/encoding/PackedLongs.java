package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_LONG;
import static dev.columba.columnstore.encoding.SegmentFormat.PACKED_HEADER_BYTES;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A packed stream read in place: {@code count} values, each {@code reference} plus a
 * {@code width}-bit unsigned delta (see {@link BitPacker}). Random access to any index. Immutable.
 *
 * <p>Layout: i64 reference, u8 width (0..64), then {@code ceil(count * width / 64)} words.
 */
final class PackedLongs {
    /**
     * {@link #heapWords}' copy once made. Volatile: a reader may be read by the workers of a
     * parallel scan, and the array must be seen whole by any thread that sees it.
     */
    private volatile byte[] heapCopy;
    private static final VarHandle LITTLE_ENDIAN_LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment bytes;
    private final long wordsOffset;
    private final long end;
    private final long reference;
    private final int width;
    private final long mask;
    private final int count;

    private PackedLongs(MemorySegment bytes, long wordsOffset, long end, long reference, int width, int count) {
        this.bytes = bytes;
        this.wordsOffset = wordsOffset;
        this.end = end;
        this.reference = reference;
        this.width = width;
        this.mask = width == 64 ? -1L : (1L << width) - 1;
        this.count = count;
    }

    /**
     * Checks and reads the stream of {@code count} values at {@code offset}, which must end by
     * {@code limit}.
     */
    static PackedLongs read(MemorySegment bytes, long offset, long limit, int count, String origin) {
        if (limit - offset < PACKED_HEADER_BYTES) {
            throw SegmentFormat.corrupt(origin, "packed stream at offset " + offset + " needs " + PACKED_HEADER_BYTES
                    + " header bytes, " + (limit - offset) + " remain");
        }
        long reference = bytes.get(LE_LONG, offset);
        int width = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset + 8));
        if (width > 64) {
            throw SegmentFormat.corrupt(origin, "bit width " + width + " at offset " + (offset + 8));
        }
        long wordsOffset = offset + PACKED_HEADER_BYTES;
        long end = wordsOffset + SegmentFormat.packedBytes(count, width);
        if (end > limit) {
            throw SegmentFormat.corrupt(origin, count + " values of " + width + " bits at offset " + wordsOffset
                    + " need " + (end - wordsOffset) + " bytes, " + (limit - wordsOffset) + " remain");
        }
        return new PackedLongs(bytes, wordsOffset, end, reference, width, count);
    }

    /**
     * The packed words at {@code wordsOffset} of a stream whose header lies elsewhere (a run
     * stream's values and lengths); the caller has checked that they fit.
     */
    static PackedLongs words(MemorySegment bytes, long wordsOffset, long reference, int width, int count) {
        return new PackedLongs(bytes, wordsOffset, wordsOffset + SegmentFormat.packedBytes(count, width), reference, width, count);
    }

    /** Where the stream ends. */
    long end() {
        return end;
    }

    long reference() {
        return reference;
    }

    int width() {
        return width;
    }

    /** The largest delta the width can hold. */
    long mask() {
        return mask;
    }

    int count() {
        return count;
    }

    /**
     * A heap copy of the packed words for a filter that tests rows anywhere in the stream, or null
     * when values are wider than 57 bits ({@link #deltaIn} reads one little-endian long a value).
     * A checked {@link MemorySegment} access per tested row cost TPC-H Q6 a third of its scan; the
     * copy is made once per segment reader and kept, so that the filters of one column (a lower and
     * an upper bound, pushed as two predicates) share it; it has 8 bytes to spare after the words.
     * Never written after it is made: the filters only read it.
     */
    byte[] heapWords() {
        if (width > 57) {
            return null;
        }
        byte[] words = heapCopy;
        if (words == null) {
            int length = (int) (end - wordsOffset);
            words = new byte[length + Long.BYTES];
            MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, wordsOffset, words, 0, length);
            heapCopy = words;
        }
        return words;
    }

    /**
     * The delta of value {@code index} from {@link #heapWords}' copy {@code words} of this stream,
     * or from the segment when there is no copy ({@code words} null).
     */
    long deltaIn(byte[] words, int index) {
        if (words == null) {
            return delta(index);
        }
        long bit = (long) index * width;
        return ((long) LITTLE_ENDIAN_LONGS.get(words, (int) (bit >>> 3)) >>> (bit & 7)) & mask;
    }

    /**
     * Selects the rows {@code from + i} ({@code i < count}) whose delta lies in
     * {@code [lowDelta, lowDelta + span]} (unsigned) into {@code selection} as {@code i}, returning
     * how many: unpacking and comparing in one pass over {@link #heapWords}' copy {@code words},
     * without copying the words again or unpacking into an array of deltas first.
     */
    int selectDeltaRange(byte[] words, int from, int count, long lowDelta, long span, int[] selection) {
        int width = this.width;
        long mask = this.mask;
        long bit = (long) from * width;
        int selected = 0;
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            long delta = ((long) LITTLE_ENDIAN_LONGS.get(words, (int) (bit >>> 3)) >>> (bit & 7)) & mask;
            selection[selected] = rowInRange;
            selected += Long.compareUnsigned(delta - lowDelta, span) <= 0 ? 1 : 0;
            bit += width;
        }
        return selected;
    }

    /** The widest values {@link #andDeltaRangeBits} tests several to a word: two 28-bit values fit a 57-bit window. */
    static final int MAX_WORD_PARALLEL_WIDTH = 28;

    /**
     * ANDs into {@code bits} (bit {@code i % 64} of {@code bits[i / 64]}) whether the delta of row
     * {@code from + i} lies in {@code [lowDelta, highDelta]} (unsigned, both at most {@link #mask}),
     * for {@code i < count}; bits from {@code count} up to the end of the word after it are left
     * undefined. {@code bits} needs {@code count / 64 + 2} words. Widths 1 to
     * {@link #MAX_WORD_PARALLEL_WIDTH}, from {@link #heapWords}' copy {@code words}.
     *
     * <p>SWAR: one little-endian load brings {@code fields = 57 / width} packed deltas into a word
     * (4-bit TPC-H discounts 14 at a time, 12-bit dates 4). The even fields, masked, have
     * {@code width} zero bits above each; adding {@code 2^width - low} to every field sets the bit
     * above it exactly when the field is at least {@code low}, and adding {@code 2^width - 1 - high}
     * sets it when the field is above {@code high}, without a carry reaching the next field. The
     * odd fields, shifted down by {@code width}, go the same way. The flag bits, one above each
     * field, are gathered into {@code fields} adjacent bits by {@link Long#compress} (one PEXT).
     * About twenty operations a window: under two a row for 4-bit values, five or six for 12-bit
     * ones, against about eight for the scalar test, and no selection vector written per filter.
     */
    void andDeltaRangeBits(byte[] words, int from, int count, long lowDelta, long highDelta, long[] bits) {
        int width = this.width;
        int fields = 57 / width;
        long fieldMask = mask;
        long flag = 1L << width;
        long evenMask = 0;
        long evenLow = 0;
        long evenHigh = 0;
        long oddMask = 0;
        long oddLow = 0;
        long oddHigh = 0;
        long gather = 0;
        for (int field = 0; field < fields; field++) {
            int shift = field * width;
            gather |= flag << shift;
            if ((field & 1) == 0) {
                evenMask |= fieldMask << shift;
                evenLow |= (flag - lowDelta) << shift;
                evenHigh |= (flag - 1 - highDelta) << shift;
            } else {
                // The odd fields are tested shifted down by one field, into the even fields' places.
                oddMask |= fieldMask << (shift - width);
                oddLow |= (flag - lowDelta) << (shift - width);
                oddHigh |= (flag - 1 - highDelta) << (shift - width);
            }
        }
        long evenFlags = gather & (evenMask << 1);
        long oddFlags = gather & (oddMask << 1);
        long bit = (long) from * width;
        long stride = (long) fields * width;
        long accumulated = 0;
        int filled = 0;
        int word = 0;
        for (int tested = 0; tested < count; tested += fields) {
            long window = (long) LITTLE_ENDIAN_LONGS.get(words, (int) (bit >>> 3)) >>> (bit & 7);
            long even = window & evenMask;
            long odd = (window >>> width) & oddMask;
            long evenIn = (even + evenLow) & ~(even + evenHigh) & evenFlags;
            long oddIn = (odd + oddLow) & ~(odd + oddHigh) & oddFlags;
            long matches = Long.compress(evenIn | (oddIn << width), gather);
            accumulated |= matches << filled;
            filled += fields;
            if (filled >= 64) {
                bits[word++] &= accumulated;
                filled -= 64;
                // The window's matches that did not fit the word (none when it ended the word exactly).
                accumulated = matches >>> (fields - filled);
            }
            bit += stride;
        }
        if (filled > 0) {
            bits[word] &= accumulated;
        }
    }

    /**
     * Selects the rows {@code from + i} ({@code i < count}) whose value {@code v} (reference plus
     * delta) has bit {@code v} set in {@code wordOfValues}, for values below {@code limit} (at most
     * 64: a small dictionary's ids): into {@code selection} as {@code i}, returning how many. Read
     * from {@link #heapWords}' copy {@code words} and tested against the word held in a register:
     * no array lookup, no branch per row. A value at or beyond {@code limit} (a damaged segment)
     * returns {@code -(i + 1)} for the first such row, for the caller to report.
     */
    int selectInWord(byte[] words, int from, int count, long wordOfValues, int limit, int[] selection) {
        int width = this.width;
        long mask = this.mask;
        long reference = this.reference;
        long last = limit - 1;
        long bit = (long) from * width;
        int selected = 0;
        long beyond = 0;
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            long value = reference + (((long) LITTLE_ENDIAN_LONGS.get(words, (int) (bit >>> 3)) >>> (bit & 7)) & mask);
            selection[selected] = rowInRange;
            selected += (int) ((wordOfValues >>> value) & 1);
            beyond |= last - value;
            bit += width;
        }
        return beyond < 0 ? -(firstBeyond(words, from, count, limit) + 1) : selected;
    }

    /**
     * Keeps, of the rows {@code from + selection[i]} ({@code i < selectedCount}), those whose value
     * has its bit set in {@code wordOfValues}, as {@link #selectInWord} tests them, compacted at the
     * front of {@code selection}; returns how many, or {@code -(i + 1)} for the first row (offset
     * {@code i} from {@code from}) whose value is at or beyond {@code limit}.
     */
    int refineInWord(byte[] words, int from, int[] selection, int selectedCount, long wordOfValues, int limit) {
        int width = this.width;
        long mask = this.mask;
        long reference = this.reference;
        long last = limit - 1;
        if (selectedCount == 0) {
            return 0;
        }
        int lastRow = selection[selectedCount - 1];
        int kept = 0;
        long beyond = 0;
        for (int index = 0; index < selectedCount; index++) {
            int rowInRange = selection[index];
            long bit = (long) (from + rowInRange) * width;
            long value = reference + (((long) LITTLE_ENDIAN_LONGS.get(words, (int) (bit >>> 3)) >>> (bit & 7)) & mask);
            selection[kept] = rowInRange;
            kept += (int) ((wordOfValues >>> value) & 1);
            beyond |= last - value;
        }
        // The damaged row is among those tested, all within the first lastRow + 1 rows.
        return beyond < 0 ? -(firstBeyond(words, from, lastRow + 1, limit) + 1) : kept;
    }

    private int firstBeyond(byte[] words, int from, int count, int limit) {
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            if (reference + deltaIn(words, from + rowInRange) >= limit) {
                return rowInRange;
            }
        }
        throw new IllegalStateException("no value beyond " + limit);
    }

    /** The delta of value {@code index} (unsigned). */
    long delta(int index) {
        if (width == 0) {
            return 0;
        }
        long bit = (long) index * width;
        long wordOffset = wordsOffset + ((bit >>> 6) << 3);
        int shift = (int) (bit & 63);
        long value = bytes.get(LE_LONG, wordOffset) >>> shift;
        if (shift + width > 64) {
            value |= bytes.get(LE_LONG, wordOffset + 8) << (64 - shift);
        }
        return value & mask;
    }

    long get(int index) {
        return reference + delta(index);
    }

    /**
     * Values {@code [from, from + length)} into {@code out[0, length)}. The packed words they
     * occupy are copied to the heap first, in one bounds-checked bulk copy, so the unpacking loop
     * reads a Java array (a checked {@link MemorySegment} access per word cost more than the
     * unpacking itself). {@code scratch}: at least {@link #scratchFor} {@code (length)} bytes.
     */
    void read(int from, int length, long[] out, byte[] scratch) {
        read(from, length, out, 0, scratch);
    }

    /** Values {@code [from, from + length)} into {@code out[outOffset, outOffset + length)}, as {@link #read(int, int, long[], byte[])}. */
    void read(int from, int length, long[] out, int outOffset, byte[] scratch) {
        if (width == 0) {
            Arrays.fill(out, outOffset, outOffset + length, reference);
            return;
        }
        long firstBit = (long) from * width;
        copyWords(firstBit, length, scratch);
        unpack(scratch, (int) (firstBit & 63), length, out, outOffset, reference);
    }

    /**
     * Values {@code [from, from + length)} as a DECIMAL vector's 16-byte values: {@code out[2i]}
     * the value, {@code out[2i + 1]} its sign extension, unpacked and widened in one pass (the
     * vector then takes them in one bulk copy). Streams of at most 57 bits a value only ({@link
     * #width()}); {@code scratch} as {@link #read}'s.
     */
    void readWide(int from, int length, long[] out, byte[] scratch) {
        if (width > 57) {
            throw new IllegalStateException("readWide over a stream of " + width + "-bit values");
        }
        long reference = this.reference;
        if (width == 0) {
            for (int index = 0; index < length; index++) {
                out[2 * index] = reference;
                out[2 * index + 1] = reference >> 63;
            }
            return;
        }
        long firstBit = (long) from * width;
        copyWords(firstBit, length, scratch);
        int width = this.width;
        long mask = this.mask;
        int bit = (int) (firstBit & 63);
        for (int index = 0; index < length; index++) {
            long value = reference + (((long) LITTLE_ENDIAN_LONGS.get(scratch, bit >>> 3) >>> (bit & 7)) & mask);
            out[2 * index] = value;
            out[2 * index + 1] = value >> 63;
            bit += width;
        }
    }

    /** Deltas {@code [from, from + length)} into {@code out[0, length)}, as {@link #read} reads values. */
    void deltas(int from, int length, long[] out, byte[] scratch) {
        if (width == 0) {
            Arrays.fill(out, 0, length, 0);
            return;
        }
        long firstBit = (long) from * width;
        copyWords(firstBit, length, scratch);
        unpack(scratch, (int) (firstBit & 63), length, out, 0, 0);
    }

    /**
     * The values of rows {@code from + positions[offset + i]} into {@code out[i]} for
     * {@code i < count} (positions ascending): the words from the first to the last of those rows
     * are copied to the heap in one bulk copy, as {@link #read} does, and only the wanted values
     * unpacked. {@code scratch}: at least {@link #scratchFor} {@code (span)} bytes, the span being
     * {@code positions[offset + count - 1] - positions[offset] + 1}.
     */
    void readAt(int from, int[] positions, int offset, int count, long[] out, byte[] scratch) {
        if (count == 0) {
            return;
        }
        if (width == 0) {
            Arrays.fill(out, 0, count, reference);
            return;
        }
        int first = positions[offset];
        long firstBit = (long) (from + first) * width;
        copyWords(firstBit, positions[offset + count - 1] - first + 1, scratch);
        long start = firstBit & 63;
        long mask = this.mask;
        int width = this.width;
        if (width <= 57) {
            for (int index = 0; index < count; index++) {
                long bit = start + (long) (positions[offset + index] - first) * width;
                long value = (long) LITTLE_ENDIAN_LONGS.get(scratch, (int) (bit >>> 3)) >>> (bit & 7);
                out[index] = reference + (value & mask);
            }
            return;
        }
        for (int index = 0; index < count; index++) {
            long bit = start + (long) (positions[offset + index] - first) * width;
            int word = (int) (bit >>> 6) << 3;
            int shift = (int) (bit & 63);
            long low = (long) LITTLE_ENDIAN_LONGS.get(scratch, word);
            long high = (long) LITTLE_ENDIAN_LONGS.get(scratch, word + 8);
            out[index] = reference + (((low >>> shift) | ((high << (63 - shift)) << 1)) & mask);
        }
    }

    /**
     * The scratch bytes {@link #read} and {@link #deltas} need for {@code length} values: the
     * words they span (at most {@code length + 1}) and one more word, read and masked away by
     * the unpacking loop.
     */
    static int scratchFor(int length) {
        return (length + 2) * Long.BYTES;
    }

    /** Copies the words holding {@code length} values from bit {@code firstBit} to the start of {@code scratch}. */
    private void copyWords(long firstBit, int length, byte[] scratch) {
        long lastBit = firstBit + (long) length * width - 1;
        long firstWord = firstBit >>> 6;
        int wordCount = (int) ((lastBit >>> 6) - firstWord + 1);
        MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, wordsOffset + (firstWord << 3), scratch, 0, wordCount * Long.BYTES);
    }

    /**
     * Unpacks {@code length} values starting at bit {@code bit} of {@code scratch}. Up to 57 bits
     * a value lies within the 8 bytes from the byte holding its first bit: one little-endian load
     * at that byte, a shift below 8 and the mask (the bytes past the copied words are scratch
     * left over, masked away). Wider values are put together from two words, branch-free: the
     * next word's bits are shifted in two steps so that a shift of 0 takes none.
     */
    private void unpack(byte[] scratch, int bit, int length, long[] out, int outOffset, long base) {
        int width = this.width;
        long mask = this.mask;
        if (width <= 28) {
            // Two values a load: from the byte of the first one's first bit, both lie in the 64 bits read.
            int pairs = length & ~1;
            for (int index = 0; index < pairs; index += 2) {
                long word = (long) LITTLE_ENDIAN_LONGS.get(scratch, bit >>> 3) >>> (bit & 7);
                out[outOffset + index] = base + (word & mask);
                out[outOffset + index + 1] = base + ((word >>> width) & mask);
                bit += 2 * width;
            }
            if (pairs < length) {
                long value = (long) LITTLE_ENDIAN_LONGS.get(scratch, bit >>> 3) >>> (bit & 7);
                out[outOffset + pairs] = base + (value & mask);
            }
            return;
        }
        if (width <= 57) {
            for (int index = 0; index < length; index++) {
                long value = (long) LITTLE_ENDIAN_LONGS.get(scratch, bit >>> 3) >>> (bit & 7);
                out[outOffset + index] = base + (value & mask);
                bit += width;
            }
            return;
        }
        for (int index = 0; index < length; index++) {
            int word = (bit >>> 6) << 3;
            int shift = bit & 63;
            long low = (long) LITTLE_ENDIAN_LONGS.get(scratch, word);
            long high = (long) LITTLE_ENDIAN_LONGS.get(scratch, word + 8);
            out[outOffset + index] = base + (((low >>> shift) | ((high << (63 - shift)) << 1)) & mask);
            bit += width;
        }
    }
}
