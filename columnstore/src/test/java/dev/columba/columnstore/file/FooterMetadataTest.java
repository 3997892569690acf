package dev.columba.columnstore.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * A segment's footer metadata (rowgroup-file.md): version 1 entries as the first format wrote them
 * still read; version 2 adds the fallback reason HIGH_CARDINALITY, which version 1 cannot hold;
 * version 3 appends the segment's value runs, which older entries read as 0 (not counted).
 */
class FooterMetadataTest {
    /**
     * An INT segment's entry, written by hand from the spec (version 1 as the first format wrote
     * it): version, encoding 5 (PLAIN), not archived, the fallback reason, 3 rows, 1 NULL, 40
     * encoded bytes, dictionaries -1 / -1, min 5 and max 9 as keys of 5 bytes (0x01, then the value
     * big-endian with its sign bit flipped), the builder's dictionary 0 bytes / 0 entries.
     */
    private static byte[] entry(int version, int fallback) {
        String hex = String.format("%02x0500%02x", version, fallback)
                + "00000003" + "00000001" + "0000000000000028" + "ffffffff" + "ffffffff"
                + "00000005" + "0180000005" + "00000005" + "0180000009"
                + "0000000000000000" + "00000000";
        return HexFormat.of().parseHex(hex);
    }

    /** The same entry in version 3: two value runs (5, then 9) appended as an i32. */
    private static byte[] versionThree(int runs) {
        byte[] older = entry(3, 0);
        byte[] entry = java.util.Arrays.copyOf(older, older.length + 4);
        java.nio.ByteBuffer.wrap(entry).putInt(older.length, runs);
        return entry;
    }

    @Test
    void versionThreeHoldsTheValueRunsAndOlderVersionsHaveNone() {
        FooterMetadata.Entry entry = FooterMetadata.decodeEntry(versionThree(2), SqlType.INT, "golden");
        assertEquals(2, entry.valueRuns());
        assertEquals(new SegmentMetadata(EncodingKind.PLAIN, false, 3, 1, 5, 9, 40, -1, -1, FallbackReason.NONE),
                entry.segment());
        assertEquals(0, FooterMetadata.decodeEntry(entry(2, 0), SqlType.INT, "golden").valueRuns());
        byte[] written = FooterMetadata.encode(entry.segment(), SqlType.INT, 0, 0, 2);
        assertEquals(HexFormat.of().formatHex(versionThree(2)), HexFormat.of().formatHex(written), "the golden bytes");
        ColumbaException tooMany = assertThrows(ColumbaException.class,
                () -> FooterMetadata.decodeEntry(versionThree(4), SqlType.INT, "golden"));
        assertEquals(ErrorCode.INDEX_CORRUPT, tooMany.errorCode());
        assertTrue(tooMany.getMessage().contains("golden: 4 value runs in a segment of 3 rows"), tooMany.getMessage());
    }

    @Test
    void readsVersionOne() {
        SegmentMetadata metadata = FooterMetadata.decode(entry(1, 1), SqlType.INT, "golden");
        assertEquals(new SegmentMetadata(EncodingKind.PLAIN, false, 3, 1, 5, 9, 40, -1, -1,
                FallbackReason.DICTIONARY_OVERFLOW), metadata);
    }

    @Test
    void versionOneHasNoHighCardinality() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> FooterMetadata.decode(entry(1, 2), SqlType.INT, "golden"));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode());
        assertTrue(error.getMessage().contains("golden: unknown fallback reason 2 in segment metadata version 1"),
                error.getMessage());
    }

    @Test
    void versionTwoHoldsHighCardinality() {
        assertEquals(FallbackReason.HIGH_CARDINALITY,
                FooterMetadata.decode(entry(2, 2), SqlType.INT, "golden").fallbackReason());
        SegmentMetadata metadata = new SegmentMetadata(EncodingKind.PLAIN, false, 3, 1, 5, 9, 40, -1, -1,
                FallbackReason.HIGH_CARDINALITY);
        byte[] written = FooterMetadata.encode(metadata, SqlType.INT);
        assertEquals(FooterMetadata.VERSION, written[0]);
        assertEquals(metadata, FooterMetadata.decode(written, SqlType.INT, "written"));
    }

    @Test
    void refusesVersionsItDoesNotKnow() {
        assertEquals(ErrorCode.FORMAT_TOO_NEW, assertThrows(ColumbaException.class,
                () -> FooterMetadata.decode(entry(4, 0), SqlType.INT, "golden")).errorCode());
        assertEquals(ErrorCode.INDEX_CORRUPT, assertThrows(ColumbaException.class,
                () -> FooterMetadata.decode(entry(0, 0), SqlType.INT, "golden")).errorCode());
        assertEquals(ErrorCode.INDEX_CORRUPT, assertThrows(ColumbaException.class,
                () -> FooterMetadata.decode(entry(2, 3), SqlType.INT, "golden")).errorCode());
    }
}
