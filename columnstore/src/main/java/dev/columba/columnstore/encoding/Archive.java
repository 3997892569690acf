package dev.columba.columnstore.encoding;

import static dev.columba.columnstore.encoding.SegmentFormat.LE_INT;

import com.github.luben.zstd.Zstd;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Archival compression: zstd over a segment's payload (null bitmap and body), leaving the header
 * readable. Reading decompresses the whole payload to the heap first, the one place a segment is
 * copied off its mapping.
 */
final class Archive {
    private Archive() {
    }

    /**
     * The archived form of {@code segment} (whose payload starts at {@code payloadOffset}), or
     * {@code segment} itself when zstd does not make it smaller.
     */
    static byte[] archive(byte[] segment, int payloadOffset, int level) {
        byte[] payload = Arrays.copyOfRange(segment, payloadOffset, segment.length);
        byte[] compressed = Zstd.compress(payload, level);
        if (payloadOffset + SegmentFormat.ARCHIVE_LENGTH_BYTES + (long) compressed.length >= segment.length) {
            return segment;
        }
        byte[] archived = new byte[payloadOffset + SegmentFormat.ARCHIVE_LENGTH_BYTES + compressed.length];
        System.arraycopy(segment, 0, archived, 0, payloadOffset);
        MemorySegment view = MemorySegment.ofArray(archived);
        view.set(ValueLayout.JAVA_BYTE, SegmentFormat.FLAGS_OFFSET,
                (byte) (segment[SegmentFormat.FLAGS_OFFSET] | SegmentFormat.FLAG_ARCHIVED));
        view.set(LE_INT, payloadOffset, payload.length);
        System.arraycopy(compressed, 0, archived, payloadOffset + SegmentFormat.ARCHIVE_LENGTH_BYTES, compressed.length);
        return archived;
    }

    /** Decompresses the payload of an archived segment whose compressed part starts at {@code offset}. */
    static MemorySegment decompress(MemorySegment segment, long offset, String origin) {
        if (segment.byteSize() - offset < SegmentFormat.ARCHIVE_LENGTH_BYTES) {
            throw SegmentFormat.corrupt(origin, "archived segment of " + segment.byteSize()
                    + " bytes has no payload length at offset " + offset);
        }
        long length = Integer.toUnsignedLong(segment.get(LE_INT, offset));
        byte[] compressed = segment.asSlice(offset + SegmentFormat.ARCHIVE_LENGTH_BYTES).toArray(ValueLayout.JAVA_BYTE);
        long frameLength;
        try {
            frameLength = Zstd.getFrameContentSize(compressed);
        } catch (RuntimeException e) {
            throw SegmentFormat.corrupt(origin, "archived payload at offset " + (offset + SegmentFormat.ARCHIVE_LENGTH_BYTES)
                    + " is not a zstd frame: " + e.getMessage());
        }
        if (length > SegmentFormat.MAX_SEGMENT_BYTES || frameLength != length) {
            throw SegmentFormat.corrupt(origin, "archived payload length " + length + " at offset " + offset
                    + " disagrees with its zstd frame (" + frameLength + ")");
        }
        byte[] payload = new byte[(int) length];
        long written;
        try {
            written = Zstd.decompressByteArray(payload, 0, payload.length, compressed, 0, compressed.length);
        } catch (RuntimeException e) {
            throw SegmentFormat.corrupt(origin, "archived payload at offset " + (offset + SegmentFormat.ARCHIVE_LENGTH_BYTES)
                    + " does not decompress: " + e.getMessage());
        }
        if (Zstd.isError(written) || written != length) {
            throw SegmentFormat.corrupt(origin, "archived payload at offset " + (offset + SegmentFormat.ARCHIVE_LENGTH_BYTES)
                    + " does not decompress to " + length + " bytes: "
                    + (Zstd.isError(written) ? Zstd.getErrorName(written) : written + " bytes"));
        }
        return MemorySegment.ofArray(payload);
    }
}
