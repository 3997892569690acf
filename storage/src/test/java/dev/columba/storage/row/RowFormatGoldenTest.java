package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Version 1's bytes, pinned: the worked examples of {@code docs/format/row.md} must encode to
 * exactly these bytes and these bytes must decode to the examples. A failure here means the format
 * changed: bump the version and add a History entry, or undo the change.
 */
class RowFormatGoldenTest {
    private static final HexFormat HEX = HexFormat.of();

    private static final RowCodec ROWS = new RowCodec(TableSchema.of(
            Column.notNull("id", SqlType.INT),
            Column.nullable("name", SqlType.varchar(10)),
            Column.nullable("price", SqlType.decimal(10, 2)),
            Column.nullable("note", SqlType.varchar(20)),
            Column.nullable("flag", SqlType.BOOLEAN)));

    @Test
    void inRowExample() {
        assertGoldenRow("01" + "0500" + "08" + "07000000" + "e204000000000000" + "01" + "1800" + "1800" + "68c3a9",
                7, "hé", new BigDecimal("12.50"), null, true);
    }

    @Test
    void outOfRowExample() {
        assertGoldenRow("21" + "0500" + "14" + "08000000" + "0000000000000000" + "00" + "2600" + "2700" + "01"
                        + "0500000000000000" + "1e00000000000000" + "78",
                8, new LobRef(5, 30), null, "x", null);
    }

    @Test
    void keyExamples() {
        KeyCodec codec = KeyCodec.of(SqlType.INT, SqlType.varchar(5), SqlType.DOUBLE, SqlType.decimal(20, 2));
        assertGoldenKey(codec, "017fffffff" + "016100ff0001" + "018000000000000000" + "017fffffffffffffffffffffffffffff9c",
                -1, "a\0", 0.0, new BigDecimal("-1.00"));
        assertArrayEquals(codec.encode(new Object[] {-1, "a\0", -0.0, new BigDecimal("-1")}),
                codec.encode(new Object[] {-1, "a\0", 0.0, new BigDecimal("-1.00")}));
        assertGoldenKey(codec, "00" + "010001" + "01bff8000000000000" + "00", null, "", 1.5, null);
    }

    @Test
    void keyExamplesOfTheRemainingTypes() {
        KeyCodec codec = KeyCodec.of(SqlType.BOOLEAN, SqlType.BIGINT, SqlType.decimal(18, 0), SqlType.character(3), SqlType.DATE,
                SqlType.TIMESTAMP);
        assertGoldenKey(codec, "0101" + "017fffffffffffffff" + "018000000000000005" + "0161202000" + "01" + "0180000001"
                        + "018000000000000001",
                true, -1L, new BigDecimal("5"), "a  ", LocalDate.of(1970, 1, 2), LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000));
    }

    private static void assertGoldenRow(String hex, Object... row) {
        byte[] golden = HEX.parseHex(hex);
        assertEquals(hex, HEX.formatHex(ROWS.encode(row)));
        assertArrayEquals(row, ROWS.decode(MemorySegment.ofArray(golden), 0));
        assertEquals(golden.length, ROWS.rowLength(MemorySegment.ofArray(golden), 0));
    }

    private static void assertGoldenKey(KeyCodec codec, String hex, Object... key) {
        assertEquals(hex, HEX.formatHex(codec.encode(key)));
        assertArrayEquals(key, codec.decode(HEX.parseHex(hex)));
    }
}
