package dev.columba.columnstore.file;

import dev.columba.columnstore.encoding.EncodedSegment;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.storage.row.KeyCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A column segment's metadata as the rowgroup file's footer stores it (rowgroup-file.md):
 * what elimination and {@code sys.column_store_segments} need without touching the segment.
 * Min and max are kept in the key encoding of the column's type.
 */
public final class FooterMetadata {
    /**
     * Version 2 added the fallback reason HIGH_CARDINALITY (2), version 3 the segment's value runs;
     * versions 1 and 2 are still read.
     */
    static final int VERSION = 3;
    /** The fallback reasons version 1 knew: NONE and DICTIONARY_OVERFLOW. */
    private static final int VERSION_1_REASONS = 2;
    private static final int ABSENT = -1;

    private FooterMetadata() {
    }

    /**
     * A segment's footer entry: its metadata; what the builder's dictionary for the column held
     * when the rowgroup closed — kept even when the encoder then chose not to store a dictionary,
     * because it is what decided whether the rowgroup was trimmed (the diagnostics need it); and
     * the runs of equal values the encoder counted ({@link EncodedSegment#valueRuns}), an upper
     * bound of the distinct values for the planner, 0 when not counted (and in versions 1 and 2).
     */
    public record Entry(SegmentMetadata segment, long builderDictionaryBytes, int builderDictionaryEntries,
                        int valueRuns) {
    }

    public static byte[] encode(SegmentMetadata metadata, SqlType type) {
        return encode(metadata, type, 0, 0, 0);
    }

    public static byte[] encode(SegmentMetadata metadata, SqlType type, long builderDictionaryBytes,
                                int builderDictionaryEntries, int valueRuns) {
        KeyCodec codec = KeyCodec.of(type);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeByte(metadata.encoding().code());
            out.writeBoolean(metadata.archived());
            out.writeByte(metadata.fallbackReason().ordinal());
            out.writeInt(metadata.rowCount());
            out.writeInt(metadata.nullCount());
            out.writeLong(metadata.encodedBytes());
            out.writeInt(metadata.primaryDictionaryId());
            out.writeInt(metadata.secondaryDictionaryId());
            writeValue(out, codec, metadata.min());
            writeValue(out, codec, metadata.max());
            out.writeLong(builderDictionaryBytes);
            out.writeInt(builderDictionaryEntries);
            out.writeInt(valueRuns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeValue(DataOutputStream out, KeyCodec codec, Object value) throws IOException {
        if (value == null) {
            out.writeInt(ABSENT);
            return;
        }
        byte[] encoded = codec.encode(new Object[] {value});
        out.writeInt(encoded.length);
        out.write(encoded);
    }

    /**
     * Reads a segment's metadata.
     *
     * @throws ColumbaException INDEX_CORRUPT or FORMAT_TOO_NEW naming {@code origin}
     */
    public static SegmentMetadata decode(byte[] bytes, SqlType type, String origin) {
        return decodeEntry(bytes, type, origin).segment();
    }

    /** Reads a segment's whole footer entry. */
    public static Entry decodeEntry(byte[] bytes, SqlType type, String origin) {
        KeyCodec codec = KeyCodec.of(type);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readUnsignedByte();
            if (version > VERSION) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, origin + ": segment metadata version " + version
                        + " is newer than this build (" + VERSION + ")");
            }
            if (version < 1) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": segment metadata version " + version
                        + " does not exist");
            }
            EncodingKind encoding = EncodingKind.ofCode(in.readUnsignedByte());
            boolean archived = in.readBoolean();
            int fallback = in.readUnsignedByte();
            if (fallback >= (version == 1 ? VERSION_1_REASONS : FallbackReason.values().length)) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": unknown fallback reason " + fallback
                        + " in segment metadata version " + version);
            }
            int rows = in.readInt();
            int nulls = in.readInt();
            long encodedBytes = in.readLong();
            int primary = in.readInt();
            int secondary = in.readInt();
            Object min = readValue(in, codec);
            Object max = readValue(in, codec);
            long builderBytes = in.readLong();
            int builderEntries = in.readInt();
            int valueRuns = version >= 3 ? in.readInt() : 0;
            if (valueRuns < 0 || valueRuns > rows) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": " + valueRuns + " value runs in a segment of "
                        + rows + " rows");
            }
            return new Entry(new SegmentMetadata(encoding, archived, rows, nulls, min, max, encodedBytes, primary, secondary,
                    FallbackReason.values()[fallback]), builderBytes, builderEntries, valueRuns);
        } catch (IOException | RuntimeException e) {
            if (e instanceof ColumbaException columba) {
                throw columba;
            }
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, origin + ": malformed segment metadata: " + e, e);
        }
    }

    private static Object readValue(DataInputStream in, KeyCodec codec) throws IOException {
        int length = in.readInt();
        if (length == ABSENT) {
            return null;
        }
        if (length < 0 || length > in.available()) {
            throw new IOException("bound of " + length + " bytes with " + in.available() + " left");
        }
        byte[] encoded = in.readNBytes(length);
        return codec.decode(encoded)[0];
    }
}
