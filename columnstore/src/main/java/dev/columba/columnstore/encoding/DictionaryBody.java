package dev.columba.columnstore.encoding;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.batch.SortedCodeSpace;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A {@link EncodingKind#DICTIONARY} or {@link EncodingKind#DICTIONARY_RUN_LENGTH} body: the rows'
 * dictionary ids as a packed stream ({@code packedIds}) or a run stream ({@code runIds}), the
 * other null. Ids {@code [0, primaryCount)} are primary entries, {@code [primaryCount, idCount)}
 * secondary ones. Every id is checked against the id space as it is read, so a corrupt id is an
 * INDEX_CORRUPT error, never a read outside a dictionary. A filter evaluates the predicate on the
 * dictionaries once ({@link IdCondition}) and then tests ids.
 */
record DictionaryBody(SqlType type, ValueKind kind, PackedLongs packedIds, RunLongs runIds,
                      Dictionary primary, int primaryCount, Dictionary secondary, int idCount, String origin)
        implements SegmentBody, SortedCodeSpace {

    /**
     * The codes of a string segment (its ids) are a {@link SortedCodeSpace}: each dictionary's
     * entries ascend strictly in unsigned byte order (segment.md; readers check it), so ids
     * {@code [0, primaryCount)} ascend with their strings and so do the secondary's.
     */
    @Override
    public int split() {
        return primaryCount;
    }

    @Override
    public byte[] utf8(int code) {
        if (kind != ValueKind.STRING || code < 0 || code >= idCount) {
            throw new IllegalArgumentException("code " + code + " is not one of the " + idCount + " string ids of " + origin);
        }
        boolean inPrimary = code < primaryCount;
        Dictionary dictionary = inPrimary ? primary : secondary;
        int entry = inPrimary ? code : code - primaryCount;
        byte[] bytes = new byte[dictionary.entryLength(entry)];
        MemorySegment.copy(dictionary.bytes(), ValueLayout.JAVA_BYTE, dictionary.entryOffset(entry), bytes, 0, bytes.length);
        return bytes;
    }

    @Override
    public void decode(int fromRow, int count, VectorWriter target, int targetIndex) {
        if (count == 0) {
            return;
        }
        MemorySegment primaryBytes = primary == null ? MemorySegment.NULL : primary.bytes();
        MemorySegment secondaryBytes = secondary == null ? MemorySegment.NULL : secondary.bytes();
        // Strings hand their ids on as codes (CodedStrings), this body standing for the code space.
        int[] codes = kind == ValueKind.STRING ? target.codeSink() : null;
        if (runIds != null) {
            RunLongs.Cursor cursor = runIds.cursor();
            cursor.seek(fromRow);
            int row = fromRow;
            int end = fromRow + count;
            while (true) {
                int stop = Math.min(cursor.end, end);
                long id = checked(cursor.value(), row);
                emit(target, targetIndex + row - fromRow, id, stop - row, primaryBytes, secondaryBytes);
                if (codes != null) {
                    Arrays.fill(codes, targetIndex + row - fromRow, targetIndex + stop - fromRow, (int) id);
                }
                row = stop;
                if (row == end) {
                    if (codes != null) {
                        target.markCoded(this, idCount);
                    }
                    return;
                }
                cursor.next();
            }
        }
        int chunk = Math.min(count, CHUNK);
        long[] scratch = target.scratch().longs(chunk);
        byte[] words = target.scratch().words(PackedLongs.scratchFor(chunk));
        HeapEntries heapEntries = kind == ValueKind.STRING && idCount <= Math.min(SMALL_DICTIONARY_IDS, count)
                ? heapEntries(chunk) : null;
        for (int done = 0; done < count; done += chunk) {
            int length = Math.min(chunk, count - done);
            packedIds.read(fromRow + done, length, scratch, words);
            if (codes != null) {
                // Unchecked here: the decode below checks every id and fails the batch on a bad one.
                for (int position = 0; position < length; position++) {
                    codes[targetIndex + done + position] = (int) scratch[position];
                }
            }
            if (kind.fitsLong()) {
                for (int position = 0; position < length; position++) {
                    long id = checked(scratch[position], fromRow + done + position);
                    scratch[position] = id < primaryCount ? primary.longValue((int) id)
                            : secondary.longValue((int) (id - primaryCount));
                }
                target.putLongs(targetIndex + done, scratch, length);
            } else if (kind == ValueKind.STRING && heapEntries != null) {
                heapEntries.decode(scratch, length, fromRow + done, targetIndex + done, target);
            } else if (kind == ValueKind.STRING) {
                // The hot loop of string columns: two offset reads and one copy a row.
                for (int position = 0; position < length; position++) {
                    long id = checked(scratch[position], fromRow + done + position);
                    boolean inPrimary = id < primaryCount;
                    int index = (int) (inPrimary ? id : id - primaryCount);
                    Dictionary dictionary = inPrimary ? primary : secondary;
                    long start = dictionary.entryOffset(index);
                    target.putString(targetIndex + done + position, inPrimary ? primaryBytes : secondaryBytes, start,
                            (int) (dictionary.entryEnd(index) - start));
                }
            } else {
                for (int position = 0; position < length; position++) {
                    emit(target, targetIndex + done + position, checked(scratch[position], fromRow + done + position), 1,
                            primaryBytes, secondaryBytes);
                }
            }
        }
        if (codes != null) {
            target.markCoded(this, idCount);
        }
    }

    /** Packed ids of whole numbers or narrow decimals: each id looked up in its dictionary, checked as {@link #decode} checks it. */
    @Override
    public boolean readLongs(int fromRow, int count, int[] selection, int selected, long[] out, DecodeScratch scratch) {
        if (packedIds == null || !kind.integral()) {
            return false;
        }
        int chunk = Math.min(count, CHUNK);
        long[] ids = scratch.longs(chunk);
        byte[] words = scratch.words(PackedLongs.scratchFor(chunk));
        for (int done = 0; done < count; done += chunk) {
            int length = Math.min(chunk, count - done);
            packedIds.read(fromRow + done, length, ids, words);
            for (int position = 0; position < length; position++) {
                long id = checked(ids[position], fromRow + done + position);
                out[done + position] = id < primaryCount ? primary.longValue((int) id) : secondary.longValue((int) (id - primaryCount));
            }
        }
        return true;
    }

    @Override
    public void decodeSelected(int fromRow, int[] selection, int selected, VectorWriter target) {
        if (packedIds == null || !kind.fitsLong()) {
            SegmentBody.super.decodeSelected(fromRow, selection, selected, target);
            return;
        }
        for (int index = 0; index < selected; index++) {
            int row = selection[index];
            long id = checked(packedIds.get(fromRow + row), fromRow + row);
            target.putLong(row, id < primaryCount ? primary.longValue((int) id) : secondary.longValue((int) (id - primaryCount)));
        }
    }

    /**
     * The selected rows' strings, each copied from its dictionary entry, with their ids handed on
     * as codes; the rows between get empty strings and code 0 (nobody reads them: they are outside
     * the selection). A filter that kept few rows of a batch no longer costs every row's string.
     */
    @Override
    public void decodeSelectedStrings(int fromRow, int count, int[] selection, int selected, VectorWriter target) {
        if (kind != ValueKind.STRING) {
            SegmentBody.super.decodeSelectedStrings(fromRow, count, selection, selected, target);
            return;
        }
        MemorySegment primaryBytes = primary == null ? MemorySegment.NULL : primary.bytes();
        MemorySegment secondaryBytes = secondary == null ? MemorySegment.NULL : secondary.bytes();
        int[] codes = target.codeSink();
        if (codes != null) {
            Arrays.fill(codes, 0, count, 0);
        }
        RunLongs.Cursor cursor = null;
        if (runIds != null && selected > 0) {
            cursor = runIds.cursor();
            cursor.seek(fromRow + selection[0]);
        }
        int next = 0;
        for (int index = 0; index < selected; index++) {
            int row = selection[index];
            long id;
            if (cursor != null) {
                cursor.moveTo(fromRow + row);
                id = checked(cursor.value(), fromRow + row);
            } else {
                id = checked(packedIds.get(fromRow + row), fromRow + row);
            }
            target.emptyStrings(next, row);
            boolean inPrimary = id < primaryCount;
            int entry = (int) (inPrimary ? id : id - primaryCount);
            Dictionary dictionary = inPrimary ? primary : secondary;
            target.putString(row, inPrimary ? primaryBytes : secondaryBytes, dictionary.entryOffset(entry),
                    dictionary.entryLength(entry));
            if (codes != null) {
                codes[row] = (int) id;
            }
            next = row + 1;
        }
        target.emptyStrings(next, count);
        if (codes != null) {
            target.markCoded(this, idCount);
        }
    }

    @Override
    public boolean decodeCodes(int fromRow, int count, VectorWriter target) {
        int[] codes = target.codeSink();
        if (kind != ValueKind.STRING || codes == null) {
            return false;
        }
        if (runIds != null) {
            RunLongs.Cursor cursor = runIds.cursor();
            cursor.seek(fromRow);
            int row = fromRow;
            int end = fromRow + count;
            while (row < end) {
                int stop = Math.min(cursor.end, end);
                Arrays.fill(codes, row - fromRow, stop - fromRow, (int) checked(cursor.value(), row));
                row = stop;
                if (row < end) {
                    cursor.next();
                }
            }
        } else {
            int chunk = Math.min(count, CHUNK);
            long[] scratch = target.scratch().longs(chunk);
            byte[] words = target.scratch().words(PackedLongs.scratchFor(chunk));
            for (int done = 0; done < count; done += chunk) {
                int length = Math.min(chunk, count - done);
                packedIds.read(fromRow + done, length, scratch, words);
                for (int position = 0; position < length; position++) {
                    codes[done + position] = (int) checked(scratch[position], fromRow + done + position);
                }
            }
        }
        target.emptyStrings(0, count);
        target.markCoded(this, idCount);
        return true;
    }

    /** Writes the entry of {@code id} to {@code repeat} target rows from {@code targetRow}. */
    private void emit(VectorWriter target, int targetRow, long id, int repeat, MemorySegment primaryBytes,
                      MemorySegment secondaryBytes) {
        boolean inPrimary = id < primaryCount;
        Dictionary dictionary = inPrimary ? primary : secondary;
        MemorySegment bytes = inPrimary ? primaryBytes : secondaryBytes;
        int index = (int) (inPrimary ? id : id - primaryCount);
        switch (kind) {
            case BOOLEAN, INT, BIGINT, DOUBLE, DECIMAL64, DATE, TIMESTAMP ->
                    target.fillLong(targetRow, dictionary.longValue(index), repeat);
            case DECIMAL128 -> {
                long offset = dictionary.entryOffset(index);
                long low = bytes.get(SegmentFormat.LE_LONG, offset);
                long high = bytes.get(SegmentFormat.LE_LONG, offset + 8);
                for (int copy = 0; copy < repeat; copy++) {
                    target.putWide(targetRow + copy, low, high);
                }
            }
            case STRING -> {
                long offset = dictionary.entryOffset(index);
                int length = dictionary.entryLength(index);
                for (int copy = 0; copy < repeat; copy++) {
                    target.putString(targetRow + copy, bytes, offset, length);
                }
            }
        }
    }

    /** String dictionaries of at most this many ids are decoded from a heap copy of their entries ({@link HeapEntries}). */
    private static final int SMALL_DICTIONARY_IDS = 256;

    /** The entries of both dictionaries copied to the heap, by id, with scratch space for chunks of {@code chunk} rows. */
    private HeapEntries heapEntries(int chunk) {
        int[] starts = new int[idCount];
        int[] lengths = new int[idCount];
        long total = 0;
        for (int id = 0; id < idCount; id++) {
            Dictionary dictionary = id < primaryCount ? primary : secondary;
            int index = id < primaryCount ? id : id - primaryCount;
            lengths[id] = dictionary.entryLength(index);
            starts[id] = (int) total;
            total += lengths[id];
        }
        if (total > Integer.MAX_VALUE / 4) {
            return null;
        }
        byte[] bytes = new byte[(int) total];
        for (int id = 0; id < idCount; id++) {
            Dictionary dictionary = id < primaryCount ? primary : secondary;
            int index = id < primaryCount ? id : id - primaryCount;
            MemorySegment.copy(dictionary.bytes(), ValueLayout.JAVA_BYTE, dictionary.entryOffset(index), bytes, starts[id], lengths[id]);
        }
        return new HeapEntries(bytes, starts, lengths, new byte[Math.max(16, chunk * 8)], new int[chunk]);
    }

    /**
     * A small string dictionary on the heap: a chunk of rows is assembled in {@code chunkBytes}
     * and {@code chunkEnds} from Java arrays and written to the vector with two bulk copies,
     * instead of a checked copy and offset write per row (short strings from small
     * dictionaries, flags and codes, are where that per-row work dominated).
     */
    private final class HeapEntries {
        private final byte[] bytes;
        private final int[] starts;
        private final int[] lengths;
        private byte[] chunkBytes;
        private final int[] chunkEnds;

        HeapEntries(byte[] bytes, int[] starts, int[] lengths, byte[] chunkBytes, int[] chunkEnds) {
            this.bytes = bytes;
            this.starts = starts;
            this.lengths = lengths;
            this.chunkBytes = chunkBytes;
            this.chunkEnds = chunkEnds;
        }

        /** Writes the strings of ids {@code ids[0, length)} (rows from {@code firstRow}) to rows from {@code targetIndex}. */
        void decode(long[] ids, int length, int firstRow, int targetIndex, VectorWriter target) {
            int total = 0;
            for (int position = 0; position < length; position++) {
                int id = (int) checked(ids[position], firstRow + position);
                int entryLength = lengths[id];
                if (total + entryLength > chunkBytes.length) {
                    chunkBytes = Arrays.copyOf(chunkBytes, Math.max(total + entryLength, 2 * chunkBytes.length));
                }
                int start = starts[id];
                for (int offset = 0; offset < entryLength; offset++) {
                    chunkBytes[total + offset] = bytes[start + offset];
                }
                total += entryLength;
                chunkEnds[position] = total;
            }
            target.putStrings(targetIndex, chunkBytes, total, chunkEnds, length);
        }
    }

    private long checked(long id, int row) {
        if (Long.compareUnsigned(id, idCount) >= 0) {
            throw SegmentFormat.corrupt(origin, "row " + row + " has dictionary id " + id + ", beyond the " + idCount
                    + " ids of its dictionaries");
        }
        return id;
    }

    @Override
    public Object value(int row) {
        long id;
        if (runIds != null) {
            RunLongs.Cursor cursor = runIds.cursor();
            cursor.seek(row);
            id = checked(cursor.value(), row);
        } else {
            id = checked(packedIds.get(row), row);
        }
        return id < primaryCount ? primary.value((int) id) : secondary.value((int) (id - primaryCount));
    }

    @Override
    public RowFilter filter(ColumnPredicate predicate) {
        IdCondition condition = IdCondition.bind(type, predicate, primary, primaryCount, secondary, idCount - primaryCount);
        if (condition.matchesNone()) {
            return RowFilter.NONE;
        }
        if (condition.matchesAll()) {
            return RowFilter.ALL;
        }
        if (runIds != null) {
            return new RowFilter() {
                @Override
                public int select(int fromRow, int count, int[] selection) {
                    return RunBody.selectRuns(runIds, fromRow, count, selection,
                            id -> condition.test(checked(id, fromRow)));
                }

                @Override
                public boolean matches(int row) {
                    RunLongs.Cursor cursor = runIds.cursor();
                    cursor.seek(row);
                    return condition.test(checked(cursor.value(), row));
                }
            };
        }
        // Ids tested row by row are read from a heap copy of the packed ids (see PackedLongs.heapWords).
        byte[] words = packedIds.heapWords();
        if (words != null && condition.idCount() <= IdCondition.WORD_IDS) {
            // A small dictionary (TPC-H's l_shipmode, l_shipinstruct): its matching ids fit one word.
            long matching = condition.word();
            int limit = condition.idCount();
            return new RowFilter() {
                @Override
                public int select(int fromRow, int count, int[] selection) {
                    int selected = packedIds.selectInWord(words, fromRow, count, matching, limit, selection);
                    return selected >= 0 ? selected : damaged(fromRow - selected - 1);
                }

                @Override
                public int refine(int fromRow, int[] selection, int selectedCount) {
                    int kept = packedIds.refineInWord(words, fromRow, selection, selectedCount, matching, limit);
                    return kept >= 0 ? kept : damaged(fromRow - kept - 1);
                }

                @Override
                public boolean matches(int row) {
                    long id = packedIds.reference() + packedIds.deltaIn(words, row);
                    return condition.test(checked(id, row));
                }

                private int damaged(int row) {
                    checked(packedIds.reference() + packedIds.deltaIn(words, row), row);
                    throw new IllegalStateException("row " + row + " was reported beyond the dictionaries but is not");
                }
            };
        }
        return new RowFilter() {
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
                long id = packedIds.reference() + packedIds.deltaIn(words, row);
                return condition.test(checked(id, row));
            }
        };
    }
}
