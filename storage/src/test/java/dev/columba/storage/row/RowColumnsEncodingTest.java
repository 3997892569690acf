package dev.columba.storage.row;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The codecs' encodings from primitive columns ({@link RowCodec#encode(RowColumns, int, int)},
 * {@link KeyCodec#encode(RowColumns, int[], int)}) against their encodings of the same rows as Java
 * values: the same bytes, and the same errors for values the columns refuse.
 */
class RowColumnsEncodingTest {
    @Test
    void everyEdgeValueEncodesAsItsJavaValue() {
        TableSchema schema = RowCodecRoundTripTest.EVERY_TYPE;
        List<Object[]> rows = new ArrayList<>();
        int count = RowCodecRoundTripTest.EDGE_VALUES.stream().mapToInt(List::size).max().orElseThrow();
        for (int rowIndex = 0; rowIndex <= count; rowIndex++) {
            Object[] row = new Object[schema.size()];
            for (int columnIndex = 0; columnIndex < row.length; columnIndex++) {
                List<Object> edges = RowCodecRoundTripTest.EDGE_VALUES.get(columnIndex);
                row[columnIndex] = rowIndex == count ? null : edges.get(rowIndex % edges.size());
            }
            rows.add(row);
        }
        assertSameEncodings(schema, rows);
    }

    @Test
    void randomRowsEncodeAsTheirJavaValues() throws Exception {
        Seeds.run("randomRowsEncodeAsTheirJavaValues", random -> {
            RandomValues values = new RandomValues(random);
            for (int schemaIndex = 0; schemaIndex < 30; schemaIndex++) {
                TableSchema schema = values.schema(12);
                List<Object[]> rows = new ArrayList<>();
                for (int rowIndex = 0; rowIndex < 200; rowIndex++) {
                    rows.add(values.row(schema, 0.2));
                }
                assertSameEncodings(schema, rows);
            }
        });
    }

    @Test
    void refusedValuesFailWithTheJavaValuesErrors() {
        TableSchema schema = TableSchema.of(
                Column.notNull("id", SqlType.INT),
                Column.nullable("name", SqlType.varchar(3)),
                Column.nullable("code", SqlType.character(2)),
                Column.nullable("price", SqlType.decimal(4, 2)));
        List<Object[]> refused = List.of(
                new Object[] {null, "a", "b", null},
                new Object[] {1, "abcd", null, null},
                new Object[] {1, "äöüß", null, null},
                new Object[] {1, null, "€€€", null},
                new Object[] {1, null, null, new BigDecimal("100.00")},
                new Object[] {1, null, null, new BigDecimal("-100.00")});
        RowCodec rowCodec = new RowCodec(schema);
        Columns columns = new Columns(schema, refused);
        for (int row = 0; row < refused.size(); row++) {
            Object[] values = refused.get(row);
            int rowIndex = row;
            assertSameFailure(() -> rowCodec.encode(values), () -> rowCodec.encode(columns, rowIndex, Integer.MAX_VALUE - 8));
            for (int[] key : new int[][] {{1}, {2}, {3}, {0, 1, 2, 3}}) {
                KeyCodec keyCodec = new KeyCodec(Arrays.stream(key).mapToObj(column -> schema.column(column).type()).toList());
                Object[] keyValues = Arrays.stream(key).mapToObj(column -> values[column]).toArray();
                Executable fromValues = () -> keyCodec.encode(keyValues);
                Executable fromColumns = () -> keyCodec.encode(columns, key, rowIndex);
                try {
                    fromValues.execute();
                } catch (ColumbaException expected) {
                    assertSameFailure(fromValues, fromColumns);
                    continue;
                } catch (Throwable unexpected) {
                    throw new AssertionError(unexpected);
                }
                assertArrayEquals(keyCodec.encode(keyValues), keyCodec.encode(columns, key, rowIndex));
            }
        }
    }

    @Test
    void aRowOverTheLimitIsLeftToTheJavaValues() {
        TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT), Column.nullable("text", SqlType.varchar(1000)));
        RowCodec codec = new RowCodec(schema);
        Object[] row = {7, "x".repeat(500)};
        Columns columns = new Columns(schema, List.<Object[]>of(row));
        int size = codec.encode(row).length;
        assertArrayEquals(codec.encode(row), codec.encode(columns, 0, size));
        assertNull(codec.encode(columns, 0, size - 1));
    }

    private static void assertSameEncodings(TableSchema schema, List<Object[]> rows) {
        RowCodec rowCodec = new RowCodec(schema);
        Columns columns = new Columns(schema, rows);
        List<int[]> keys = new ArrayList<>();
        for (int column = 0; column < schema.size(); column++) {
            keys.add(new int[] {column});
        }
        int[] reversed = new int[schema.size()];
        for (int column = 0; column < reversed.length; column++) {
            reversed[column] = reversed.length - 1 - column;
        }
        keys.add(reversed);
        byte[] reused = new byte[16];
        for (int row = 0; row < rows.size(); row++) {
            Object[] values = rows.get(row);
            byte[] expected = rowCodec.encode(values);
            assertArrayEquals(expected, rowCodec.encode(columns, row, Integer.MAX_VALUE - 8),
                    "row " + row + ": " + Arrays.toString(values));
            // Written into an array a bulk load reuses: every byte is the row's, whatever was there.
            long size = rowCodec.encodedSize(columns, row);
            assertEquals(expected.length, size);
            if (reused.length < size) {
                reused = new byte[(int) size];
            }
            Arrays.fill(reused, (byte) 0xA5);
            rowCodec.write(columns, row, reused, (int) size);
            assertArrayEquals(expected, Arrays.copyOf(reused, (int) size), "row " + row + " into a reused array");
            for (int[] key : keys) {
                KeyCodec keyCodec = new KeyCodec(Arrays.stream(key).mapToObj(column -> schema.column(column).type()).toList());
                Object[] keyValues = Arrays.stream(key).mapToObj(column -> values[column]).toArray();
                assertArrayEquals(keyCodec.encode(keyValues), keyCodec.encode(columns, key, row),
                        "key " + Arrays.toString(key) + " of row " + row + ": " + Arrays.toString(values));
            }
        }
    }

    private static void assertSameFailure(Executable fromValues, Executable fromColumns) {
        ColumbaException expected = assertThrows(ColumbaException.class, fromValues);
        ColumbaException actual = assertThrows(ColumbaException.class, fromColumns);
        assertEquals(expected.errorCode(), actual.errorCode());
        assertEquals(expected.getMessage(), actual.getMessage());
    }

    /**
     * Java values held as a bulk load's parser holds them: whole numbers, days, microseconds and
     * unscaled DECIMAL(p <= 18) values as longs, strings as UTF-8 back to back (CHAR values as given,
     * not padded, so the codecs' padding is tested too), wider decimals as objects.
     */
    private static final class Columns implements RowColumns {
        private final List<Object[]> rows;
        private final long[][] longs;
        private final double[][] doubles;
        private final byte[][] bytes;
        private final int[][] ends;

        Columns(TableSchema schema, List<Object[]> rows) {
            this.rows = rows;
            int columns = schema.size();
            longs = new long[columns][rows.size()];
            doubles = new double[columns][rows.size()];
            bytes = new byte[columns][];
            ends = new int[columns][rows.size()];
            for (int column = 0; column < columns; column++) {
                SqlType type = schema.column(column).type();
                List<byte[]> parts = new ArrayList<>();
                int end = 0;
                for (int row = 0; row < rows.size(); row++) {
                    Object value = rows.get(row)[column];
                    if (value == null) {
                        ends[column][row] = end;
                        continue;
                    }
                    switch (type) {
                        case SqlType.BooleanType ignored -> longs[column][row] = (Boolean) value ? 1 : 0;
                        case SqlType.IntegerType ignored -> longs[column][row] = (Integer) value;
                        case SqlType.BigintType ignored -> longs[column][row] = (Long) value;
                        case SqlType.DateType ignored -> longs[column][row] = Values.dateToDays((LocalDate) value);
                        case SqlType.TimestampType ignored -> longs[column][row] = Values.timestampToMicros((LocalDateTime) value);
                        case SqlType.DoubleType ignored -> doubles[column][row] = (Double) value;
                        case SqlType.DecimalType decimal -> {
                            if (decimal.precision() <= 18) {
                                longs[column][row] = ((BigDecimal) value).setScale(decimal.scale()).unscaledValue().longValueExact();
                            }
                        }
                        case SqlType.VarcharType ignored -> end = append(parts, (String) value, column, row, end);
                        case SqlType.CharType ignored -> end = append(parts, (String) value, column, row, end);
                        // Read through value(), as ColumnBatch keeps them.
                        case SqlType.VarbinaryType ignored -> { }
                        case SqlType.BinaryType ignored -> { }
                        case SqlType.UuidType ignored -> { }
                    }
                }
                byte[] all = new byte[end];
                int at = 0;
                for (byte[] part : parts) {
                    System.arraycopy(part, 0, all, at, part.length);
                    at += part.length;
                }
                bytes[column] = all;
            }
        }

        private int append(List<byte[]> parts, String value, int column, int row, int end) {
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            parts.add(utf8);
            ends[column][row] = end + utf8.length;
            return end + utf8.length;
        }

        @Override
        public boolean isNull(int column, int row) {
            return rows.get(row)[column] == null;
        }

        @Override
        public long longValue(int column, int row) {
            return longs[column][row];
        }

        @Override
        public double doubleValue(int column, int row) {
            return doubles[column][row];
        }

        @Override
        public byte[] bytes(int column) {
            return bytes[column];
        }

        @Override
        public int valueStart(int column, int row) {
            return row == 0 ? 0 : ends[column][row - 1];
        }

        @Override
        public int valueEnd(int column, int row) {
            return ends[column][row];
        }

        @Override
        public Object value(int column, int row) {
            return rows.get(row)[column];
        }
    }
}
