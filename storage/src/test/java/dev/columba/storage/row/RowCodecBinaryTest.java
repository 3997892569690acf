package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * VARBINARY, BINARY and UUID in the row format (row.md) and the compressed record
 * (compressed-row.md): values round-trip as their canonical form (BINARY zero-padded), a long
 * binary string moves out of row and back, and bad values fail before a byte is written.
 */
class RowCodecBinaryTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final UUID ID = UUID.fromString("0b9e3f0a-6c1d-4a57-9a5e-2f1c3d4e5f60");
    private static final TableSchema SCHEMA = TableSchema.of(Column.notNull("id", SqlType.INT),
            Column.nullable("b", SqlType.varbinary(100_000)), Column.nullable("f", SqlType.binary(4)),
            Column.nullable("u", SqlType.UUID));

    private final RowCodec codec = new RowCodec(SCHEMA);

    @Test
    void valuesRoundTripInCanonicalForm() {
        Object[] row = {7, HEX.parseHex("00ff00"), HEX.parseHex("01"), ID};
        byte[] encoded = codec.encode(row);
        Object[] decoded = codec.decode(MemorySegment.ofArray(encoded), 0);
        assertArrayEquals(new Object[] {7, HEX.parseHex("00ff00"), HEX.parseHex("01000000"), ID}, decoded);
        // The UUID's 16 bytes lie in the fixed section, most significant first.
        assertEquals("0b9e3f0a6c1d4a579a5e2f1c3d4e5f60", HEX.formatHex(encoded).substring(2 * 8, 2 * 24));
        Object[] nulls = codec.decode(MemorySegment.ofArray(codec.encode(new Object[] {1, null, null, null})), 0);
        assertArrayEquals(new Object[] {1, null, null, null}, nulls);
        Object[] empty = codec.decode(MemorySegment.ofArray(codec.encode(new Object[] {1, new byte[0], new byte[0], ID})), 0);
        assertArrayEquals(new Object[] {1, new byte[0], new byte[4], ID}, empty);
    }

    @Test
    void compressedRecordsRoundTrip() {
        CompressedRowCodec compressed = new CompressedRowCodec(codec);
        Object[] row = {7, HEX.parseHex("00ff00"), HEX.parseHex("0102"), ID};
        CompressedRowCodec.ColumnBytes columns = compressed.newColumns();
        compressed.fromRow(MemorySegment.ofArray(codec.encode(row)), 0, columns);
        CompressedRowCodec.RowBuffer buffer = new CompressedRowCodec.RowBuffer();
        int length = compressed.toRow(columns, buffer);
        Object[] decoded = codec.decode(buffer.segment().asSlice(0, length), 0);
        assertArrayEquals(new Object[] {7, HEX.parseHex("00ff00"), HEX.parseHex("01020000"), ID}, decoded);
    }

    @Test
    void aLongBinaryStringMovesOutOfRowAndBack() {
        byte[] large = new byte[20_000];
        for (int index = 0; index < large.length; index++) {
            large[index] = (byte) index;
        }
        Object[] row = {1, large, null, ID};
        int[] moved = codec.columnsToMoveOutOfRow(row, 8_000);
        assertArrayEquals(new int[] {1}, moved);
        byte[] lob = codec.lobBytes(1, large);
        assertArrayEquals(large, lob);
        assertArrayEquals(large, (byte[]) codec.valueFromLobBytes(1, lob));
    }

    @Test
    void badValuesFailBeforeWriting() {
        ColumbaException tooLong = assertThrows(ColumbaException.class,
                () -> codec.encode(new Object[] {1, null, new byte[5], null}));
        assertEquals(ErrorCode.STRING_TOO_LONG, tooLong.errorCode());
        ColumbaException text = assertThrows(ColumbaException.class,
                () -> codec.encode(new Object[] {1, "0a", null, null}));
        assertEquals(ErrorCode.WRONG_TYPE, text.errorCode());
        ColumbaException uuidText = assertThrows(ColumbaException.class,
                () -> codec.encode(new Object[] {1, null, null, ID.toString()}));
        assertEquals(ErrorCode.WRONG_TYPE, uuidText.errorCode());
    }
}
