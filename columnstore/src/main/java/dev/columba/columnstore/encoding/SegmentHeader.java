package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;

import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The checked header of a segment ({@code docs/format/segment.md}): what a reader, a dumper or
 * the rowgroup file can learn without decoding. Dictionary ids are -1 (and counts 0) when the
 * segment does not refer to that dictionary.
 */
public record SegmentHeader(int version, EncodingKind encoding, ValueKind kind, boolean hasNulls, boolean archived,
                            int rowCount, int nullCount,
                            int primaryDictionaryId, int primaryEntryCount,
                            int secondaryDictionaryId, int secondaryEntryCount) {

    /** The length of the header, dictionary references included. */
    public int headerBytes() {
        return encoding.usesDictionary() ? SegmentFormat.DICTIONARY_HEADER_BYTES : SegmentFormat.HEADER_BYTES;
    }

    /**
     * Reads and checks the header at the start of {@code bytes}.
     *
     * @param origin where the bytes come from (file, rowgroup, column), named in error messages
     * @throws ColumbaException FORMAT_TOO_NEW for a version above 1; INDEX_CORRUPT, naming the offset
     *     and value, for anything else that is not a well-formed header
     */
    public static SegmentHeader read(MemorySegment bytes, String origin) {
        long size = bytes.byteSize();
        if (size < SegmentFormat.HEADER_BYTES) {
            throw SegmentFormat.corrupt(origin, "segment of " + size + " bytes is shorter than its "
                    + SegmentFormat.HEADER_BYTES + "-byte header");
        }
        int magic = bytes.get(LE_INT, SegmentFormat.MAGIC_OFFSET);
        if (magic != SegmentFormat.MAGIC) {
            throw SegmentFormat.corrupt(origin, "bad segment magic 0x" + Integer.toHexString(magic) + " at offset "
                    + SegmentFormat.MAGIC_OFFSET);
        }
        int version = unsignedByte(bytes, SegmentFormat.VERSION_OFFSET);
        if (version > SegmentFormat.VERSION) {
            throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, origin + ": segment format version " + version
                    + " at offset " + SegmentFormat.VERSION_OFFSET + "; this build reads versions up to " + SegmentFormat.VERSION);
        }
        if (version < 1) {
            throw SegmentFormat.corrupt(origin, "segment format version " + version + " at offset " + SegmentFormat.VERSION_OFFSET);
        }
        int encodingCode = unsignedByte(bytes, SegmentFormat.ENCODING_OFFSET);
        EncodingKind encoding = EncodingKind.ofCode(encodingCode);
        if (encoding == null) {
            throw SegmentFormat.corrupt(origin, "unknown encoding " + encodingCode + " at offset " + SegmentFormat.ENCODING_OFFSET);
        }
        int kindCode = unsignedByte(bytes, SegmentFormat.KIND_OFFSET);
        ValueKind kind = ValueKind.ofCode(kindCode);
        if (kind == null) {
            throw SegmentFormat.corrupt(origin, "unknown value kind " + kindCode + " at offset " + SegmentFormat.KIND_OFFSET);
        }
        if (!Encoding.of(encoding).supports(kind)) {
            throw SegmentFormat.corrupt(origin, encoding + " encoding (offset " + SegmentFormat.ENCODING_OFFSET
                    + ") cannot hold " + kind + " values (offset " + SegmentFormat.KIND_OFFSET + ")");
        }
        int flags = unsignedByte(bytes, SegmentFormat.FLAGS_OFFSET);
        if ((flags & SegmentFormat.RESERVED_FLAGS) != 0) {
            throw SegmentFormat.corrupt(origin, "segment flags 0x" + Integer.toHexString(flags) + " at offset "
                    + SegmentFormat.FLAGS_OFFSET);
        }
        long rowCount = Integer.toUnsignedLong(bytes.get(LE_INT, SegmentFormat.ROW_COUNT_OFFSET));
        if (rowCount > SegmentFormat.MAX_ROWS) {
            throw SegmentFormat.corrupt(origin, "row count " + rowCount + " at offset " + SegmentFormat.ROW_COUNT_OFFSET
                    + " exceeds " + SegmentFormat.MAX_ROWS);
        }
        long nullCount = Integer.toUnsignedLong(bytes.get(LE_INT, SegmentFormat.NULL_COUNT_OFFSET));
        boolean hasNulls = (flags & SegmentFormat.FLAG_NULLS) != 0;
        if (nullCount > rowCount || hasNulls != (nullCount > 0)) {
            throw SegmentFormat.corrupt(origin, "null count " + nullCount + " at offset " + SegmentFormat.NULL_COUNT_OFFSET
                    + " with " + rowCount + " rows and flags 0x" + Integer.toHexString(flags));
        }
        int primaryId = SegmentMetadata.NO_DICTIONARY;
        int primaryCount = 0;
        int secondaryId = SegmentMetadata.NO_DICTIONARY;
        int secondaryCount = 0;
        if (encoding.usesDictionary()) {
            if (size < SegmentFormat.DICTIONARY_HEADER_BYTES) {
                throw SegmentFormat.corrupt(origin, "dictionary segment of " + size + " bytes is shorter than its "
                        + SegmentFormat.DICTIONARY_HEADER_BYTES + "-byte header");
            }
            primaryId = bytes.get(LE_INT, SegmentFormat.PRIMARY_ID_OFFSET);
            primaryCount = bytes.get(LE_INT, SegmentFormat.PRIMARY_COUNT_OFFSET);
            secondaryId = bytes.get(LE_INT, SegmentFormat.SECONDARY_ID_OFFSET);
            secondaryCount = bytes.get(LE_INT, SegmentFormat.SECONDARY_COUNT_OFFSET);
            checkReference(origin, "primary", primaryId, primaryCount, SegmentFormat.PRIMARY_ID_OFFSET);
            checkReference(origin, "secondary", secondaryId, secondaryCount, SegmentFormat.SECONDARY_ID_OFFSET);
            if ((long) primaryCount + secondaryCount > Integer.MAX_VALUE) {
                throw SegmentFormat.corrupt(origin, "dictionaries of " + primaryCount + " and " + secondaryCount
                        + " entries (offsets " + SegmentFormat.PRIMARY_COUNT_OFFSET + ", " + SegmentFormat.SECONDARY_COUNT_OFFSET
                        + ") exceed the id space");
            }
        }
        return new SegmentHeader(version, encoding, kind, hasNulls, (flags & SegmentFormat.FLAG_ARCHIVED) != 0,
                (int) rowCount, (int) nullCount, primaryId, primaryCount, secondaryId, secondaryCount);
    }

    private static void checkReference(String origin, String role, int id, int count, int offset) {
        boolean valid = id == SegmentMetadata.NO_DICTIONARY ? count == 0 : id >= 0 && count >= 0;
        if (!valid) {
            throw SegmentFormat.corrupt(origin, role + " dictionary " + id + " of " + count + " entries at offset " + offset);
        }
    }

    private static int unsignedByte(MemorySegment bytes, long offset) {
        return Byte.toUnsignedInt(bytes.get(ValueLayout.JAVA_BYTE, offset));
    }
}
