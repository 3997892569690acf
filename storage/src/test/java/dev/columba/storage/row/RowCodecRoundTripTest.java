package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowCodecRoundTripTest {
    private static final BigDecimal DECIMAL_38_MAX = new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 10);

    /** One nullable column of every kind, and per column the edge values a row must carry. */
    static final TableSchema EVERY_TYPE = TableSchema.of(
            Column.nullable("flag", SqlType.BOOLEAN),
            Column.nullable("small", SqlType.INT),
            Column.nullable("large", SqlType.BIGINT),
            Column.nullable("ratio", SqlType.DOUBLE),
            Column.nullable("price", SqlType.decimal(18, 4)),
            Column.nullable("huge", SqlType.decimal(38, 10)),
            Column.nullable("name", SqlType.varchar(10)),
            Column.nullable("code", SqlType.character(5)),
            Column.nullable("day", SqlType.DATE),
            Column.nullable("moment", SqlType.TIMESTAMP));

    static final List<List<Object>> EDGE_VALUES = List.of(
            List.of(true, false),
            List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1),
            List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L),
            List.of(-0.0, 0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                    Double.MAX_VALUE, -Double.MAX_VALUE),
            List.of(new BigDecimal("99999999999999.9999"), new BigDecimal("-99999999999999.9999"), new BigDecimal("0.0001"),
                    BigDecimal.ZERO, new BigDecimal("-1.5")),
            List.of(DECIMAL_38_MAX, DECIMAL_38_MAX.negate(), new BigDecimal("0.0000000001"), new BigDecimal("-9223372036854775809")),
            List.of("", "\0", "a\0b", "😀".repeat(10), "ünïcödé€", "\uFFFF\uE000\u0001"),
            List.of("", "ab", "😀😀😀😀😀", "\0\0", "abcde"),
            List.of(Values.daysToDate(Integer.MIN_VALUE), Values.daysToDate(Integer.MAX_VALUE), LocalDate.of(1970, 1, 1),
                    LocalDate.of(1969, 12, 31)),
            List.of(Values.microsToTimestamp(RandomValues.MIN_TIMESTAMP_MICROS), Values.microsToTimestamp(Long.MAX_VALUE),
                    LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1_000), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                    LocalDateTime.of(2024, 2, 29, 12, 30, 15, 123_456_789)));

    @Test
    void everyEdgeValueRoundTrips() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        int rows = EDGE_VALUES.stream().mapToInt(List::size).max().orElseThrow();
        for (int rowIndex = 0; rowIndex <= rows; rowIndex++) {
            Object[] row = new Object[EVERY_TYPE.size()];
            for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                List<Object> edges = EDGE_VALUES.get(columnIndex);
                // The last row is all NULL.
                row[columnIndex] = rowIndex == rows ? null : edges.get(rowIndex % edges.size());
            }
            byte[] encoded = codec.encode(row);
            assertRowDecodes(codec, MemorySegment.ofArray(encoded), 0, row, row, encoded.length, new Random(rowIndex));
        }
    }

    @Test
    void decodedValuesAreCanonical() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] row = {true, 1, 2L, 3.0, new BigDecimal("1.5"), new BigDecimal("7E+2"), "x", "ab", LocalDate.of(2024, 1, 2),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_789)};
        Object[] decoded = codec.decode(MemorySegment.ofArray(codec.encode(row)), 0);
        assertEquals(new BigDecimal("1.5000"), decoded[4], "DECIMAL at the column's scale");
        assertEquals(new BigDecimal("700.0000000000"), decoded[5]);
        assertEquals("ab   ", decoded[7], "CHAR padded to its length");
        assertEquals(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000), decoded[9], "TIMESTAMP truncated to microseconds");
    }

    @Test
    void randomRowsRoundTripThroughEveryDecoder() throws Exception {
        Seeds.run("randomRowsRoundTripThroughEveryDecoder", random -> {
            RandomValues values = new RandomValues(random);
            try (Arena arena = Arena.ofConfined()) {
                for (int schemaNumber = 0; schemaNumber < 100; schemaNumber++) {
                    TableSchema schema = values.schema(14);
                    RowCodec codec = new RowCodec(schema);
                    double nullProbability = new double[] {0.0, 0.2, 0.9}[random.nextInt(3)];
                    List<Object[]> originals = new ArrayList<>();
                    List<Object[]> inputs = new ArrayList<>();
                    List<byte[]> encodings = new ArrayList<>();
                    long totalBytes = 0;
                    for (int rowNumber = 0; rowNumber < 20; rowNumber++) {
                        Object[] original = values.row(schema, nullProbability);
                        Object[] input = random.nextInt(3) == 0 ? withLobRefs(codec, original, random) : original;
                        byte[] encoded = codec.encode(input);
                        assertEquals(encoded.length, codec.encodedSize(input));
                        originals.add(original);
                        inputs.add(input);
                        encodings.add(encoded);
                        totalBytes += encoded.length;
                    }
                    // Rows back to back from an odd offset, off heap and in a heap array viewed
                    // through a slice, as rows sit in a page.
                    MemorySegment offHeap = arena.allocate(totalBytes + 1);
                    MemorySegment onHeap = MemorySegment.ofArray(new byte[(int) totalBytes + 4]).asSlice(3);
                    long offset = 1;
                    for (int rowNumber = 0; rowNumber < inputs.size(); rowNumber++) {
                        Object[] input = inputs.get(rowNumber);
                        byte[] encoded = encodings.get(rowNumber);
                        assertEquals(encoded.length, codec.encode(input, offHeap, offset));
                        assertEquals(encoded.length, codec.encode(input, onHeap, offset - 1));
                        assertEquals(-1, MemorySegment.ofArray(encoded).mismatch(offHeap.asSlice(offset, encoded.length)));
                        assertRowDecodes(codec, offHeap, offset, input, originals.get(rowNumber), encoded.length, random);
                        assertRowDecodes(codec, onHeap, offset - 1, input, originals.get(rowNumber), encoded.length, random);
                        offset += encoded.length;
                    }
                }
            }
        });
    }

    @Test
    void rowsLongerThan65535BytesUseWideOffsets() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("text", SqlType.varchar(200_000)));
        RowCodec codec = new RowCodec(schema);
        // Fixed part: 3 header + 1 null bitmap + 4 INT = 8 bytes, then one end offset.
        Object[] largestNarrow = {1, "x".repeat(65_535 - 8 - 2)};
        byte[] narrow = codec.encode(largestNarrow);
        assertEquals(65_535, narrow.length);
        assertEquals(RowFormat.VERSION, narrow[0], "u16 offsets");

        Object[] smallestWide = {2, "y".repeat(65_535 - 8 - 2 + 1)};
        byte[] wide = codec.encode(smallestWide);
        assertEquals(65_536 + 2, wide.length);
        assertEquals(RowFormat.VERSION | RowFormat.FLAG_WIDE_OFFSETS, wide[0], "u32 offsets");

        for (Object[] row : List.of(largestNarrow, smallestWide)) {
            byte[] encoded = codec.encode(row);
            assertRowDecodes(codec, MemorySegment.ofArray(encoded), 0, row, row, encoded.length, new Random(0));
        }
    }

    @Test
    void outOfRowValuesComeBackAsReferencesAndTheirBytesAsValues() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("body", SqlType.varchar(100)),
                Column.nullable("tag", SqlType.character(4)));
        RowCodec codec = new RowCodec(schema);
        LobRef reference = new LobRef(42, 9);
        byte[] encoded = codec.encode(new Object[] {7, reference, "é"});
        MemorySegment row = MemorySegment.ofArray(encoded);

        assertEquals(reference, codec.decodeColumn(row, 0, 1));
        assertTrue(codec.isOutOfRow(row, 0, 1));
        assertFalse(codec.isOutOfRow(row, 0, 2));
        assertFalse(codec.isOutOfRow(row, 0, 0));
        assertEquals("é   ", codec.decodeColumn(row, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> codec.decodeUtf8(row, 0, 1));

        byte[] lob = codec.lobBytes(1, "héllo 😀");
        assertEquals(11, lob.length, "UTF-8: h, é (2), l, l, o, blank, emoji (4)");
        assertEquals("héllo 😀", codec.valueFromLobBytes(1, lob));
        assertArrayEquals("ab  ".getBytes(java.nio.charset.StandardCharsets.UTF_8), codec.lobBytes(2, "ab"), "CHAR padded");
        assertThrows(IllegalArgumentException.class, () -> codec.lobBytes(0, 5), "INT is never out of row");
    }

    @Test
    void columnsToMoveOutOfRowTakesTheLargestFirstUntilTheRowFits() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("a", SqlType.varchar(1000)),
                Column.nullable("b", SqlType.varchar(1000)), Column.nullable("c", SqlType.character(100)),
                Column.nullable("d", SqlType.varchar(1000)));
        RowCodec codec = new RowCodec(schema);
        Object[] row = {1, "a".repeat(300), "b".repeat(500), "c", "tiny"};
        // 3 header + 1 bitmap + 4 INT + 4 x 2 offsets + 300 + 500 + 100 (CHAR padded) + 4.
        assertEquals(920, codec.encodedSize(row));
        assertArrayEquals(new int[0], codec.columnsToMoveOutOfRow(row, 920));
        // b out: 920 - 500 + 16 + 1 out-of-row bitmap = 437; then a: 153; then c: 69.
        assertArrayEquals(new int[] {2}, codec.columnsToMoveOutOfRow(row, 919));
        assertArrayEquals(new int[] {2}, codec.columnsToMoveOutOfRow(row, 437));
        assertArrayEquals(new int[] {2, 1}, codec.columnsToMoveOutOfRow(row, 436));
        assertArrayEquals(new int[] {2, 1, 3}, codec.columnsToMoveOutOfRow(row, 69));
        ColumbaException tooLarge = assertThrows(ColumbaException.class, () -> codec.columnsToMoveOutOfRow(row, 68),
                "the 4-byte value is no candidate: a reference is larger");
        assertEquals(ErrorCode.ROW_TOO_LARGE, tooLarge.errorCode());
        assertTrue(tooLarge.getMessage().contains("69 bytes") && tooLarge.getMessage().contains("68"), tooLarge.getMessage());

        Object[] moved = {1, new LobRef(10, 300), new LobRef(11, 500), new LobRef(12, 100), "tiny"};
        assertEquals(69, codec.encodedSize(moved));
    }

    @Test
    void movingTheChosenColumnsOutOfRowFitsTheLimit() throws Exception {
        Seeds.run("movingTheChosenColumnsOutOfRowFitsTheLimit", random -> {
            RandomValues values = new RandomValues(random);
            for (int attempt = 0; attempt < 400; attempt++) {
                TableSchema schema = values.schema(10);
                RowCodec codec = new RowCodec(schema);
                Object[] row = values.row(schema, 0.2);
                int fullSize = codec.encodedSize(row);
                int limit = random.nextInt(fullSize + 1);
                int[] chosen;
                try {
                    chosen = codec.columnsToMoveOutOfRow(row, limit);
                } catch (ColumbaException tooLarge) {
                    assertEquals(ErrorCode.ROW_TOO_LARGE, tooLarge.errorCode());
                    Object[] allMoved = row.clone();
                    for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                        if (row[columnIndex] instanceof String text && codec.lobBytes(columnIndex, text).length > RowFormat.LOB_REF_BYTES) {
                            allMoved[columnIndex] = new LobRef(1, codec.lobBytes(columnIndex, text).length);
                        }
                    }
                    assertTrue(codec.encodedSize(allMoved) > limit, "moving every candidate would have fitted");
                    continue;
                }
                Object[] moved = row.clone();
                long previousLength = Long.MAX_VALUE;
                for (int rank = 0; rank < chosen.length; rank++) {
                    int columnIndex = chosen[rank];
                    int length = codec.lobBytes(columnIndex, row[columnIndex]).length;
                    assertTrue(length <= previousLength, "largest first");
                    previousLength = length;
                    if (rank == chosen.length - 1) {
                        assertTrue(codec.encodedSize(moved) > limit, "the last column chosen was needed");
                    }
                    moved[columnIndex] = new LobRef(rank, length);
                }
                assertTrue(codec.encodedSize(moved) <= limit, codec.encodedSize(moved) + " > " + limit);
                byte[] encoded = codec.encode(moved);
                assertRowDecodes(codec, MemorySegment.ofArray(encoded), 0, moved, row, encoded.length, random);
            }
        });
    }

    /** Replaces some variable-length values by references, as the page layer does for large ones. */
    private static Object[] withLobRefs(RowCodec codec, Object[] row, Random random) {
        Object[] input = row.clone();
        for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
            if (row[columnIndex] instanceof String text && random.nextInt(3) == 0) {
                input[columnIndex] = new LobRef(random.nextLong() & Long.MAX_VALUE, codec.lobBytes(columnIndex, text).length);
            }
        }
        return input;
    }

    /**
     * Checks every way of reading the row at {@code offset}: whole, column by column, projected,
     * through the primitive decoders, and the bytes of out-of-row values through lobBytes.
     *
     * @param input what was encoded (values or LobRefs)
     * @param original the values before any was replaced by a LobRef
     */
    private static void assertRowDecodes(RowCodec codec, MemorySegment source, long offset, Object[] input, Object[] original,
                                         int length, Random random) {
        TableSchema schema = codec.schema();
        Object[] expected = new Object[input.length];
        for (int columnIndex = 0; columnIndex < input.length; columnIndex++) {
            Object value = input[columnIndex];
            expected[columnIndex] = value == null || value instanceof LobRef ? value : Values.canonical(schema.column(columnIndex).type(), value);
        }
        assertEquals(length, codec.rowLength(source, offset));
        assertArrayEquals(expected, codec.decode(source, offset));

        for (int columnIndex = 0; columnIndex < input.length; columnIndex++) {
            SqlType type = schema.column(columnIndex).type();
            Object value = expected[columnIndex];
            String where = "column " + columnIndex + " " + type.sqlName();
            assertEquals(value, codec.decodeColumn(source, offset, columnIndex), where);
            assertEquals(value == null, codec.isNull(source, offset, columnIndex), where);
            assertEquals(value instanceof LobRef, codec.isOutOfRow(source, offset, columnIndex), where);
            assertPrimitiveDecodes(codec, source, offset, columnIndex, type, value, original[columnIndex], where);
        }

        int[] projection = new int[random.nextInt(2 * input.length + 1)];
        for (int slot = 0; slot < projection.length; slot++) {
            projection[slot] = random.nextInt(input.length);
        }
        Object sentinel = new Object();
        Object[] out = new Object[projection.length + 1];
        out[projection.length] = sentinel;
        codec.decode(source, offset, projection, out);
        for (int slot = 0; slot < projection.length; slot++) {
            assertEquals(expected[projection[slot]], out[slot], "projected slot " + slot + " = column " + projection[slot]);
        }
        assertEquals(sentinel, out[projection.length], "decode writes only the projected slots");
    }

    private static void assertPrimitiveDecodes(RowCodec codec, MemorySegment source, long offset, int columnIndex, SqlType type,
                                               Object value, Object original, String where) {
        switch (type) {
            case SqlType.BooleanType ignored -> assertEquals(Boolean.TRUE.equals(value), codec.decodeBoolean(source, offset, columnIndex), where);
            case SqlType.IntegerType ignored -> assertEquals(value == null ? 0 : (int) value, codec.decodeInt(source, offset, columnIndex), where);
            case SqlType.DateType ignored -> assertEquals(value == null ? 0 : Values.dateToDays((LocalDate) value),
                    codec.decodeInt(source, offset, columnIndex), where);
            case SqlType.BigintType ignored -> assertEquals(value == null ? 0 : (long) value, codec.decodeLong(source, offset, columnIndex), where);
            case SqlType.TimestampType ignored -> assertEquals(value == null ? 0 : Values.timestampToMicros((LocalDateTime) value),
                    codec.decodeLong(source, offset, columnIndex), where);
            case SqlType.DoubleType ignored -> assertEquals(value == null ? 0 : Double.doubleToRawLongBits((double) value),
                    Double.doubleToRawLongBits(codec.decodeDouble(source, offset, columnIndex)), where + ": bit for bit");
            case SqlType.DecimalType ignored -> {
                BigInteger unscaled = value == null ? BigInteger.ZERO : ((BigDecimal) value).unscaledValue();
                assertEquals(unscaled.longValue(), codec.decodeLong(source, offset, columnIndex), where);
                assertEquals(unscaled.shiftRight(Long.SIZE).longValue(), codec.decodeDecimalHigh(source, offset, columnIndex), where);
            }
            case SqlType.VarcharType ignored -> assertStringDecodes(codec, source, offset, columnIndex, type, value, original, where);
            case SqlType.CharType ignored -> assertStringDecodes(codec, source, offset, columnIndex, type, value, original, where);
            case SqlType.VarbinaryType ignored -> { }
            case SqlType.BinaryType ignored -> { }
            case SqlType.UuidType ignored -> { }
        }
    }

    private static void assertStringDecodes(RowCodec codec, MemorySegment source, long offset, int columnIndex, SqlType type,
                                            Object value, Object original, String where) {
        if (value instanceof LobRef reference) {
            byte[] lob = codec.lobBytes(columnIndex, original);
            assertEquals(lob.length, reference.byteLength(), where);
            assertEquals(Values.canonical(type, original), codec.valueFromLobBytes(columnIndex, lob), where);
            return;
        }
        MemorySegment utf8 = codec.decodeUtf8(source, offset, columnIndex);
        byte[] expected = value == null ? new byte[0] : codec.lobBytes(columnIndex, value);
        assertArrayEquals(expected, utf8.toArray(ValueLayout.JAVA_BYTE), where);
    }
}
