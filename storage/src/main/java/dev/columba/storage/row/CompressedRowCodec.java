package dev.columba.storage.row;

import static dev.columba.storage.row.RowFormat.FLAG_OUT_OF_ROW;
import static dev.columba.storage.row.RowFormat.FLAG_WIDE_OFFSETS;
import static dev.columba.storage.row.RowFormat.HEADER_BYTES;
import static dev.columba.storage.row.RowFormat.LOB_REF_BYTES;
import static dev.columba.storage.row.RowFormat.ROW_INT;
import static dev.columba.storage.row.RowFormat.ROW_LONG;
import static dev.columba.storage.row.RowFormat.ROW_SHORT;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * ROW- and PAGE-compressed records (SQL Server's data compression), specified in
 * {@code docs/format/compressed-row.md}: each value of a row is stored in as few bytes as it needs
 * (whole numbers without their leading sign bytes, doubles without trailing zero bytes, CHAR
 * without its padding) behind a four-bit code per column; PAGE compression adds, per page, one
 * anchor value per column whose prefix a value may share and a dictionary of repeated values
 * ({@link CompressionInfo}).
 *
 * <p>Records are transcoded from and to the uncompressed row format of {@link RowCodec} through
 * {@link ColumnBytes}, a row's values as their compressed byte strings, so every reader of rows
 * (scans, lookups, the index maintenance of deletes) keeps reading the row format it knows.
 * Thread-safe; the {@link ColumnBytes} and buffers it fills belong to their caller.
 */
public final class CompressedRowCodec {
    /** Code of a NULL value. */
    static final int CODE_NULL = 0;
    /** Codes 1..9: a value of (code - 1) bytes stored inline. */
    static final int CODE_SHORT_FIRST = 1;
    static final int SHORT_MAX_BYTES = 8;
    /** A value stored inline after a varint length. */
    static final int CODE_LONG = 10;
    /** A value sharing a prefix with its column's anchor: u8 prefix length, varint suffix length, suffix. */
    static final int CODE_PREFIX = 11;
    /** A value of the page dictionary: varint entry number. */
    static final int CODE_DICTIONARY = 12;
    /** An out-of-row reference: 16 bytes (row.md's LobRef). */
    static final int CODE_OUT_OF_ROW = 13;
    /** Anchors and prefixes are at most this long: the prefix length is a u8. */
    static final int MAX_PREFIX = 255;
    /** Version of the compression-info block this code writes and reads. */
    static final int COMPRESSION_INFO_VERSION = 1;
    /** Most dictionary entries a page's compression info holds. */
    static final int MAX_DICTIONARY_ENTRIES = 4096;

    private static final byte[] EMPTY = new byte[0];

    private final RowCodec rows;
    private final int columnCount;
    private final int descriptorBytes;

    public CompressedRowCodec(RowCodec rows) {
        this.rows = rows;
        this.columnCount = rows.columnCount();
        this.descriptorBytes = (columnCount + 1) >>> 1;
    }

    /**
     * The most a record can exceed the row it was made from ({@code ceil(n/2)} bytes: the
     * descriptor's nibbles where the row has a 3-byte header and a null bitmap, and varint lengths
     * of at most two bytes for values a page holds where the row has two-byte end offsets).
     */
    public int maxGrowth() {
        return descriptorBytes;
    }

    /** A row's values as compressed byte strings; reused by the caller from row to row. */
    public static final class ColumnBytes {
        /** Per column, its value's bytes (see the spec's "Values"), or null for NULL. */
        final byte[][] values;
        /** Per column, whether its bytes are an out-of-row reference. */
        final boolean[] outOfRow;

        ColumnBytes(int columnCount) {
            values = new byte[columnCount][];
            outOfRow = new boolean[columnCount];
        }

        /** A copy that stays valid after the original is reused. */
        public ColumnBytes copy() {
            ColumnBytes copy = new ColumnBytes(values.length);
            System.arraycopy(values, 0, copy.values, 0, values.length);
            System.arraycopy(outOfRow, 0, copy.outOfRow, 0, outOfRow.length);
            return copy;
        }
    }

    public ColumnBytes newColumns() {
        return new ColumnBytes(columnCount);
    }

    // ---- Uncompressed row <-> values ----------------------------------------------------------

    /** Reads the row at {@code rowOffset} (row format, checked) into {@code out}. */
    public void fromRow(MemorySegment source, long rowOffset, ColumnBytes out) {
        int flags = rows.checkedHeader(source, rowOffset);
        for (int column = 0; column < columnCount; column++) {
            out.outOfRow[column] = false;
            if (rows.nullAt(source, rowOffset, column)) {
                out.values[column] = null;
                continue;
            }
            long position = rowOffset + rows.fixedOffset(column);
            out.values[column] = switch (rows.physicalType(column)) {
                case BOOLEAN -> wholeNumber(source.get(ValueLayout.JAVA_BYTE, position));
                case INT, DATE -> wholeNumber(source.get(ROW_INT, position));
                case BIGINT, TIMESTAMP, DECIMAL64 -> wholeNumber(source.get(ROW_LONG, position));
                case DOUBLE -> doubleBytes(source.get(ROW_LONG, position));
                case DECIMAL128 -> wholeNumber128(source.get(ROW_LONG, position + Long.BYTES), source.get(ROW_LONG, position));
                // A UUID's 16 bytes as they are: random bytes have no leading zeros to drop.
                case UUID -> source.asSlice(position, PhysicalType.UUID.width()).toArray(ValueLayout.JAVA_BYTE);
                case VARCHAR, CHAR, VARBINARY, BINARY -> {
                    long span = rows.checkedSpan(source, rowOffset, flags, column);
                    int start = (int) (span >>> 32);
                    int end = (int) span;
                    if (rows.outOfRowAt(source, rowOffset, flags, column)) {
                        out.outOfRow[column] = true;
                        yield source.asSlice(rowOffset + start, end - start).toArray(ValueLayout.JAVA_BYTE);
                    }
                    if (rows.physicalType(column) == PhysicalType.CHAR) {
                        while (end > start && source.get(ValueLayout.JAVA_BYTE, rowOffset + end - 1) == ' ') {
                            end--;
                        }
                    }
                    yield end == start ? EMPTY : source.asSlice(rowOffset + start, end - start).toArray(ValueLayout.JAVA_BYTE);
                }
            };
        }
    }

    /** A row buffer that grows; {@link #segment()} is valid until the next {@link #toRow}. */
    public static final class RowBuffer {
        private byte[] bytes = new byte[256];
        private MemorySegment segment = MemorySegment.ofArray(bytes);

        public MemorySegment segment() {
            return segment;
        }

        MemorySegment ensure(int size) {
            if (bytes.length < size) {
                bytes = new byte[Math.max(size, bytes.length * 2)];
                segment = MemorySegment.ofArray(bytes);
            }
            return segment;
        }
    }

    /** Writes {@code values} as a row (row format) at the start of {@code buffer}; returns its length. */
    public int toRow(ColumnBytes values, RowBuffer buffer) {
        int variableCount = rows.variableCount();
        long variableBytes = 0;
        boolean outOfRow = false;
        for (int column = 0; column < columnCount; column++) {
            byte[] value = values.values[column];
            if (value != null && rows.variableIndex(column) >= 0) {
                variableBytes += value.length;
                if (values.outOfRow[column]) {
                    outOfRow = true;
                } else if (rows.physicalType(column) == PhysicalType.CHAR) {
                    variableBytes += padding(value, rows.characterLimit(column));
                }
            }
        }
        long narrowSize = rows.offsetTableStart() + (long) variableCount * RowFormat.NARROW_OFFSET_BYTES
                + (outOfRow ? rows.outOfRowBitmapBytes() : 0) + variableBytes;
        boolean wide = narrowSize > RowFormat.MAX_NARROW_ROW_BYTES;
        int offsetBytes = wide ? RowFormat.WIDE_OFFSET_BYTES : RowFormat.NARROW_OFFSET_BYTES;
        long size = narrowSize + (long) variableCount * (offsetBytes - RowFormat.NARROW_OFFSET_BYTES);
        if (size > RowFormat.MAX_ROW_BYTES) {
            throw new ColumbaException(ErrorCode.ROW_TOO_LARGE, "a decompressed row of " + size + " bytes is too large");
        }
        MemorySegment target = buffer.ensure((int) size);
        target.asSlice(0, rows.offsetTableStart()).fill((byte) 0);
        target.set(ValueLayout.JAVA_BYTE, 0, (byte) (RowFormat.VERSION | (wide ? FLAG_WIDE_OFFSETS : 0)
                | (outOfRow ? FLAG_OUT_OF_ROW : 0)));
        target.set(ROW_SHORT, RowFormat.COLUMN_COUNT_OFFSET, (short) columnCount);
        long bitmap = rows.offsetTableStart() + (long) variableCount * offsetBytes;
        long data = bitmap;
        if (outOfRow) {
            target.asSlice(bitmap, rows.outOfRowBitmapBytes()).fill((byte) 0);
            data += rows.outOfRowBitmapBytes();
        }
        for (int column = 0; column < columnCount; column++) {
            byte[] value = values.values[column];
            if (value == null) {
                setBit(target, HEADER_BYTES, column);
            }
            int variableIndex = rows.variableIndex(column);
            if (variableIndex < 0) {
                if (value != null) {
                    writeFixed(column, value, target, rows.fixedOffset(column));
                }
                continue;
            }
            if (value != null) {
                MemorySegment.copy(value, 0, target, ValueLayout.JAVA_BYTE, data, value.length);
                data += value.length;
                if (values.outOfRow[column]) {
                    setBit(target, bitmap, variableIndex);
                } else if (rows.physicalType(column) == PhysicalType.CHAR) {
                    int padding = padding(value, rows.characterLimit(column));
                    target.asSlice(data, padding).fill((byte) ' ');
                    data += padding;
                }
            }
            long slot = rows.offsetTableStart() + (long) variableIndex * offsetBytes;
            if (wide) {
                target.set(ROW_INT, slot, (int) data);
            } else {
                target.set(ROW_SHORT, slot, (short) data);
            }
        }
        return (int) size;
    }

    private void writeFixed(int column, byte[] value, MemorySegment target, long position) {
        switch (rows.physicalType(column)) {
            case BOOLEAN -> target.set(ValueLayout.JAVA_BYTE, position, (byte) signExtended(value, 0, value.length));
            case INT, DATE -> target.set(ROW_INT, position, (int) signExtended(value, 0, value.length));
            case BIGINT, TIMESTAMP, DECIMAL64 -> target.set(ROW_LONG, position, signExtended(value, 0, value.length));
            case DOUBLE -> {
                long bits = 0;
                for (int index = 0; index < Long.BYTES; index++) {
                    bits = bits << 8 | (index < value.length ? value[index] & 0xFF : 0);
                }
                target.set(ROW_LONG, position, bits);
            }
            case DECIMAL128 -> {
                int lowBytes = Math.min(value.length, Long.BYTES);
                int highBytes = value.length - lowBytes;
                long low = unsigned(value, highBytes, lowBytes);
                long high;
                if (highBytes > 0) {
                    high = signExtended(value, 0, highBytes);
                } else {
                    // The low word alone: its sign extends into the high word.
                    low = signExtended(value, 0, lowBytes);
                    high = low < 0 ? -1 : 0;
                }
                target.set(ROW_LONG, position, low);
                target.set(ROW_LONG, position + Long.BYTES, high);
            }
            case UUID -> MemorySegment.copy(value, 0, target, ValueLayout.JAVA_BYTE, position, PhysicalType.UUID.width());
            case VARCHAR, CHAR, VARBINARY, BINARY -> throw new IllegalStateException("column " + column + " is not fixed-width");
        }
    }

    /** The blanks that pad {@code utf8} (CHAR's stored bytes without trailing blanks) to {@code limit} code points. */
    private static int padding(byte[] utf8, int limit) {
        int codePoints = 0;
        for (byte b : utf8) {
            if ((b & 0xC0) != 0x80) {
                codePoints++;
            }
        }
        return Math.max(0, limit - codePoints);
    }

    // ---- Records ------------------------------------------------------------------------------

    /** Encodes {@code values} as a record; {@code info} null for ROW compression (no anchor, no dictionary). */
    public byte[] encode(ColumnBytes values, CompressionInfo info) {
        byte[] record = new byte[recordCapacity(values)];
        int position = descriptorBytes;
        for (int column = 0; column < columnCount; column++) {
            byte[] value = values.values[column];
            int code;
            if (value == null) {
                code = CODE_NULL;
            } else if (values.outOfRow[column]) {
                code = CODE_OUT_OF_ROW;
                System.arraycopy(value, 0, record, position, LOB_REF_BYTES);
                position += LOB_REF_BYTES;
            } else {
                int inlineCost = inlineCost(value.length);
                int entry = info == null ? -1 : info.entryOf(value);
                int prefix = info == null ? 0 : info.sharedPrefix(column, value);
                int prefixCost = prefix == 0 ? Integer.MAX_VALUE : prefixCost(value.length - prefix);
                int dictionaryCost = entry < 0 ? Integer.MAX_VALUE : varintLength(entry);
                if (dictionaryCost < inlineCost && dictionaryCost <= prefixCost) {
                    code = CODE_DICTIONARY;
                    position = writeVarint(record, position, entry);
                } else if (prefixCost < inlineCost) {
                    code = CODE_PREFIX;
                    record[position++] = (byte) prefix;
                    position = writeVarint(record, position, value.length - prefix);
                    System.arraycopy(value, prefix, record, position, value.length - prefix);
                    position += value.length - prefix;
                } else if (value.length <= SHORT_MAX_BYTES) {
                    code = CODE_SHORT_FIRST + value.length;
                    System.arraycopy(value, 0, record, position, value.length);
                    position += value.length;
                } else {
                    code = CODE_LONG;
                    position = writeVarint(record, position, value.length);
                    System.arraycopy(value, 0, record, position, value.length);
                    position += value.length;
                }
            }
            record[column >>> 1] |= (byte) ((column & 1) == 0 ? code : code << 4);
        }
        return position == record.length ? record : Arrays.copyOf(record, position);
    }

    /** An upper bound of the record's length: every value inline. */
    private int recordCapacity(ColumnBytes values) {
        int capacity = descriptorBytes;
        for (int column = 0; column < columnCount; column++) {
            byte[] value = values.values[column];
            if (value != null) {
                capacity += values.outOfRow[column] ? LOB_REF_BYTES : inlineCost(value.length);
            }
        }
        return capacity;
    }

    /**
     * Decodes the record of {@code length} bytes at {@code offset} into {@code out}; {@code info}
     * is the page's compression info, or null when it has none. Every length is checked against
     * the record: damage is INDEX_CORRUPT, never an access outside it.
     */
    public void decode(MemorySegment source, long offset, int length, CompressionInfo info, ColumnBytes out) {
        if (length < descriptorBytes) {
            throw corrupt(offset, "record of " + length + " bytes is shorter than its " + descriptorBytes
                    + "-byte descriptor");
        }
        long end = offset + length;
        long position = offset + descriptorBytes;
        for (int column = 0; column < columnCount; column++) {
            int descriptor = source.get(ValueLayout.JAVA_BYTE, offset + (column >>> 1));
            int code = (column & 1) == 0 ? descriptor & 0x0F : descriptor >>> 4 & 0x0F;
            out.outOfRow[column] = false;
            switch (code) {
                case CODE_NULL -> out.values[column] = null;
                case CODE_LONG -> {
                    long lengthAndPosition = readVarint(source, position, end, offset);
                    int valueLength = (int) (lengthAndPosition >>> 32);
                    position = (int) lengthAndPosition + offset;
                    out.values[column] = bytes(source, position, valueLength, end, offset);
                    position += valueLength;
                }
                case CODE_PREFIX -> {
                    if (info == null || position >= end) {
                        throw corrupt(offset, "column " + column + " refers to an anchor the page does not have");
                    }
                    int prefix = source.get(ValueLayout.JAVA_BYTE, position++) & 0xFF;
                    byte[] anchor = info.anchor(column);
                    if (anchor == null || prefix == 0 || prefix > anchor.length) {
                        throw corrupt(offset, "column " + column + " shares " + prefix + " bytes of an anchor of "
                                + (anchor == null ? "none" : anchor.length + " bytes"));
                    }
                    long lengthAndPosition = readVarint(source, position, end, offset);
                    int suffix = (int) (lengthAndPosition >>> 32);
                    position = (int) lengthAndPosition + offset;
                    byte[] value = new byte[prefix + suffix];
                    System.arraycopy(anchor, 0, value, 0, prefix);
                    checkSpan(position, suffix, end, offset);
                    MemorySegment.copy(source, ValueLayout.JAVA_BYTE, position, value, prefix, suffix);
                    position += suffix;
                    out.values[column] = value;
                }
                case CODE_DICTIONARY -> {
                    long entryAndPosition = readVarint(source, position, end, offset);
                    int entry = (int) (entryAndPosition >>> 32);
                    position = (int) entryAndPosition + offset;
                    if (info == null || entry >= info.entryCount()) {
                        throw corrupt(offset, "column " + column + " refers to dictionary entry " + entry + " of "
                                + (info == null ? 0 : info.entryCount()));
                    }
                    out.values[column] = info.entry(entry);
                }
                case CODE_OUT_OF_ROW -> {
                    if (rows.variableIndex(column) < 0) {
                        throw corrupt(offset, "fixed-width column " + column + " holds an out-of-row reference");
                    }
                    out.values[column] = bytes(source, position, LOB_REF_BYTES, end, offset);
                    out.outOfRow[column] = true;
                    position += LOB_REF_BYTES;
                }
                default -> {
                    if (code > CODE_SHORT_FIRST + SHORT_MAX_BYTES) {
                        throw corrupt(offset, "column " + column + " has the undefined code " + code);
                    }
                    int valueLength = code - CODE_SHORT_FIRST;
                    out.values[column] = valueLength == 0 ? EMPTY : bytes(source, position, valueLength, end, offset);
                    position += valueLength;
                }
            }
            checkFits(column, out.values[column], out.outOfRow[column], offset);
        }
        if (position != end) {
            throw corrupt(offset, "record of " + length + " bytes ends at byte " + (position - offset));
        }
    }

    /** A fixed-width value longer than its type's bytes cannot be sign-extended back: damage. */
    private void checkFits(int column, byte[] value, boolean outOfRow, long offset) {
        if (value == null || outOfRow) {
            return;
        }
        int limit = switch (rows.physicalType(column)) {
            case BOOLEAN -> 1;
            case INT, DATE -> Integer.BYTES;
            case BIGINT, TIMESTAMP, DECIMAL64, DOUBLE -> Long.BYTES;
            case DECIMAL128 -> 2 * Long.BYTES;
            case UUID -> PhysicalType.UUID.width();
            case VARCHAR, CHAR, VARBINARY, BINARY -> Integer.MAX_VALUE;
        };
        if (value.length > limit || (rows.physicalType(column) == PhysicalType.UUID && value.length != limit)) {
            throw corrupt(offset, "column " + column + " holds " + value.length + " bytes, its type at most " + limit);
        }
        if (rows.physicalType(column) == PhysicalType.BOOLEAN && value.length == 1 && value[0] != 1) {
            throw corrupt(offset, "column " + column + " holds boolean byte " + value[0]);
        }
    }

    // ---- Compression info: anchors and dictionary ----------------------------------------------

    /**
     * A page's anchors (one value per column, or none) and dictionary of repeated values, chosen
     * for the page's rows by {@link #analyze} and stored in the page by {@link #write}. Immutable.
     */
    public static final class CompressionInfo {
        private final byte[][] anchors;
        private final byte[][] entries;
        private final java.util.Map<ByteString, Integer> numbers;

        CompressionInfo(byte[][] anchors, byte[][] entries) {
            this.anchors = anchors;
            this.entries = entries;
            this.numbers = new java.util.HashMap<>();
            for (int entry = 0; entry < entries.length; entry++) {
                numbers.putIfAbsent(new ByteString(entries[entry]), entry);
            }
        }

        byte[] anchor(int column) {
            return anchors[column];
        }

        byte[] entry(int number) {
            return entries[number];
        }

        public int entryCount() {
            return entries.length;
        }

        int entryOf(byte[] value) {
            Integer number = numbers.get(new ByteString(value));
            return number == null ? -1 : number;
        }

        /** Bytes {@code value} shares with its column's anchor, at most {@link #MAX_PREFIX}. */
        int sharedPrefix(int column, byte[] value) {
            byte[] anchor = anchors[column];
            return anchor == null ? 0 : commonPrefix(anchor, value);
        }

        /** The block's length in bytes. */
        public int byteLength() {
            int length = 2 + 1 + 2;
            for (byte[] anchor : anchors) {
                length += 1 + (anchor == null ? 0 : anchor.length);
            }
            length += varintLength(entries.length);
            for (byte[] entry : entries) {
                length += varintLength(entry.length) + entry.length;
            }
            return length;
        }

        /** Writes the block at {@code offset} (spec: "Compression info"). */
        public void write(MemorySegment target, long offset) {
            byte[] block = new byte[byteLength()];
            int position = 0;
            block[position++] = (byte) block.length;
            block[position++] = (byte) (block.length >>> 8);
            block[position++] = COMPRESSION_INFO_VERSION;
            block[position++] = (byte) anchors.length;
            block[position++] = (byte) (anchors.length >>> 8);
            for (byte[] anchor : anchors) {
                int length = anchor == null ? 0 : anchor.length;
                block[position++] = (byte) length;
                if (length > 0) {
                    System.arraycopy(anchor, 0, block, position, length);
                    position += length;
                }
            }
            position = writeVarint(block, position, entries.length);
            for (byte[] entry : entries) {
                position = writeVarint(block, position, entry.length);
                System.arraycopy(entry, 0, block, position, entry.length);
                position += entry.length;
            }
            MemorySegment.copy(block, 0, target, ValueLayout.JAVA_BYTE, offset, block.length);
        }
    }

    /** Reads the compression info block at {@code offset}, checked to lie within {@code source}. */
    public CompressionInfo readInfo(MemorySegment source, long offset) {
        long available = source.byteSize();
        if (offset < 0 || offset + 5 > available) {
            throw corrupt(offset, "compression info at " + offset + " does not fit in " + available + " bytes");
        }
        int length = Short.toUnsignedInt(source.get(ROW_SHORT, offset));
        long end = offset + length;
        if (length < 5 || end > available) {
            throw corrupt(offset, "compression info of " + length + " bytes at " + offset + " does not fit in "
                    + available + " bytes");
        }
        int version = source.get(ValueLayout.JAVA_BYTE, offset + 2) & 0xFF;
        if (version != COMPRESSION_INFO_VERSION) {
            throw new ColumbaException(version > COMPRESSION_INFO_VERSION ? ErrorCode.FORMAT_TOO_NEW : ErrorCode.INDEX_CORRUPT,
                    "compression info at offset " + offset + " has version " + version + ", this build reads "
                            + COMPRESSION_INFO_VERSION);
        }
        int columns = Short.toUnsignedInt(source.get(ROW_SHORT, offset + 3));
        if (columns != columnCount) {
            throw corrupt(offset, "compression info for " + columns + " columns, table has " + columnCount);
        }
        long position = offset + 5;
        byte[][] anchors = new byte[columnCount][];
        for (int column = 0; column < columnCount; column++) {
            checkSpan(position, 1, end, offset);
            int anchorLength = source.get(ValueLayout.JAVA_BYTE, position++) & 0xFF;
            anchors[column] = anchorLength == 0 ? null : bytes(source, position, anchorLength, end, offset);
            position += anchorLength;
        }
        long countAndPosition = readVarint(source, position, end, offset);
        int count = (int) (countAndPosition >>> 32);
        position = (int) countAndPosition + offset;
        if (count > MAX_DICTIONARY_ENTRIES) {
            throw corrupt(offset, "dictionary of " + count + " entries, at most " + MAX_DICTIONARY_ENTRIES);
        }
        byte[][] entries = new byte[count][];
        for (int entry = 0; entry < count; entry++) {
            long lengthAndPosition = readVarint(source, position, end, offset);
            int entryLength = (int) (lengthAndPosition >>> 32);
            position = (int) lengthAndPosition + offset;
            entries[entry] = bytes(source, position, entryLength, end, offset);
            position += entryLength;
        }
        if (position != end) {
            throw corrupt(offset, "compression info of " + length + " bytes ends at byte " + (position - offset));
        }
        return new CompressionInfo(anchors, entries);
    }

    /**
     * Chooses a page's anchors and dictionary for {@code rows}: per column, among up to eight
     * sampled values, the anchor whose shared prefixes save the most bytes over storing values
     * inline; then the values (of any column) that occur at least twice and save more bytes as
     * dictionary entries than their entry costs, the most saving first.
     */
    public CompressionInfo analyze(java.util.List<ColumnBytes> page) {
        byte[][] anchors = new byte[columnCount][];
        for (int column = 0; column < columnCount; column++) {
            anchors[column] = chooseAnchor(page, column);
        }
        CompressionInfo prefixesOnly = new CompressionInfo(anchors, new byte[0][]);
        java.util.Map<ByteString, int[]> savings = new java.util.LinkedHashMap<>();
        for (ColumnBytes row : page) {
            for (int column = 0; column < columnCount; column++) {
                byte[] value = row.values[column];
                if (value == null || row.outOfRow[column] || value.length < 2) {
                    continue;
                }
                int prefix = prefixesOnly.sharedPrefix(column, value);
                int cost = Math.min(inlineCost(value.length), prefix == 0 ? Integer.MAX_VALUE : prefixCost(value.length - prefix));
                int[] saving = savings.computeIfAbsent(new ByteString(value), key -> new int[2]);
                saving[0]++;
                saving[1] += cost - 1;
            }
        }
        java.util.List<java.util.Map.Entry<ByteString, int[]>> candidates = new java.util.ArrayList<>();
        for (var candidate : savings.entrySet()) {
            int[] saving = candidate.getValue();
            byte[] value = candidate.getKey().bytes();
            if (saving[0] >= 2 && saving[1] > varintLength(value.length) + value.length) {
                candidates.add(candidate);
            }
        }
        candidates.sort((left, right) -> Integer.compare(right.getValue()[1], left.getValue()[1]));
        int count = Math.min(candidates.size(), MAX_DICTIONARY_ENTRIES);
        byte[][] entries = new byte[count][];
        for (int entry = 0; entry < count; entry++) {
            entries[entry] = candidates.get(entry).getKey().bytes();
        }
        return new CompressionInfo(anchors, entries);
    }

    private static byte[] chooseAnchor(java.util.List<ColumnBytes> page, int column) {
        int samples = Math.min(8, page.size());
        byte[] best = null;
        long bestSaving = 0;
        for (int sample = 0; sample < samples; sample++) {
            ColumnBytes row = page.get((int) ((long) sample * page.size() / samples));
            byte[] candidate = row.values[column];
            if (candidate == null || row.outOfRow[column] || candidate.length < 2) {
                continue;
            }
            if (candidate.length > MAX_PREFIX) {
                candidate = Arrays.copyOf(candidate, MAX_PREFIX);
            }
            long saving = 0;
            for (ColumnBytes other : page) {
                byte[] value = other.values[column];
                if (value == null || other.outOfRow[column]) {
                    continue;
                }
                int prefix = commonPrefix(candidate, value);
                if (prefix > 0) {
                    saving += Math.max(0, inlineCost(value.length) - prefixCost(value.length - prefix));
                }
            }
            if (saving > bestSaving) {
                bestSaving = saving;
                best = candidate;
            }
        }
        return best;
    }

    // ---- Value bytes --------------------------------------------------------------------------

    /** A whole number as its fewest big-endian two's complement bytes (zero: none). */
    static byte[] wholeNumber(long value) {
        if (value == 0) {
            return EMPTY;
        }
        // The fewest bytes k whose sign extension gives the value: value >> (8k - 1) is 0 or -1.
        int length = 1;
        while (length < Long.BYTES && (value >> (8 * length - 1)) != 0 && (value >> (8 * length - 1)) != -1) {
            length++;
        }
        byte[] bytes = new byte[length];
        for (int index = 0; index < length; index++) {
            bytes[index] = (byte) (value >> (8 * (length - 1 - index)));
        }
        return bytes;
    }

    /** A 128-bit whole number ({@code high:low}) as its fewest big-endian two's complement bytes. */
    static byte[] wholeNumber128(long high, long low) {
        if (high == (low >> 63)) {
            return wholeNumber(low);
        }
        // The high word's bytes carry the sign: at least one, even for a high word of 0 under a low
        // word whose top bit is set.
        byte[] top = high == 0 ? new byte[1] : wholeNumber(high);
        byte[] bytes = new byte[top.length + Long.BYTES];
        System.arraycopy(top, 0, bytes, 0, top.length);
        for (int index = 0; index < Long.BYTES; index++) {
            bytes[top.length + index] = (byte) (low >> (8 * (Long.BYTES - 1 - index)));
        }
        return bytes;
    }

    /** A double's bits big-endian without trailing zero bytes ({@code 0.0}: none). */
    static byte[] doubleBytes(long bits) {
        int length = Long.BYTES;
        while (length > 0 && (bits & (0xFFL << (8 * (Long.BYTES - length)))) == 0) {
            length--;
        }
        byte[] bytes = new byte[length];
        for (int index = 0; index < length; index++) {
            bytes[index] = (byte) (bits >>> (8 * (Long.BYTES - 1 - index)));
        }
        return bytes;
    }

    private static long signExtended(byte[] value, int from, int length) {
        long result = length > 0 && value[from] < 0 ? -1 : 0;
        for (int index = 0; index < length; index++) {
            result = result << 8 | (value[from + index] & 0xFF);
        }
        return result;
    }

    private static long unsigned(byte[] value, int from, int length) {
        long result = 0;
        for (int index = 0; index < length; index++) {
            result = result << 8 | (value[from + index] & 0xFF);
        }
        return result;
    }

    static int commonPrefix(byte[] anchor, byte[] value) {
        int limit = Math.min(Math.min(anchor.length, value.length), MAX_PREFIX);
        int shared = 0;
        while (shared < limit && anchor[shared] == value[shared]) {
            shared++;
        }
        return shared;
    }

    private static int inlineCost(int length) {
        return length <= SHORT_MAX_BYTES ? length : varintLength(length) + length;
    }

    private static int prefixCost(int suffixLength) {
        return 1 + varintLength(suffixLength) + suffixLength;
    }

    static int varintLength(int value) {
        int length = 1;
        while ((value >>>= 7) != 0) {
            length++;
        }
        return length;
    }

    private static int writeVarint(byte[] target, int position, int value) {
        while ((value & ~0x7F) != 0) {
            target[position++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        target[position++] = (byte) value;
        return position;
    }

    /** A varint at {@code position} (before {@code end}): {@code value << 32 | (position after it - base)}. */
    private static long readVarint(MemorySegment source, long position, long end, long base) {
        int value = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            if (position >= end) {
                throw corrupt(base, "a length runs past the end of its record");
            }
            int b = source.get(ValueLayout.JAVA_BYTE, position++);
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (value < 0) {
                    break;
                }
                return (long) value << 32 | (position - base);
            }
        }
        throw corrupt(base, "a length does not fit 31 bits");
    }

    private static byte[] bytes(MemorySegment source, long position, int length, long end, long base) {
        checkSpan(position, length, end, base);
        return source.asSlice(position, length).toArray(ValueLayout.JAVA_BYTE);
    }

    private static void checkSpan(long position, int length, long end, long base) {
        if (length < 0 || position + length > end) {
            throw corrupt(base, length + " bytes at offset " + (position - base) + " run past the end at " + (end - base));
        }
    }

    private static void setBit(MemorySegment target, long bitmap, int bit) {
        long position = bitmap + (bit >>> 3);
        target.set(ValueLayout.JAVA_BYTE, position, (byte) (target.get(ValueLayout.JAVA_BYTE, position) | 1 << (bit & 7)));
    }

    private static ColumbaException corrupt(long offset, String detail) {
        return new ColumbaException(ErrorCode.INDEX_CORRUPT, "corrupt compressed record at offset " + offset + ": " + detail);
    }

    /** Bytes compared by content, as a hash key. */
    private record ByteString(byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof ByteString string && Arrays.equals(bytes, string.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
