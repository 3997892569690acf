package dev.columba.storage.row;

import static dev.columba.storage.row.RowFormat.KEY_INT;
import static dev.columba.storage.row.RowFormat.KEY_LONG;
import static dev.columba.storage.row.RowFormat.KEY_NULL;
import static dev.columba.storage.row.RowFormat.KEY_STRING_END;
import static dev.columba.storage.row.RowFormat.KEY_STRING_ESCAPED_ZERO;
import static dev.columba.storage.row.RowFormat.KEY_VALUE;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes the keys of one index (a list of column types) as bytes whose unsigned lexicographic
 * order ({@link Arrays#compareUnsigned(byte[], byte[])}, {@link MemorySegment#mismatch}) is the SQL
 * order of the keys, column by column: NULL first, then values ascending. So the B+tree compares
 * keys without decoding them. Specified in {@code docs/format/row.md}, section "Keys".
 *
 * <p>Each column is a marker byte (NULL or value) followed, for a value, by an order-preserving
 * form: integers big-endian with the sign bit flipped, doubles by their IEEE bits transformed so
 * that -0.0 equals 0.0 and NaN sorts last, decimals as their unscaled value at the column's scale,
 * strings as UTF-8 (code point order) with 0x00 escaped and a terminator, binary strings as their
 * bytes the same way (BINARY zero-padded), UUIDs as their 16 bytes. Every column's encoding
 * is self-delimiting, which gives the prefix property: the encoding of a key's first {@code k}
 * columns is a byte prefix of the key's encoding, and {@link #prefixLowerBound} and
 * {@link #prefixUpperBound} bound exactly the keys that start with given values.
 *
 * <p>A descending column (a secondary index's {@code c DESC}) is encoded ascending with every
 * byte inverted, which reverses its order; {@link #prefixUpperBound} is then the prefix's
 * successor (docs/format/row.md, "Descending key columns").
 *
 * <p>The encoding is lossy where SQL equality is: -0.0 decodes as 0.0, every NaN as the canonical
 * NaN, and a decimal at the column's scale. Immutable and thread-safe.
 */
public final class KeyCodec {
    /** The key format's big-endian values written into a key's own array ({@link #encode(RowColumns, int[], int)}). */
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final List<SqlType> types;
    private final PhysicalType[] physicalTypes;
    /** Per column, {@code key column <index> <SQL type>}: the start of every message about its values. */
    private final String[] labels;
    private final int[] scales;
    private final int[] characterLimits;
    /** Per column, whether its bytes are inverted (a DESC key column); all false for most indexes. */
    private final boolean[] descending;
    private final boolean anyDescending;

    public KeyCodec(List<SqlType> types) {
        this(types, null);
    }

    /**
     * A codec whose key column {@code k} sorts in descending order when {@code descending.get(k)}
     * (null: all ascending): its encoding is the ascending one with every byte inverted, which
     * reverses the order of the column's self-delimiting encodings and keeps them self-delimiting
     * (docs/format/row.md, "Descending key columns").
     */
    public KeyCodec(List<SqlType> types, List<Boolean> descending) {
        this.types = List.copyOf(types);
        if (descending != null && descending.size() != this.types.size()) {
            throw new IllegalArgumentException("key has " + this.types.size() + " columns and " + descending.size()
                    + " directions");
        }
        this.descending = new boolean[this.types.size()];
        boolean any = false;
        for (int columnIndex = 0; descending != null && columnIndex < this.descending.length; columnIndex++) {
            this.descending[columnIndex] = descending.get(columnIndex);
            any |= this.descending[columnIndex];
        }
        this.anyDescending = any;
        if (this.types.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
        int columnCount = this.types.size();
        physicalTypes = new PhysicalType[columnCount];
        labels = new String[columnCount];
        scales = new int[columnCount];
        characterLimits = new int[columnCount];
        for (int columnIndex = 0; columnIndex < columnCount; columnIndex++) {
            SqlType type = this.types.get(columnIndex);
            physicalTypes[columnIndex] = PhysicalType.of(type);
            labels[columnIndex] = "key column " + columnIndex + " " + type.sqlName();
            scales[columnIndex] = type instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
            characterLimits[columnIndex] = ColumnValues.characterLimit(type);
        }
    }

    public static KeyCodec of(SqlType... types) {
        return new KeyCodec(List.of(types));
    }

    public List<SqlType> types() {
        return types;
    }

    /**
     * The bytes of {@code key}'s encoding.
     *
     * @throws ColumbaException WRONG_TYPE, STRING_TOO_LONG, VALUE_OUT_OF_RANGE or INVALID_ARGUMENT
     *     (a string that is not Unicode) naming the key column and the value; KEY_TOO_LARGE beyond
     *     2^31 - 9 bytes
     */
    public int encodedLength(Object[] key) {
        checkArity(key);
        return checkedLength(measure(key, key.length));
    }

    /**
     * Writes {@code key} at {@code offset} of {@code target}; every value is checked before the
     * first byte is written.
     *
     * @return the bytes written, {@link #encodedLength(Object[])}
     * @throws IllegalArgumentException when the key does not fit in {@code target} at {@code offset}
     */
    public int encode(Object[] key, MemorySegment target, long offset) {
        checkArity(key);
        int length = checkedLength(measure(key, key.length));
        if (offset < 0 || offset > target.byteSize() - length) {
            throw new IllegalArgumentException("a key of " + length + " bytes does not fit at offset " + offset
                    + " of a segment of " + target.byteSize() + " bytes");
        }
        write(key, key.length, target, offset);
        return length;
    }

    public byte[] encode(Object[] key) {
        checkArity(key);
        return encodePrefix(key, 0);
    }

    /**
     * The key of row {@code row} of {@code columns}, key column {@code k} being column
     * {@code keyColumns[k]}: the bytes {@link #encode(Object[])} makes of the same values, checked
     * the same way, read from the columns' primitive forms with no Java object per value.
     */
    public byte[] encode(RowColumns columns, int[] keyColumns, int row) {
        if (keyColumns.length != types.size()) {
            throw new IllegalArgumentException("key has " + keyColumns.length + " columns, index has " + types.size());
        }
        long length = keyColumns.length;
        for (int columnIndex = 0; columnIndex < keyColumns.length; columnIndex++) {
            int column = keyColumns[columnIndex];
            if (columns.isNull(column, row)) {
                continue;
            }
            String label = labels[columnIndex];
            length += switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> 1;
                case INT, DATE -> Integer.BYTES;
                case BIGINT, TIMESTAMP, DOUBLE -> Long.BYTES;
                case DECIMAL64 -> {
                    ColumnValues.checkUnscaled(columns.longValue(column, row), decimalType(columnIndex), label);
                    yield Long.BYTES;
                }
                case DECIMAL128 -> {
                    decimal(columnIndex, columns.value(column, row));
                    yield 2 * Long.BYTES;
                }
                case VARCHAR, CHAR -> {
                    byte[] bytes = columns.bytes(column);
                    int start = columns.valueStart(column, row);
                    int end = columns.valueEnd(column, row);
                    boolean isChar = physicalTypes[columnIndex] == PhysicalType.CHAR;
                    int characters = ColumnValues.utf8Characters(bytes, start, end, characterLimits[columnIndex], isChar,
                            label);
                    long stored = end - start + zeros(bytes, start, end) + 2;
                    yield isChar ? stored + characterLimits[columnIndex] - characters : stored;
                }
                case VARBINARY, BINARY -> binaryLength(columnIndex, columns.value(column, row));
                case UUID -> {
                    ColumnValues.uuid(columns.value(column, row), label);
                    yield PhysicalType.UUID.width();
                }
            };
        }
        byte[] key = new byte[checkedLength(length)];
        int position = 0;
        for (int columnIndex = 0; columnIndex < keyColumns.length; columnIndex++) {
            int column = keyColumns[columnIndex];
            if (columns.isNull(column, row)) {
                key[position++] = KEY_NULL;
                continue;
            }
            key[position++] = KEY_VALUE;
            switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> key[position++] = (byte) (columns.longValue(column, row) != 0 ? 1 : 0);
                case INT, DATE -> {
                    ARRAY_INT.set(key, position, (int) columns.longValue(column, row) ^ Integer.MIN_VALUE);
                    position += Integer.BYTES;
                }
                case BIGINT, TIMESTAMP, DECIMAL64 -> {
                    ARRAY_LONG.set(key, position, columns.longValue(column, row) ^ Long.MIN_VALUE);
                    position += Long.BYTES;
                }
                case DOUBLE -> {
                    double number = columns.doubleValue(column, row);
                    long bits = Double.doubleToLongBits(number == 0.0 ? 0.0 : number);
                    ARRAY_LONG.set(key, position, bits ^ (bits >> (Long.SIZE - 1) | Long.MIN_VALUE));
                    position += Long.BYTES;
                }
                case DECIMAL128 -> {
                    BigDecimal decimal = decimal(columnIndex, columns.value(column, row));
                    ARRAY_LONG.set(key, position, ColumnValues.unscaledHigh(decimal) ^ Long.MIN_VALUE);
                    ARRAY_LONG.set(key, position + Long.BYTES, ColumnValues.unscaledLow(decimal));
                    position += 2 * Long.BYTES;
                }
                case VARCHAR, CHAR -> {
                    byte[] bytes = columns.bytes(column);
                    int start = columns.valueStart(column, row);
                    int end = columns.valueEnd(column, row);
                    for (int index = start; index < end; index++) {
                        byte next = bytes[index];
                        key[position++] = next;
                        if (next == 0) {
                            key[position++] = KEY_STRING_ESCAPED_ZERO;
                        }
                    }
                    if (physicalTypes[columnIndex] == PhysicalType.CHAR) {
                        int padding = characterLimits[columnIndex] - Utf8.characters(bytes, start, end);
                        Arrays.fill(key, position, position + padding, (byte) ' ');
                        position += padding;
                    }
                    key[position++] = 0;
                    key[position++] = KEY_STRING_END;
                }
                case VARBINARY, BINARY, UUID -> position = (int) writeValue(columnIndex, columns.value(column, row),
                        MemorySegment.ofArray(key), position);
            }
        }
        invertDescending(MemorySegment.ofArray(key), 0, key.length, keyColumns.length);
        return key;
    }

    /** The 0x00 bytes of {@code bytes[start, end)}: each takes an escape byte in a key. */
    private static int zeros(byte[] bytes, int start, int end) {
        int zeros = 0;
        for (int index = start; index < end; index++) {
            if (bytes[index] == 0) {
                zeros++;
            }
        }
        return zeros;
    }

    private SqlType.DecimalType decimalType(int columnIndex) {
        return (SqlType.DecimalType) types.get(columnIndex);
    }

    /**
     * The smallest encoding of a key starting with the values {@code prefix} (any number from 0 to
     * the key's column count): their own encoding, a byte prefix of every such key. Inclusive.
     */
    public byte[] prefixLowerBound(Object[] prefix) {
        checkPrefix(prefix);
        return encodePrefix(prefix, 0);
    }

    /**
     * An exclusive upper bound of the keys starting with the values {@code prefix}: every full key
     * {@code k} that starts with them has {@code prefixLowerBound(prefix) <= encode(k) <
     * prefixUpperBound(prefix)}, and every other key lies outside that range. It is the prefix's
     * encoding followed by a byte above both column markers; for a codec with a descending column,
     * the prefix's successor, or null (no upper bound) when the prefix is all 0xff bytes.
     */
    public byte[] prefixUpperBound(Object[] prefix) {
        checkPrefix(prefix);
        if (anyDescending) {
            // An inverted column's markers are 0xff and 0xfe, above KEY_PREFIX_UPPER: the bound is
            // the prefix's successor instead, its last byte below 0xff increased and what follows
            // dropped. Null when the prefix is all 0xff (no key lies above it).
            byte[] encoded = encodePrefix(prefix, 0);
            int last = encoded.length - 1;
            while (last >= 0 && encoded[last] == (byte) 0xff) {
                last--;
            }
            if (last < 0) {
                return null;
            }
            byte[] successor = Arrays.copyOf(encoded, last + 1);
            successor[last]++;
            return successor;
        }
        byte[] bound = encodePrefix(prefix, 1);
        bound[bound.length - 1] = RowFormat.KEY_PREFIX_UPPER;
        return bound;
    }

    /** The values of an encoded key; see the class comment for what the encoding does not keep. */
    public Object[] decode(byte[] key) {
        return decode(MemorySegment.ofArray(key), 0, key.length);
    }

    /**
     * The values of the key of {@code length} bytes at {@code offset}.
     *
     * @throws ColumbaException INDEX_CORRUPT when those bytes are not exactly one key
     */
    public Object[] decode(MemorySegment source, long offset, int length) {
        if (offset < 0 || length < 0 || offset > source.byteSize() - length) {
            throw corrupt(offset, "a key of " + length + " bytes does not fit in a segment of " + source.byteSize() + " bytes");
        }
        Object[] values = new Object[types.size()];
        long end = parse(source, offset, offset + length, values);
        if (end != offset + length) {
            throw corrupt(offset, (offset + length - end) + " bytes follow the last key column");
        }
        return values;
    }

    /**
     * The length of the key stored at {@code offset}, found by walking its columns.
     *
     * @throws ColumbaException INDEX_CORRUPT when no whole key starts there
     */
    public int encodedLength(MemorySegment source, long offset) {
        if (offset < 0 || offset > source.byteSize()) {
            throw corrupt(offset, "outside a segment of " + source.byteSize() + " bytes");
        }
        long end = parse(source, offset, source.byteSize(), null);
        return Math.toIntExact(end - offset);
    }

    // ---- Encoding internals --------------------------------------------------------------------

    private void checkArity(Object[] key) {
        if (key.length != types.size()) {
            throw new IllegalArgumentException("key has " + key.length + " values, index has " + types.size() + " columns");
        }
    }

    private void checkPrefix(Object[] prefix) {
        if (prefix.length > types.size()) {
            throw new IllegalArgumentException("prefix has " + prefix.length + " values, index has " + types.size() + " columns");
        }
    }

    private byte[] encodePrefix(Object[] values, int extraBytes) {
        int length = checkedLength(measure(values, values.length) + extraBytes);
        byte[] encoded = new byte[length];
        write(values, values.length, MemorySegment.ofArray(encoded), 0);
        return encoded;
    }

    private int checkedLength(long length) {
        if (length > RowFormat.MAX_KEY_BYTES) {
            throw new ColumbaException(ErrorCode.KEY_TOO_LARGE, "key of " + types.size() + " columns needs " + length
                    + " bytes, more than the format's " + RowFormat.MAX_KEY_BYTES);
        }
        return (int) length;
    }

    /** Checks the first {@code count} values and returns the bytes they encode to. */
    private long measure(Object[] values, int count) {
        long length = count;
        for (int columnIndex = 0; columnIndex < count; columnIndex++) {
            Object value = values[columnIndex];
            if (value == null) {
                continue;
            }
            String label = labels[columnIndex];
            length += switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> {
                    ColumnValues.booleanValue(value, label);
                    yield 1;
                }
                case INT -> {
                    ColumnValues.intValue(value, label);
                    yield Integer.BYTES;
                }
                case DATE -> {
                    ColumnValues.days(value, label);
                    yield Integer.BYTES;
                }
                case BIGINT -> {
                    ColumnValues.bigintValue(value, label);
                    yield Long.BYTES;
                }
                case TIMESTAMP -> {
                    ColumnValues.micros(value, label);
                    yield Long.BYTES;
                }
                case DOUBLE -> {
                    ColumnValues.doubleValue(value, label);
                    yield Long.BYTES;
                }
                case DECIMAL64, DECIMAL128 -> {
                    ColumnValues.decimal(value, (SqlType.DecimalType) types.get(columnIndex), label);
                    yield physicalTypes[columnIndex].width();
                }
                case VARCHAR -> {
                    String text = ColumnValues.string(value, characterLimits[columnIndex], label);
                    yield Utf8.length(text, true, label) + 2;
                }
                case CHAR -> {
                    String text = ColumnValues.string(value, characterLimits[columnIndex], label);
                    yield Utf8.length(text, true, label) + ColumnValues.padding(text, characterLimits[columnIndex]) + 2;
                }
                case VARBINARY, BINARY -> binaryLength(columnIndex, value);
                case UUID -> {
                    ColumnValues.uuid(value, label);
                    yield PhysicalType.UUID.width();
                }
            };
        }
        return length;
    }

    /** Writes the first {@code count} values, checked by {@link #measure}; returns the end offset. */
    private long write(Object[] values, int count, MemorySegment target, long offset) {
        long end = writeAscending(values, count, target, offset);
        invertDescending(target, offset, end, count);
        return end;
    }

    /**
     * Inverts the bytes of the descending columns among the first {@code count} of the key written
     * ascending at {@code [offset, end)}, walking it column by column.
     */
    private void invertDescending(MemorySegment target, long offset, long end, int count) {
        if (!anyDescending) {
            return;
        }
        long position = offset;
        for (int columnIndex = 0; columnIndex < count; columnIndex++) {
            long columnEnd = parseColumn(target, position, end, offset, columnIndex, null, (byte) 0);
            if (descending[columnIndex]) {
                for (long index = position; index < columnEnd; index++) {
                    target.set(ValueLayout.JAVA_BYTE, index, (byte) ~target.get(ValueLayout.JAVA_BYTE, index));
                }
            }
            position = columnEnd;
        }
    }

    private long writeAscending(Object[] values, int count, MemorySegment target, long offset) {
        long position = offset;
        for (int columnIndex = 0; columnIndex < count; columnIndex++) {
            Object value = values[columnIndex];
            if (value == null) {
                target.set(ValueLayout.JAVA_BYTE, position++, KEY_NULL);
                continue;
            }
            target.set(ValueLayout.JAVA_BYTE, position++, KEY_VALUE);
            String label = labels[columnIndex];
            switch (physicalTypes[columnIndex]) {
                case BOOLEAN -> target.set(ValueLayout.JAVA_BYTE, position++, (byte) (ColumnValues.booleanValue(value, label) ? 1 : 0));
                case INT -> position = putInt(target, position, ColumnValues.intValue(value, label));
                case DATE -> position = putInt(target, position, ColumnValues.days(value, label));
                case BIGINT -> position = putLong(target, position, ColumnValues.bigintValue(value, label));
                case TIMESTAMP -> position = putLong(target, position, ColumnValues.micros(value, label));
                case DOUBLE -> {
                    double number = ColumnValues.doubleValue(value, label);
                    // -0.0 == 0.0 in SQL; doubleToLongBits maps every NaN to the one canonical NaN.
                    long bits = Double.doubleToLongBits(number == 0.0 ? 0.0 : number);
                    // Positive: flip the sign bit, above all negatives. Negative: flip every bit, so
                    // larger magnitudes sort lower.
                    target.set(KEY_LONG, position, bits ^ (bits >> (Long.SIZE - 1) | Long.MIN_VALUE));
                    position += Long.BYTES;
                }
                case DECIMAL64 -> position = putLong(target, position, ColumnValues.unscaledLow(decimal(columnIndex, value)));
                case DECIMAL128 -> {
                    BigDecimal decimal = decimal(columnIndex, value);
                    // Two's complement 128-bit order: signed high half, then unsigned low half.
                    position = putLong(target, position, ColumnValues.unscaledHigh(decimal));
                    target.set(KEY_LONG, position, ColumnValues.unscaledLow(decimal));
                    position += Long.BYTES;
                }
                case VARCHAR, CHAR -> {
                    String text = (String) value;
                    position += Utf8.write(text, target, position, true, KEY_STRING_ESCAPED_ZERO);
                    if (physicalTypes[columnIndex] == PhysicalType.CHAR) {
                        int padding = ColumnValues.padding(text, characterLimits[columnIndex]);
                        Utf8.writeBlanks(target, position, padding);
                        position += padding;
                    }
                    target.set(ValueLayout.JAVA_BYTE, position++, (byte) 0);
                    target.set(ValueLayout.JAVA_BYTE, position++, KEY_STRING_END);
                }
                case VARBINARY, BINARY, UUID -> position = writeValue(columnIndex, value, target, position);
            }
        }
        return position;
    }

    /**
     * The key bytes of a checked binary string (escaped as a string's bytes are, BINARY padded with
     * zero bytes, then the terminator) or UUID (its 16 bytes, most significant first: unsigned byte
     * order is the UUID's order).
     */
    private long writeValue(int columnIndex, Object value, MemorySegment target, long start) {
        long position = start;
        if (physicalTypes[columnIndex] == PhysicalType.UUID) {
            java.util.UUID uuid = (java.util.UUID) value;
            target.set(KEY_LONG, position, uuid.getMostSignificantBits());
            target.set(KEY_LONG, position + Long.BYTES, uuid.getLeastSignificantBits());
            return position + PhysicalType.UUID.width();
        }
        byte[] bytes = (byte[]) value;
        int stored = physicalTypes[columnIndex] == PhysicalType.BINARY ? characterLimits[columnIndex] : bytes.length;
        for (int index = 0; index < stored; index++) {
            byte next = index < bytes.length ? bytes[index] : 0;
            target.set(ValueLayout.JAVA_BYTE, position++, next);
            if (next == 0) {
                target.set(ValueLayout.JAVA_BYTE, position++, KEY_STRING_ESCAPED_ZERO);
            }
        }
        target.set(ValueLayout.JAVA_BYTE, position++, (byte) 0);
        target.set(ValueLayout.JAVA_BYTE, position++, KEY_STRING_END);
        return position;
    }

    /** Checks a VARBINARY or BINARY key value and returns its key bytes as {@link #writeValue} writes them. */
    private long binaryLength(int columnIndex, Object value) {
        byte[] bytes = ColumnValues.binary(value, characterLimits[columnIndex], labels[columnIndex]);
        int stored = physicalTypes[columnIndex] == PhysicalType.BINARY ? characterLimits[columnIndex] : bytes.length;
        // Each zero byte, the padding's included, takes an escape byte; the terminator two.
        int zeros = zeros(bytes, 0, bytes.length) + stored - bytes.length;
        return (long) stored + zeros + 2;
    }

    private BigDecimal decimal(int columnIndex, Object value) {
        return ColumnValues.decimal(value, (SqlType.DecimalType) types.get(columnIndex), labels[columnIndex]);
    }

    /** Signed to unsigned order: flip the sign bit, big-endian. */
    private static long putInt(MemorySegment target, long position, int value) {
        target.set(KEY_INT, position, value ^ Integer.MIN_VALUE);
        return position + Integer.BYTES;
    }

    private static long putLong(MemorySegment target, long position, long value) {
        target.set(KEY_LONG, position, value ^ Long.MIN_VALUE);
        return position + Long.BYTES;
    }

    // ---- Decoding internals --------------------------------------------------------------------

    /**
     * Walks one key from {@code offset}, never reading at or past {@code limit}, and returns where
     * it ends; fills {@code values} when not null.
     */
    private long parse(MemorySegment source, long offset, long limit, Object[] values) {
        long position = offset;
        for (int columnIndex = 0; columnIndex < physicalTypes.length; columnIndex++) {
            position = parseColumn(source, position, limit, offset, columnIndex, values,
                    descending[columnIndex] ? (byte) 0xff : 0);
        }
        return position;
    }

    /**
     * Walks key column {@code columnIndex} from {@code position}, each byte read XOR {@code flip}
     * (0xff for an inverted, descending column); returns where it ends and fills
     * {@code values[columnIndex]} when {@code values} is not null.
     */
    private long parseColumn(MemorySegment source, long start, long limit, long offset, int columnIndex, Object[] values,
                             byte flip) {
        long position = start;
        int flipInt = flip == 0 ? 0 : -1;
        long flipLong = flipInt;
        require(position, 1, limit, offset, columnIndex);
        byte marker = (byte) (source.get(ValueLayout.JAVA_BYTE, position++) ^ flip);
        if (marker == KEY_NULL) {
            return position;
        }
        if (marker != KEY_VALUE) {
            throw corrupt(offset, labels[columnIndex] + " starts with byte 0x" + Integer.toHexString(marker & 0xFF)
                    + " at " + (position - 1) + ", not a NULL or value marker");
        }
        PhysicalType physical = physicalTypes[columnIndex];
        if (physical.variableLength()) {
            return parseString(source, position, limit, offset, columnIndex, values, flip);
        }
        require(position, physical.width(), limit, offset, columnIndex);
        if (values != null) {
            values[columnIndex] = switch (physical) {
                case BOOLEAN -> {
                    byte bool = (byte) (source.get(ValueLayout.JAVA_BYTE, position) ^ flip);
                    if (bool != 0 && bool != 1) {
                        throw corrupt(offset, labels[columnIndex] + " holds byte " + bool + " at " + position + ", not 0 or 1");
                    }
                    yield bool == 1;
                }
                case INT -> source.get(KEY_INT, position) ^ flipInt ^ Integer.MIN_VALUE;
                case DATE -> Values.daysToDate(source.get(KEY_INT, position) ^ flipInt ^ Integer.MIN_VALUE);
                case BIGINT -> source.get(KEY_LONG, position) ^ flipLong ^ Long.MIN_VALUE;
                case TIMESTAMP -> Values.microsToTimestamp(source.get(KEY_LONG, position) ^ flipLong ^ Long.MIN_VALUE);
                case DOUBLE -> {
                    long bits = source.get(KEY_LONG, position) ^ flipLong;
                    yield Double.longBitsToDouble(bits ^ (~bits >> (Long.SIZE - 1) | Long.MIN_VALUE));
                }
                case DECIMAL64 -> BigDecimal.valueOf(source.get(KEY_LONG, position) ^ flipLong ^ Long.MIN_VALUE,
                        scales[columnIndex]);
                case DECIMAL128 -> ColumnValues.decimalOf(source.get(KEY_LONG, position) ^ flipLong ^ Long.MIN_VALUE,
                        source.get(KEY_LONG, position + Long.BYTES) ^ flipLong, scales[columnIndex]);
                case UUID -> new java.util.UUID(source.get(KEY_LONG, position) ^ flipLong,
                        source.get(KEY_LONG, position + Long.BYTES) ^ flipLong);
                case VARCHAR, CHAR, VARBINARY, BINARY -> throw new IllegalStateException(labels[columnIndex] + " is variable-length");
            };
        }
        return position + physical.width();
    }

    /** Walks an escaped, terminated string from {@code start}; returns the position after it. */
    private long parseString(MemorySegment source, long start, long limit, long keyOffset, int columnIndex, Object[] values,
                             byte flip) {
        long position = start;
        long unescapedLength = 0;
        while (true) {
            require(position, 1, limit, keyOffset, columnIndex);
            if ((source.get(ValueLayout.JAVA_BYTE, position++) ^ flip) == 0) {
                require(position, 1, limit, keyOffset, columnIndex);
                byte escape = (byte) (source.get(ValueLayout.JAVA_BYTE, position++) ^ flip);
                if (escape == KEY_STRING_END) {
                    break;
                }
                if (escape != KEY_STRING_ESCAPED_ZERO) {
                    throw corrupt(keyOffset, labels[columnIndex] + " has byte 0x00 followed by 0x"
                            + Integer.toHexString(escape & 0xFF) + " at " + (position - 1) + ", neither escape nor end");
                }
            }
            unescapedLength++;
        }
        if (values != null) {
            if (unescapedLength > RowFormat.MAX_KEY_BYTES) {
                throw corrupt(keyOffset, labels[columnIndex] + " holds " + unescapedLength + " bytes");
            }
            byte[] utf8 = new byte[(int) unescapedLength];
            long read = start;
            for (int index = 0; index < utf8.length; index++) {
                byte next = (byte) (source.get(ValueLayout.JAVA_BYTE, read++) ^ flip);
                if (next == 0) {
                    read++;
                }
                utf8[index] = next;
            }
            PhysicalType physical = physicalTypes[columnIndex];
            values[columnIndex] = physical == PhysicalType.VARBINARY || physical == PhysicalType.BINARY
                    ? utf8 : new String(utf8, StandardCharsets.UTF_8);
        }
        return position;
    }

    private void require(long position, int bytes, long limit, long keyOffset, int columnIndex) {
        if (position > limit - bytes) {
            throw corrupt(keyOffset, labels[columnIndex] + " needs " + bytes + " bytes at " + position
                    + " but the key ends at " + limit);
        }
    }

    private static ColumbaException corrupt(long keyOffset, String detail) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, "corrupt key at offset " + keyOffset + ": " + detail);
    }
}
