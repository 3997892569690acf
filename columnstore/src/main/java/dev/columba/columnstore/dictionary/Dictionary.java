package dev.columba.columnstore.dictionary;

import static dev.columba.columnstore.dictionary.DictionaryFormat.COUNT_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.DATA_LENGTH_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.FLAGS_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.FLAG_SECONDARY;
import static dev.columba.columnstore.dictionary.DictionaryFormat.HEADER_BYTES;
import static dev.columba.columnstore.dictionary.DictionaryFormat.ID_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.KIND_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.LE_INT;
import static dev.columba.columnstore.dictionary.DictionaryFormat.LE_LONG;
import static dev.columba.columnstore.dictionary.DictionaryFormat.MAGIC;
import static dev.columba.columnstore.dictionary.DictionaryFormat.MAGIC_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.MAX_BYTES;
import static dev.columba.columnstore.dictionary.DictionaryFormat.OFFSET_BYTES;
import static dev.columba.columnstore.dictionary.DictionaryFormat.RESERVED_FLAGS;
import static dev.columba.columnstore.dictionary.DictionaryFormat.RESERVED_OFFSET;
import static dev.columba.columnstore.dictionary.DictionaryFormat.VERSION;
import static dev.columba.columnstore.dictionary.DictionaryFormat.VERSION_OFFSET;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.apache.arrow.vector.FieldVector;

/**
 * An immutable, sorted dictionary of the distinct values of one column: entry {@code i} is the
 * {@code i}-th smallest value in storage order ({@link ValueKind}), so ids compare like values and
 * a range predicate maps to a range of ids. Backed by its serialized bytes (a heap array when just
 * frozen, a memory mapping when read from a file), which it decodes in place.
 *
 * <p>A <em>primary</em> dictionary serves every rowgroup of a table column; a <em>secondary</em>
 * one holds the values of one rowgroup that the primary lacks. A segment encoded with both numbers
 * its values in one id space: primary entry {@code i} is id {@code i}, secondary entry {@code j}
 * is id {@code primary.entryCount() + j}.
 *
 * <p>Thread-safe. A dictionary read from a mapping is valid while the mapping's arena is open.
 * Looking values up builds a hash index on first use (about eight bytes per entry, on the heap).
 */
public final class Dictionary {
    /** What {@link #indexOf} returns for a value the dictionary does not hold. */
    public static final int NOT_FOUND = -1;

    private final MemorySegment bytes;
    private final SqlType type;
    private final ValueKind kind;
    private final int id;
    private final boolean secondary;
    private final int entryCount;
    private final long dataStart;

    /** Open-addressing table of entry index + 1 (0 = empty slot); built on first lookup. */
    private volatile int[] hashIndex;

    private Dictionary(MemorySegment bytes, SqlType type, int id, boolean secondary, int entryCount) {
        this.bytes = bytes;
        this.type = type;
        this.kind = ValueKind.of(type);
        this.id = id;
        this.secondary = secondary;
        this.entryCount = entryCount;
        this.dataStart = HEADER_BYTES + (kind == ValueKind.STRING ? (long) OFFSET_BYTES * entryCount : 0);
    }

    /** Wraps bytes the builder has just written and knows to be valid. */
    static Dictionary trusted(MemorySegment bytes, SqlType type) {
        return new Dictionary(bytes, type, bytes.get(LE_INT, ID_OFFSET),
                (bytes.get(ValueLayout.JAVA_BYTE, FLAGS_OFFSET) & FLAG_SECONDARY) != 0, bytes.get(LE_INT, COUNT_OFFSET));
    }

    /**
     * Reads and checks a serialized dictionary of values of {@code type}: header, sizes, string
     * offsets, and that entries ascend strictly. The dictionary keeps {@code bytes}, which must
     * hold exactly one dictionary and stay valid as long as the dictionary is used.
     *
     * @param origin where the bytes come from (file, column), named in error messages
     * @throws ColumbaException FORMAT_TOO_NEW for a version above 1, INDEX_CORRUPT for anything
     *     else that is not a well-formed dictionary of {@code type}, naming the offset and value
     */
    public static Dictionary read(MemorySegment bytes, SqlType type, String origin) {
        return read(bytes, type, origin, false);
    }

    /**
     * Reads a dictionary as {@link #read(MemorySegment, SqlType, String)} does; with {@code checked}
     * the caller vouches that these very bytes passed that method's checks before, and the check of
     * every entry (offsets, order) is skipped. The header's checks are not: they cost nothing.
     */
    public static Dictionary read(MemorySegment bytes, SqlType type, String origin, boolean checked) {
        Objects.requireNonNull(type, "type");
        long size = bytes.byteSize();
        if (size < HEADER_BYTES) {
            throw corrupt(origin, "dictionary of " + size + " bytes is shorter than its " + HEADER_BYTES + "-byte header");
        }
        int magic = bytes.get(LE_INT, MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw corrupt(origin, "bad dictionary magic 0x" + Integer.toHexString(magic) + " at offset " + MAGIC_OFFSET);
        }
        int version = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, VERSION_OFFSET));
        if (version > VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, origin + ": dictionary format version " + version
                    + " at offset " + VERSION_OFFSET + "; this build reads versions up to " + VERSION);
        }
        if (version < 1) {
            throw corrupt(origin, "dictionary format version " + version + " at offset " + VERSION_OFFSET);
        }
        ValueKind kind = ValueKind.of(type);
        int kindCode = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, KIND_OFFSET));
        if (kindCode != kind.code()) {
            throw corrupt(origin, "dictionary value kind " + kindCode + " (" + ValueKind.ofCode(kindCode) + ") at offset "
                    + KIND_OFFSET + ", column type " + type.sqlName() + " needs " + kind.code() + " (" + kind + ")");
        }
        int flags = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, FLAGS_OFFSET));
        if ((flags & RESERVED_FLAGS) != 0) {
            throw corrupt(origin, "dictionary flags 0x" + Integer.toHexString(flags) + " at offset " + FLAGS_OFFSET);
        }
        int reserved = Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, RESERVED_OFFSET));
        if (reserved != 0) {
            throw corrupt(origin, "reserved dictionary byte " + reserved + " at offset " + RESERVED_OFFSET);
        }
        int id = bytes.get(LE_INT, ID_OFFSET);
        if (id < 0) {
            throw corrupt(origin, "dictionary id " + id + " at offset " + ID_OFFSET);
        }
        long count = Integer.toUnsignedLong(bytes.get(LE_INT, COUNT_OFFSET));
        long dataLength = bytes.get(LE_LONG, DATA_LENGTH_OFFSET);
        long offsetTable = kind == ValueKind.STRING ? count * OFFSET_BYTES : 0;
        boolean fixedLengthMatches = kind == ValueKind.STRING || dataLength == count * kind.width();
        if (count > Integer.MAX_VALUE || dataLength < 0 || dataLength > MAX_BYTES || !fixedLengthMatches
                || HEADER_BYTES + offsetTable + dataLength != size) {
            throw corrupt(origin, "dictionary of " + count + " entries (offset " + COUNT_OFFSET + ") and " + dataLength
                    + " data bytes (offset " + DATA_LENGTH_OFFSET + ") does not fit its " + size + " bytes");
        }
        Dictionary dictionary = new Dictionary(bytes, type, id, (flags & FLAG_SECONDARY) != 0, (int) count);
        if (!checked) {
            dictionary.checkEntries(origin, dataLength);
        }
        return dictionary;
    }

    private void checkEntries(String origin, long dataLength) {
        long previousEnd = 0;
        for (int index = 0; index < entryCount; index++) {
            if (kind == ValueKind.STRING) {
                long tableOffset = HEADER_BYTES + (long) index * OFFSET_BYTES;
                long end = Integer.toUnsignedLong(bytes.get(LE_INT, tableOffset));
                if (end < previousEnd || end > dataLength || (index == entryCount - 1 && end != dataLength)) {
                    throw corrupt(origin, "dictionary entry " + index + " ends at " + end + " (offset " + tableOffset
                            + "), after " + previousEnd + " in " + dataLength + " data bytes");
                }
                previousEnd = end;
            }
            if (kind == ValueKind.DOUBLE) {
                long bits = longValue(index);
                if (bits != kind.canonicalLong(bits)) {
                    throw corrupt(origin, "dictionary entry " + index + " is a non-canonical NaN 0x" + Long.toHexString(bits)
                            + " at offset " + entryOffset(index));
                }
            }
            if (kind == ValueKind.BOOLEAN && (longValue(index) & ~1L) != 0) {
                throw corrupt(origin, "dictionary entry " + index + " is BOOLEAN " + longValue(index) + " at offset "
                        + entryOffset(index));
            }
            if (index > 0 && compareEntries(index - 1, index) >= 0) {
                throw corrupt(origin, "dictionary entry " + index + " at offset " + entryOffset(index)
                        + " does not sort after entry " + (index - 1));
            }
        }
    }

    public SqlType type() {
        return type;
    }

    public ValueKind kind() {
        return kind;
    }

    /** The identifier its owner gave it when freezing (stored in its bytes). */
    public int id() {
        return id;
    }

    /** True for a secondary (per rowgroup) dictionary, false for a primary (per table column) one. */
    public boolean isSecondary() {
        return secondary;
    }

    public int entryCount() {
        return entryCount;
    }

    /** The serialized size in bytes: what the dictionary occupies on disk. */
    public long sizeBytes() {
        return bytes.byteSize();
    }

    /** The serialized bytes, read-only; the same memory the dictionary reads. */
    public MemorySegment bytes() {
        return bytes.asReadOnly();
    }

    /** A copy of the serialized bytes. */
    public byte[] toBytes() {
        return bytes.toArray(ValueLayout.JAVA_BYTE);
    }

    /** Where entry {@code index} starts in {@link #bytes()}. */
    public long entryOffset(int index) {
        if (kind == ValueKind.STRING) {
            return dataStart + (index == 0 ? 0 : Integer.toUnsignedLong(bytes.get(LE_INT, HEADER_BYTES + (index - 1L) * OFFSET_BYTES)));
        }
        return dataStart + (long) index * kind.width();
    }

    /** Where entry {@code index} ends in {@link #bytes()}: entries lie back to back, so the next one starts there. */
    public long entryEnd(int index) {
        if (kind == ValueKind.STRING) {
            return dataStart + Integer.toUnsignedLong(bytes.get(LE_INT, HEADER_BYTES + (long) index * OFFSET_BYTES));
        }
        return dataStart + (index + 1L) * kind.width();
    }

    /** The length in bytes of entry {@code index}. */
    public int entryLength(int index) {
        return (int) (entryEnd(index) - entryOffset(index));
    }

    /** The stored long of entry {@code index} of a {@link ValueKind#fitsLong()} kind. */
    public long longValue(int index) {
        return kind.readLong(bytes, dataStart + (long) index * kind.width());
    }

    /** The Java value of entry {@code index} (see {@link SqlType}). */
    public Object value(int index) {
        Objects.checkIndex(index, entryCount);
        return ValueKind.fromBytes(type, bytes, entryOffset(index), entryLength(index));
    }

    /**
     * The index of the entry equal to {@code value} (same stored bytes: {@code -0.0} and {@code 0.0}
     * are different entries, every NaN the same), or {@link #NOT_FOUND}. NULL is never an entry.
     *
     * @throws ColumbaException WRONG_TYPE when the value is not of the type's Java class
     */
    public int indexOf(Object value) {
        if (value == null) {
            return NOT_FOUND;
        }
        byte[] key = ValueKind.toBytes(type, value);
        MemorySegment keySegment = MemorySegment.ofArray(key);
        if (kind == ValueKind.DOUBLE) {
            kind.writeLong(keySegment, 0, kind.canonicalLong(kind.readLong(keySegment, 0)));
        }
        return find(keySegment, 0, key.length);
    }

    /** The first index whose entry is not below {@code value} in SQL order ({@link ValueKind#compareValues}). */
    public int lowerBound(Object value) {
        return search(value, false);
    }

    /** The first index whose entry is above {@code value} in SQL order. */
    public int upperBound(Object value) {
        return search(value, true);
    }

    private int search(Object value, boolean above) {
        int low = 0;
        int high = entryCount;
        while (low < high) {
            int middle = (low + high) >>> 1;
            int comparison = ValueKind.compareValues(type, value(middle), value);
            if (comparison < 0 || (above && comparison == 0)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    /**
     * A lookup of vector rows, for encoding a segment. Not thread-safe: one per thread.
     */
    public Lookup lookup() {
        return new Lookup();
    }

    /** Finds the entries of vector rows without allocating. */
    public final class Lookup {
        private final VectorKeys keys = new VectorKeys(type);

        private Lookup() {
        }

        /**
         * The index of the value at {@code row} of {@code vector} (a non-NULL row of a vector of the
         * dictionary's type), or {@link #NOT_FOUND}.
         */
        public int indexOf(FieldVector vector, int row) {
            keys.load(vector, row);
            return find(keys.segment, keys.offset, keys.length);
        }
    }

    /** {@link #find(MemorySegment, long, int)} of a key in an array: hashed without a segment. */
    int find(byte[] key) {
        return find(key, 0, key.length, KeyHash.hash(key, 0, key.length));
    }

    /** The entry of the key {@code key[offset, offset + length)}, whose {@link KeyHash} is {@code hash}. */
    int find(byte[] key, int offset, int length, int hash) {
        int[] table = hashIndex;
        if (table == null) {
            table = buildIndex();
            hashIndex = table;
        }
        int mask = table.length - 1;
        int slot = hash & mask;
        MemorySegment keySegment = null;
        while (true) {
            int entry = table[slot] - 1;
            if (entry < 0) {
                return NOT_FOUND;
            }
            if (entryLength(entry) == length) {
                if (keySegment == null) {
                    keySegment = MemorySegment.ofArray(key);
                }
                if (MemorySegment.mismatch(bytes, entryOffset(entry), entryOffset(entry) + length,
                        keySegment, offset, offset + length) < 0) {
                    return entry;
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    int find(MemorySegment key, long keyOffset, int keyLength) {
        int[] table = hashIndex;
        if (table == null) {
            table = buildIndex();
            hashIndex = table;
        }
        int mask = table.length - 1;
        int slot = KeyHash.hash(key, keyOffset, keyLength) & mask;
        while (true) {
            int entry = table[slot] - 1;
            if (entry < 0) {
                return NOT_FOUND;
            }
            if (entryLength(entry) == keyLength
                    && MemorySegment.mismatch(bytes, entryOffset(entry), entryOffset(entry) + keyLength,
                    key, keyOffset, keyOffset + keyLength) < 0) {
                return entry;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int[] buildIndex() {
        int capacity = 16;
        while (capacity < 2L * entryCount) {
            capacity <<= 1;
        }
        int[] table = new int[capacity];
        int mask = capacity - 1;
        for (int index = 0; index < entryCount; index++) {
            int slot = KeyHash.hash(bytes, entryOffset(index), entryLength(index)) & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = index + 1;
        }
        return table;
    }

    private int compareEntries(int left, int right) {
        return kind.compareStored(bytes, entryOffset(left), entryLength(left), bytes, entryOffset(right), entryLength(right));
    }

    private static ColumbaException corrupt(String origin, String message) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": " + message);
    }

    @Override
    public String toString() {
        return (secondary ? "secondary" : "primary") + " dictionary " + id + " of " + type.sqlName() + ", "
                + entryCount + " entries, " + sizeBytes() + " bytes";
    }
}
