package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ROW and PAGE compressed records (docs/format/compressed-row.md): every type's edge values,
 * NULLs, unicode and out-of-row references come back as the very row bytes they were made from,
 * through a record alone (ROW) and through a page's anchors and dictionary (PAGE); golden bytes
 * pin the format; damage is INDEX_CORRUPT.
 */
class CompressedRowCodecTest {

    /** Row format -> values -> record -> values -> row format, byte for byte; returns the records. */
    private static List<byte[]> assertRoundTrips(RowCodec rows, List<Object[]> input, boolean page) {
        CompressedRowCodec codec = new CompressedRowCodec(rows);
        List<byte[]> encoded = new ArrayList<>();
        List<CompressedRowCodec.ColumnBytes> values = new ArrayList<>();
        for (Object[] row : input) {
            byte[] bytes = rows.encode(row);
            encoded.add(bytes);
            CompressedRowCodec.ColumnBytes columns = codec.newColumns();
            codec.fromRow(MemorySegment.ofArray(bytes), 0, columns);
            values.add(columns);
        }
        CompressedRowCodec.CompressionInfo info = null;
        MemorySegment infoBytes = null;
        if (page) {
            CompressedRowCodec.CompressionInfo chosen = codec.analyze(values);
            byte[] block = new byte[chosen.byteLength() + 7];
            infoBytes = MemorySegment.ofArray(block);
            chosen.write(infoBytes, 7);
            info = codec.readInfo(infoBytes, 7);
        }
        List<byte[]> records = new ArrayList<>();
        CompressedRowCodec.RowBuffer buffer = new CompressedRowCodec.RowBuffer();
        CompressedRowCodec.ColumnBytes decoded = codec.newColumns();
        for (int index = 0; index < input.size(); index++) {
            byte[] record = codec.encode(values.get(index), info);
            records.add(record);
            // Decode from inside a larger segment, as from a page.
            byte[] framed = new byte[record.length + 5];
            System.arraycopy(record, 0, framed, 3, record.length);
            codec.decode(MemorySegment.ofArray(framed), 3, record.length, info, decoded);
            int length = codec.toRow(decoded, buffer);
            byte[] row = buffer.segment().asSlice(0, length).toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(encoded.get(index), row, "row " + index + " " + java.util.Arrays.toString(input.get(index)));
            assertTrue(record.length <= encoded.get(index).length + codec.maxGrowth(), "record within its bound");
        }
        return records;
    }

    private static List<Object[]> edgeRows() {
        List<Object[]> rows = new ArrayList<>();
        int width = RowCodecRoundTripTest.EDGE_VALUES.size();
        int longest = RowCodecRoundTripTest.EDGE_VALUES.stream().mapToInt(List::size).max().orElseThrow();
        for (int rowNumber = 0; rowNumber < longest; rowNumber++) {
            Object[] row = new Object[width];
            for (int column = 0; column < width; column++) {
                List<Object> edges = RowCodecRoundTripTest.EDGE_VALUES.get(column);
                row[column] = edges.get(rowNumber % edges.size());
            }
            rows.add(row);
        }
        rows.add(new Object[width]);
        return rows;
    }

    @Test
    void everyTypesEdgesAndNullsRoundTripRowCompressed() {
        assertRoundTrips(new RowCodec(RowCodecRoundTripTest.EVERY_TYPE), edgeRows(), false);
    }

    @Test
    void everyTypesEdgesAndNullsRoundTripPageCompressed() {
        List<Object[]> rows = new ArrayList<>(edgeRows());
        rows.addAll(edgeRows());
        assertRoundTrips(new RowCodec(RowCodecRoundTripTest.EVERY_TYPE), rows, true);
    }

    @Test
    void outOfRowReferencesRoundTrip() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("text", SqlType.varchar(5000)),
                Column.nullable("fixed", SqlType.character(3000)));
        List<Object[]> rows = List.of(
                new Object[] {1, new LobRef(5, 4000), new LobRef(Long.MAX_VALUE, 3000)},
                new Object[] {2, "short", "x"},
                new Object[] {3, new LobRef(6, 4000), null});
        assertRoundTrips(new RowCodec(schema), rows, false);
        assertRoundTrips(new RowCodec(schema), rows, true);
    }

    @Test
    void randomRowsRoundTripBothWays() throws Exception {
        Seeds.run("compressedRandomRowsRoundTrip", random -> {
            RandomValues values = new RandomValues(random);
            for (int schemaNumber = 0; schemaNumber < 100; schemaNumber++) {
                TableSchema schema = values.schema(14);
                RowCodec rows = new RowCodec(schema);
                double nullProbability = new double[] {0.0, 0.2, 0.9}[random.nextInt(3)];
                List<Object[]> input = new ArrayList<>();
                for (int rowNumber = 0; rowNumber < 40; rowNumber++) {
                    input.add(values.row(schema, nullProbability));
                }
                assertRoundTrips(rows, input, false);
                assertRoundTrips(rows, input, true);
            }
        });
    }

    @Test
    void pageCompressionSharesPrefixesAndRepeatedValues() {
        TableSchema schema = TableSchema.of(Column.notNull("mode", SqlType.varchar(20)), Column.notNull("comment", SqlType.varchar(40)));
        List<Object[]> input = new ArrayList<>();
        for (int row = 0; row < 50; row++) {
            input.add(new Object[] {row % 2 == 0 ? "DELIVER IN PERSON" : "TAKE BACK RETURN", "carefully final requests " + row});
        }
        RowCodec rows = new RowCodec(schema);
        int rowBytes = 0;
        for (byte[] record : assertRoundTrips(rows, input, false)) {
            rowBytes += record.length;
        }
        int pageBytes = 0;
        for (byte[] record : assertRoundTrips(rows, input, true)) {
            pageBytes += record.length;
        }
        // Each row: a dictionary number (1 byte) and a suffix of its comment after the shared "carefully final requests ".
        assertTrue(pageBytes * 4 < rowBytes, "PAGE " + pageBytes + " bytes against ROW " + rowBytes);
    }

    /** Golden bytes: the spec's examples (compressed-row.md, "Examples"). */
    @Test
    void goldenRowRecords() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.BIGINT), Column.nullable("price", SqlType.decimal(10, 2)),
                Column.nullable("day", SqlType.DATE), Column.nullable("mode", SqlType.character(10)),
                Column.nullable("ratio", SqlType.DOUBLE));
        RowCodec rows = new RowCodec(schema);
        CompressedRowCodec codec = new CompressedRowCodec(rows);
        HexFormat hex = HexFormat.of();
        assertEquals("234303" + "012c" + "9c" + "4d0b" + "414952" + "3ff0", hex.formatHex(codec.encode(
                values(codec, rows, 300L, new BigDecimal("-1.00"), LocalDate.of(2024, 1, 1), "AIR", 1.0), null)));
        assertEquals("014302" + "4d0c" + "414952" + "80", hex.formatHex(codec.encode(
                values(codec, rows, 0L, null, LocalDate.of(2024, 1, 2), "AIR", -0.0), null)));
    }

    @Test
    void goldenPageRecordsAndCompressionInfo() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("mode", SqlType.character(10)));
        RowCodec rows = new RowCodec(schema);
        CompressedRowCodec codec = new CompressedRowCodec(rows);
        List<CompressedRowCodec.ColumnBytes> page = List.of(values(codec, rows, 1, "MAIL"), values(codec, rows, 2, "MAIL"),
                values(codec, rows, 3, "TRUCK"), values(codec, rows, 4, "TRUCK"));
        CompressedRowCodec.CompressionInfo info = codec.analyze(page);
        byte[] block = new byte[info.byteLength()];
        info.write(MemorySegment.ofArray(block), 0);
        HexFormat hex = HexFormat.of();
        // Anchors: none for id, 'TRUCK' for mode; dictionary: 'MAIL'.
        assertEquals("1200" + "01" + "0200" + "00" + "05545255434b" + "01" + "044d41494c", hex.formatHex(block));
        assertEquals("c2" + "01" + "00", hex.formatHex(codec.encode(page.get(0), info)));
        assertEquals("b2" + "03" + "0500", hex.formatHex(codec.encode(page.get(2), info)));
    }

    private static CompressedRowCodec.ColumnBytes values(CompressedRowCodec codec, RowCodec rows, Object... row) {
        CompressedRowCodec.ColumnBytes values = codec.newColumns();
        codec.fromRow(MemorySegment.ofArray(rows.encode(row)), 0, values);
        return values;
    }

    @Test
    void damagedRecordsAreIndexCorrupt() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.BIGINT), Column.nullable("name", SqlType.varchar(20)));
        CompressedRowCodec codec = new CompressedRowCodec(new RowCodec(schema));
        CompressedRowCodec.ColumnBytes out = codec.newColumns();
        // id: 2 bytes inline, name: long form of 20 bytes, but only 3 present.
        byte[] truncated = HexFormat.of().parseHex("a3" + "0102" + "14616263");
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> codec.decode(MemorySegment.ofArray(truncated), 0, truncated.length, null, out));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode());
        byte[] undefinedCode = HexFormat.of().parseHex("e1");
        assertEquals(ErrorCode.INDEX_CORRUPT, assertThrows(ColumbaException.class,
                () -> codec.decode(MemorySegment.ofArray(undefinedCode), 0, 1, null, out)).errorCode());
        byte[] dictionaryWithoutInfo = HexFormat.of().parseHex("1c00");
        assertEquals(ErrorCode.INDEX_CORRUPT, assertThrows(ColumbaException.class,
                () -> codec.decode(MemorySegment.ofArray(dictionaryWithoutInfo), 0, 2, null, out)).errorCode());
        byte[] tooLongForBigint = HexFormat.of().parseHex("0a" + "09" + "010203040506070809");
        assertEquals(ErrorCode.INDEX_CORRUPT, assertThrows(ColumbaException.class,
                () -> codec.decode(MemorySegment.ofArray(tooLongForBigint), 0, tooLongForBigint.length, null, out)).errorCode());
        byte[] newerInfo = HexFormat.of().parseHex("0800" + "02" + "0200" + "0000" + "00");
        assertEquals(ErrorCode.FORMAT_TOO_NEW, assertThrows(ColumbaException.class,
                () -> codec.readInfo(MemorySegment.ofArray(newerInfo), 0)).errorCode());
    }
}
