package dev.columba.columnstore.dictionary;

import static dev.columba.columnstore.dictionary.DictionaryFormat.FLAG_SECONDARY;
import static dev.columba.columnstore.dictionary.DictionaryFormat.HEADER_BYTES;
import static dev.columba.columnstore.dictionary.DictionaryFormat.LE_INT;
import static dev.columba.columnstore.dictionary.DictionaryFormat.LE_LONG;
import static dev.columba.columnstore.dictionary.DictionaryFormat.MAX_BYTES;
import static dev.columba.columnstore.dictionary.DictionaryFormat.OFFSET_BYTES;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;

/**
 * Builds a {@link Dictionary} one value at a time under a byte cap, for the rowgroup builder: it
 * knows, before a value goes in, whether the value would push the dictionary past the cap
 * ({@link #addedBytes}), and {@link #tryAdd} adds it only if it fits, so the caller can cut the
 * rowgroup short ({@code dictionary_overflow = trim}) or give up the dictionary for the column's
 * segment ({@code fallback}). {@link #sizeBytes()} is at every moment exactly the size
 * {@link #freeze} would produce, because an entry's cost does not depend on where sorting puts it:
 * a fixed-width entry costs its width, a string its UTF-8 length plus a 4-byte end offset.
 *
 * <p>Ids. While building, values get temporary ids in insertion order (the order of this
 * builder's key heap and hash table). {@link #freeze} sorts the values and writes the immutable
 * dictionary, whose ids are the sorted positions. The builder hands out no temporary ids, so there
 * is no remap table to apply: the segment encoder runs after the rowgroup is complete and finds
 * every value's final id by one hash probe into the frozen dictionaries
 * ({@link Dictionary.Lookup}).
 *
 * <p>A secondary builder is given the primary dictionary: values the primary holds are
 * {@link Outcome#PRESENT} and cost nothing. NULLs are never entries and are always PRESENT.
 * Freezing does not end the builder: it can go on and be frozen again. Not thread-safe.
 */
public final class DictionaryBuilder {
    /** SQL Server's cap, and the default of the table setting that decides it. */
    public static final long DEFAULT_CAP_BYTES = 16L << 20;

    /** The smallest cap: an empty dictionary's header. */
    public static final long MIN_CAP_BYTES = HEADER_BYTES;

    /** The largest cap: a dictionary must fit a Java array. */
    public static final long MAX_CAP_BYTES = MAX_BYTES;

    /** What {@link #tryAdd} did. */
    public enum Outcome {
        /** The value was already in this dictionary (or the primary, or is NULL); nothing changed. */
        PRESENT,
        /** The value is new and was added. */
        ADDED,
        /** The value is new and adding it would exceed the cap; nothing changed. */
        FULL
    }

    private final SqlType type;
    private final ValueKind kind;
    private final Dictionary primary;
    private final boolean secondary;
    private final long capBytes;
    private final VectorKeys vectorKeys;

    /** Stored bytes of the entries, back to back in insertion (temporary id) order. */
    private byte[] heap = new byte[256];
    private MemorySegment heapSegment = MemorySegment.ofArray(heap);
    private int heapUsed;
    /** Start of each entry in the heap; entry {@code i} ends where {@code i + 1} starts. */
    private int[] starts = new int[17];
    private int[] hashes = new int[17];
    /** Open addressing, linear probing: temporary id + 1, 0 for an empty slot. */
    private int[] table = new int[32];
    private int count;
    private long sizeBytes = HEADER_BYTES;
    /** {@code frozenRanks[temporaryId]}: the value's position in the last frozen dictionary. */
    private int[] frozenRanks = new int[0];
    /**
     * The value {@link #addedBytes(Object)} was last asked about (by identity), its key, hash and
     * whether it was present: valid until the next change, which {@link #tryAdd(Object)} of that
     * value is (it clears them), and every change goes through {@link #append}, which clears them too.
     */
    private Object lastValue;
    private byte[] lastKey;
    private int lastHash;
    private boolean lastPresent;

    private DictionaryBuilder(SqlType type, Dictionary primary, boolean secondary, long capBytes) {
        this.type = Objects.requireNonNull(type, "type");
        this.kind = ValueKind.of(type);
        this.primary = primary;
        this.secondary = secondary;
        if (capBytes < MIN_CAP_BYTES || capBytes > MAX_CAP_BYTES) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "dictionary cap must be " + MIN_CAP_BYTES + ".."
                    + MAX_CAP_BYTES + " bytes, was " + capBytes);
        }
        if (primary != null && !primary.type().equals(type)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a secondary dictionary of " + type.sqlName()
                    + " cannot extend a primary of " + primary.type().sqlName());
        }
        this.capBytes = capBytes;
        this.vectorKeys = new VectorKeys(type);
    }

    /** A builder of a primary dictionary of a table column of {@code type}. */
    public static DictionaryBuilder primary(SqlType type, long capBytes) {
        return new DictionaryBuilder(type, null, false, capBytes);
    }

    /**
     * A builder of a secondary dictionary of one rowgroup, holding the values {@code primary} (may
     * be null when the column has none) lacks.
     */
    public static DictionaryBuilder secondary(SqlType type, Dictionary primary, long capBytes) {
        return new DictionaryBuilder(type, primary, true, capBytes);
    }

    public SqlType type() {
        return type;
    }

    public long capBytes() {
        return capBytes;
    }

    /** The bytes {@link #freeze} would produce now. */
    public long sizeBytes() {
        return sizeBytes;
    }

    /** The distinct values added so far (excluding those of the primary). */
    public int entryCount() {
        return count;
    }

    /** True when an entry of {@code length} bytes fits under the cap. */
    private boolean fits(int length) {
        return sizeBytes + DictionaryFormat.entryCost(kind, length) <= capBytes;
    }

    // ---- Java values ------------------------------------------------------------------------------

    /**
     * The bytes adding {@code value} would add: 0 when it is NULL or already present.
     *
     * @throws ColumbaException WRONG_TYPE or VALUE_OUT_OF_RANGE for a value that is not of the type
     */
    public long addedBytes(Object value) {
        if (value == null) {
            return 0;
        }
        byte[] key = keyBytes(value);
        int hash = KeyHash.hash(key, 0, key.length);
        boolean present = present(key, hash);
        // The rowgroup builder asks about a value, then adds the same one: keep what was learnt.
        lastValue = value;
        lastKey = key;
        lastHash = hash;
        lastPresent = present;
        return present ? 0 : DictionaryFormat.entryCost(kind, key.length);
    }

    /**
     * Adds {@code value} unless it is present or would push the dictionary past its cap.
     *
     * @throws ColumbaException WRONG_TYPE or VALUE_OUT_OF_RANGE for a value that is not of the type
     */
    public Outcome tryAdd(Object value) {
        if (value == null) {
            return Outcome.PRESENT;
        }
        byte[] key;
        int hash;
        boolean present;
        if (value == lastValue) {
            key = lastKey;
            hash = lastHash;
            present = lastPresent;
        } else {
            key = keyBytes(value);
            hash = KeyHash.hash(key, 0, key.length);
            present = present(key, hash);
        }
        lastValue = null;
        lastKey = null;
        if (present) {
            return Outcome.PRESENT;
        }
        if (!fits(key.length)) {
            return Outcome.FULL;
        }
        append(MemorySegment.ofArray(key), 0, key.length, hash);
        return Outcome.ADDED;
    }

    /** The stored bytes of {@code value}: what {@link Dictionary} keeps and finds. */
    private byte[] keyBytes(Object value) {
        byte[] key = ValueKind.toBytes(type, value);
        if (kind == ValueKind.DOUBLE) {
            MemorySegment segment = MemorySegment.ofArray(key);
            kind.writeLong(segment, 0, kind.canonicalLong(kind.readLong(segment, 0)));
        }
        return key;
    }

    /** {@link #present(MemorySegment, long, int, int)} of a key in an array, compared without segments. */
    private boolean present(byte[] key, int hash) {
        if (primary != null && primary.find(key, 0, key.length, hash) != Dictionary.NOT_FOUND) {
            return true;
        }
        int mask = table.length - 1;
        for (int slot = hash & mask; table[slot] != 0; slot = (slot + 1) & mask) {
            int temporaryId = table[slot] - 1;
            if (hashes[temporaryId] == hash && Arrays.equals(heap, starts[temporaryId], starts[temporaryId + 1],
                    key, 0, key.length)) {
                return true;
            }
        }
        return false;
    }

    // ---- UTF-8 bytes ------------------------------------------------------------------------------

    /** What {@link #addUtf8} returns for a new value that does not fit under the cap. */
    public static final int FULL_CODE = Integer.MIN_VALUE;

    /**
     * Adds the string whose UTF-8 bytes are {@code bytes[offset, offset + length)}, as
     * {@link #tryAdd(Object)} adds it as a String, without one: the bulk path's columns hand their
     * text over as bytes ({@code ColumnBatch}). Only for VARCHAR and CHAR dictionaries, whose key is
     * the UTF-8 bytes.
     *
     * @return the value's code: its index in the primary ({@code >= 0}) when the primary holds it;
     *     {@code -(temporaryId + 2)} when this builder holds it, already or now ({@link #frozenId}
     *     turns it into its id after a freeze); {@link #FULL_CODE} when it is new and would push
     *     the dictionary past its cap (nothing changed). Never -1.
     */
    public int addUtf8(byte[] bytes, int offset, int length) {
        if (kind != ValueKind.STRING) {
            throw new IllegalStateException("a dictionary of " + type.sqlName() + " has no UTF-8 keys");
        }
        int hash = KeyHash.hash(bytes, offset, length);
        if (primary != null) {
            int index = primary.find(bytes, offset, length, hash);
            if (index != Dictionary.NOT_FOUND) {
                return index;
            }
        }
        int mask = table.length - 1;
        for (int slot = hash & mask; table[slot] != 0; slot = (slot + 1) & mask) {
            int temporaryId = table[slot] - 1;
            if (hashes[temporaryId] == hash && starts[temporaryId + 1] - starts[temporaryId] == length
                    && KeyHash.equal(heap, starts[temporaryId], bytes, offset, length)) {
                return -(temporaryId + 2);
            }
        }
        if (!fits(length)) {
            return FULL_CODE;
        }
        append(MemorySegment.ofArray(bytes), offset, length, hash);
        return -(count - 1 + 2);
    }

    /**
     * The id, in the dictionary the last {@link #freeze} produced, of the value an {@link #addUtf8}
     * code below -1 stands for (added before that freeze): its sorted position.
     */
    public int frozenId(int code) {
        return frozenRanks[-code - 2];
    }

    // ---- Vector rows ------------------------------------------------------------------------------

    /** The bytes adding row {@code row} of {@code vector} would add: 0 when NULL or present. */
    public long addedBytes(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return 0;
        }
        vectorKeys.load(vector, row);
        int hash = KeyHash.hash(vectorKeys.segment, vectorKeys.offset, vectorKeys.length);
        return present(vectorKeys.segment, vectorKeys.offset, vectorKeys.length, hash)
                ? 0 : DictionaryFormat.entryCost(kind, vectorKeys.length);
    }

    /** Adds the value at row {@code row} of {@code vector}, as {@link #tryAdd(Object)} does. */
    public Outcome tryAdd(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return Outcome.PRESENT;
        }
        vectorKeys.load(vector, row);
        return tryAdd(vectorKeys.segment, vectorKeys.offset, vectorKeys.length);
    }

    /**
     * Adds rows {@code [fromRow, fromRow + count)} of {@code vector} in order and stops at the first
     * row whose value does not fit.
     *
     * @return how many rows from {@code fromRow} are in the dictionary: {@code count} when all fit,
     *     else the position of the first row that does not fit (which was not added)
     */
    public int tryAddAll(FieldVector vector, int fromRow, int count) {
        Objects.checkFromIndexSize(fromRow, count, vector.getValueCount());
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            if (tryAdd(vector, fromRow + rowInRange) == Outcome.FULL) {
                return rowInRange;
            }
        }
        return count;
    }

    // ---- Table ------------------------------------------------------------------------------------

    private Outcome tryAdd(MemorySegment key, long keyOffset, int keyLength) {
        int hash = KeyHash.hash(key, keyOffset, keyLength);
        if (present(key, keyOffset, keyLength, hash)) {
            return Outcome.PRESENT;
        }
        if (!fits(keyLength)) {
            return Outcome.FULL;
        }
        append(key, keyOffset, keyLength, hash);
        return Outcome.ADDED;
    }

    private boolean present(MemorySegment key, long keyOffset, int keyLength, int hash) {
        if (primary != null && primary.find(key, keyOffset, keyLength) != Dictionary.NOT_FOUND) {
            return true;
        }
        int mask = table.length - 1;
        for (int slot = hash & mask; table[slot] != 0; slot = (slot + 1) & mask) {
            int temporaryId = table[slot] - 1;
            if (hashes[temporaryId] == hash && starts[temporaryId + 1] - starts[temporaryId] == keyLength
                    && MemorySegment.mismatch(heapSegment, starts[temporaryId], starts[temporaryId + 1],
                    key, keyOffset, keyOffset + keyLength) < 0) {
                return true;
            }
        }
        return false;
    }

    private void append(MemorySegment key, long keyOffset, int keyLength, int hash) {
        lastValue = null;
        lastKey = null;
        if (heapUsed + keyLength > heap.length) {
            heap = Arrays.copyOf(heap, (int) Math.min(MAX_BYTES, Math.max(heap.length * 2L, (long) heapUsed + keyLength)));
            heapSegment = MemorySegment.ofArray(heap);
        }
        MemorySegment.copy(key, keyOffset, heapSegment, heapUsed, keyLength);
        if (count + 2 > starts.length) {
            starts = Arrays.copyOf(starts, starts.length * 2);
            hashes = Arrays.copyOf(hashes, starts.length);
        }
        hashes[count] = hash;
        starts[count] = heapUsed;
        heapUsed += keyLength;
        starts[count + 1] = heapUsed;
        count++;
        sizeBytes += DictionaryFormat.entryCost(kind, keyLength);
        if (2L * count > table.length) {
            rehash(table.length * 2);
        } else {
            insert(table, count - 1);
        }
    }

    private void rehash(int capacity) {
        int[] grown = new int[capacity];
        for (int temporaryId = 0; temporaryId < count; temporaryId++) {
            insert(grown, temporaryId);
        }
        table = grown;
    }

    private void insert(int[] into, int temporaryId) {
        int mask = into.length - 1;
        int slot = hashes[temporaryId] & mask;
        while (into[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        into[slot] = temporaryId + 1;
    }

    // ---- Freezing ---------------------------------------------------------------------------------

    /**
     * The immutable dictionary of the values added so far, sorted, with identifier
     * {@code dictionaryId} (the owner's: the table's catalog decides). The builder stays usable.
     */
    public Dictionary freeze(int dictionaryId) {
        if (dictionaryId < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "dictionary id must be >= 0, was " + dictionaryId);
        }
        int[] order = sortedOrder();
        int[] ranks = new int[count];
        for (int index = 0; index < count; index++) {
            ranks[order[index]] = index;
        }
        frozenRanks = ranks;
        byte[] out = new byte[Math.toIntExact(sizeBytes)];
        MemorySegment segment = MemorySegment.ofArray(out);
        segment.set(LE_INT, DictionaryFormat.MAGIC_OFFSET, DictionaryFormat.MAGIC);
        segment.set(ValueLayout.JAVA_BYTE, DictionaryFormat.VERSION_OFFSET, (byte) DictionaryFormat.VERSION);
        segment.set(ValueLayout.JAVA_BYTE, DictionaryFormat.KIND_OFFSET, (byte) kind.code());
        segment.set(ValueLayout.JAVA_BYTE, DictionaryFormat.FLAGS_OFFSET, (byte) (secondary ? FLAG_SECONDARY : 0));
        segment.set(LE_INT, DictionaryFormat.ID_OFFSET, dictionaryId);
        segment.set(LE_INT, DictionaryFormat.COUNT_OFFSET, count);
        segment.set(LE_LONG, DictionaryFormat.DATA_LENGTH_OFFSET, heapUsed);
        long dataStart = HEADER_BYTES + (kind == ValueKind.STRING ? (long) OFFSET_BYTES * count : 0);
        long dataPosition = dataStart;
        for (int index = 0; index < count; index++) {
            int temporaryId = order[index];
            int length = starts[temporaryId + 1] - starts[temporaryId];
            MemorySegment.copy(heapSegment, starts[temporaryId], segment, dataPosition, length);
            dataPosition += length;
            if (kind == ValueKind.STRING) {
                segment.set(LE_INT, HEADER_BYTES + (long) index * OFFSET_BYTES, (int) (dataPosition - dataStart));
            }
        }
        return Dictionary.trusted(segment, type);
    }

    /** Temporary ids in storage order of their values. */
    private int[] sortedOrder() {
        Integer[] boxed = new Integer[count];
        for (int temporaryId = 0; temporaryId < count; temporaryId++) {
            boxed[temporaryId] = temporaryId;
        }
        Comparator<Integer> storageOrder;
        if (kind.fitsLong()) {
            // The storage key's signed order is the value's, and it is injective: no ties.
            long[] keys = new long[count];
            for (int temporaryId = 0; temporaryId < count; temporaryId++) {
                keys[temporaryId] = kind.storageKey(kind.readLong(heapSegment, starts[temporaryId]));
            }
            storageOrder = (left, right) -> Long.compare(keys[left], keys[right]);
        } else {
            storageOrder = (left, right) -> kind.compareStored(
                    heapSegment, starts[left], starts[left + 1] - starts[left],
                    heapSegment, starts[right], starts[right + 1] - starts[right]);
        }
        Arrays.sort(boxed, storageOrder);
        int[] order = new int[count];
        for (int index = 0; index < count; index++) {
            order[index] = boxed[index];
        }
        return order;
    }
}
