package dev.columba.formats.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ColumnChunkDecoder} on files parquet-java writes with every layout it has: pages V1 and
 * V2, dictionary pages, PLAIN pages and a chunk that starts with its dictionary and goes on plain
 * when the dictionary is full, many small pages, many row groups, NULLs, every Parquet type COPY
 * reads (unsigned integers, float, decimals as int32, int64, fixed and variable binaries at their
 * extremes, dates, timestamps in three units) and non-ASCII text. With V2 and without dictionaries
 * parquet-java writes DELTA encodings, which go through its own value readers page by page. Every
 * value read back is compared with the value written.
 */
class ParquetPageDecodingTest {
    private static final int ROWS = 6_000;
    private static final String TABLE_COLUMNS = "id INT NOT NULL, flag BOOLEAN, i32 INT, u32 BIGINT, i64 BIGINT,"
            + " u64 DECIMAL(20,0), f DOUBLE, d DOUBLE, dec32 DECIMAL(9,2), dec64 DECIMAL(18,4), decfixed DECIMAL(38,10),"
            + " decbin DECIMAL(38,0), name VARCHAR(100), code CHAR(3), day DATE, ms TIMESTAMP, us TIMESTAMP, ns TIMESTAMP";
    private static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.INT32).named("id")
            .optional(PrimitiveTypeName.BOOLEAN).named("flag")
            .optional(PrimitiveTypeName.INT32).named("i32")
            .optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.intType(32, false)).named("u32")
            .optional(PrimitiveTypeName.INT64).named("i64")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.intType(64, false)).named("u64")
            .optional(PrimitiveTypeName.FLOAT).named("f")
            .optional(PrimitiveTypeName.DOUBLE).named("d")
            .optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.decimalType(2, 9)).named("dec32")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.decimalType(4, 18)).named("dec64")
            .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY).length(16).as(LogicalTypeAnnotation.decimalType(10, 38))
            .named("decfixed")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.decimalType(0, 38)).named("decbin")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("name")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("code")
            .optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named("day")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(false,
                    LogicalTypeAnnotation.TimeUnit.MILLIS)).named("ms")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(false,
                    LogicalTypeAnnotation.TimeUnit.MICROS)).named("us")
            .optional(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(false,
                    LogicalTypeAnnotation.TimeUnit.NANOS)).named("ns")
            .named("t");
    private static final BigInteger MAX_38 = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);
    private static final String[] WORDS = {"héllo wörld ✓", "𝄞 clef", "日本語のテキスト", "", "plain ascii", "a\"b,c\nd"};

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), properties);
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    static Stream<Arguments> layouts() {
        List<Arguments> layouts = new ArrayList<>();
        for (ParquetProperties.WriterVersion version : ParquetProperties.WriterVersion.values()) {
            for (boolean dictionary : new boolean[] {true, false}) {
                layouts.add(Arguments.of(version, dictionary, "columnstore"));
            }
        }
        layouts.add(Arguments.of(ParquetProperties.WriterVersion.PARQUET_1_0, true, "rowstore"));
        return layouts.stream();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void everyValueOfEveryLayoutIsReadBack(ParquetProperties.WriterVersion version, boolean dictionary, String kind)
            throws Exception {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < ROWS; row++) {
            rows.add(row(row));
        }
        Path file = directory.resolve("t.parquet");
        write(file, SCHEMA, rows, version, dictionary);
        Set<Encoding> encodings = encodings(file);
        if (dictionary) {
            assertTrue(encodings.contains(Encoding.PLAIN_DICTIONARY) || encodings.contains(Encoding.RLE_DICTIONARY),
                    encodings::toString);
            assertTrue(encodings.contains(Encoding.PLAIN), () -> "a dictionary filled up and pages went on plain: " + encodings);
        } else if (version == ParquetProperties.WriterVersion.PARQUET_2_0) {
            assertTrue(encodings.contains(Encoding.DELTA_BINARY_PACKED) && encodings.contains(Encoding.DELTA_BYTE_ARRAY),
                    () -> "encodings read through parquet-java's readers: " + encodings);
        }
        int[] layout = rowGroupsAndMostPages(file);
        assertTrue(layout[0] > 1 && layout[1] > 1, () -> "several row groups of several pages: " + Arrays.toString(layout));

        statement.execute("CREATE TABLE t (" + TABLE_COLUMNS + (kind.equals("columnstore")
                ? ") WITH (storage = columnstore, bulk_min_rows = 2)" : ", PRIMARY KEY (id))"));
        assertEquals(ROWS, statement.executeUpdate("COPY t FROM '" + file + "' WITH (FORMAT parquet)"));
        List<List<Object>> expected = new ArrayList<>();
        for (Object[] row : rows) {
            expected.add(expectedRow(row));
        }
        assertRows(expected, read("SELECT * FROM t ORDER BY id"), "");
        assertEquals(ROWS, statement.executeUpdate("DELETE FROM t"));
        assertEquals(ROWS, statement.executeUpdate("COPY t FROM '" + file + "' WITH (FORMAT parquet, MAXDOP 2)"));
        assertRows(expected, read("SELECT * FROM t ORDER BY id"), "decoded on two workers, ");
    }

    private static void assertRows(List<List<Object>> expected, List<List<Object>> actual, String how) {
        assertEquals(expected.size(), actual.size(), how + "rows");
        for (int row = 0; row < expected.size(); row++) {
            int index = row;
            assertEquals(expected.get(row), actual.get(row), () -> how + "row id " + index);
        }
    }

    /** Row {@code row}: NULLs at a different stride per column, repeating values early, distinct ones later, extremes. */
    private static Object[] row(int row) {
        Object[] values = new Object[SCHEMA.getFieldCount()];
        values[0] = row;
        // The first half repeats a few values (dictionary pages); the second half is mostly distinct,
        // so a dictionary fills up and the chunk goes on in PLAIN pages.
        long varying = row < ROWS / 2 ? row % 5 : row * 7919L;
        boolean extreme = row % 97 == 1;
        values[1] = row % 3 == 0;
        values[2] = extreme ? (row % 2 == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE) : (int) (varying - 2);
        values[3] = extreme ? -1 : (int) varying; // as unsigned: 4294967295
        values[4] = extreme ? (row % 2 == 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : varying * 1_000_003L - 7;
        values[5] = extreme ? -1L : varying; // as unsigned: 18446744073709551615
        values[6] = extreme ? Float.MAX_VALUE : (float) (varying / 4.0);
        values[7] = extreme ? -Double.MIN_VALUE : varying / 3.0;
        values[8] = extreme ? (row % 2 == 0 ? -999_999_999 : 999_999_999) : (int) (varying % 1_000_000_000);
        values[9] = extreme ? (row % 2 == 0 ? -999_999_999_999_999_999L : 999_999_999_999_999_999L) : varying;
        values[10] = extreme ? (row % 2 == 0 ? MAX_38.negate() : MAX_38) : BigInteger.valueOf(varying - 3).shiftLeft(40);
        values[11] = extreme ? (row % 2 == 0 ? MAX_38.negate() : MAX_38) : BigInteger.valueOf(varying * 31 - 50);
        values[12] = WORDS[(int) (varying % WORDS.length)] + (row < ROWS / 2 ? "" : " " + row);
        values[13] = row % 2 == 0 ? "abc" : "é";
        values[14] = extreme ? (row % 2 == 0 ? (int) LocalDate.of(1, 1, 1).toEpochDay() : (int) LocalDate.of(9999, 12, 31)
                .toEpochDay()) : (int) (varying % 40_000 - 20_000);
        values[15] = extreme ? -62_135_596_800_000L : (varying % 100_000 - 2) * 86_400_123L; // 0001-01-01 in milliseconds
        values[16] = extreme ? 253_402_300_799_999_999L : (varying - 2) * 1_000_001L; // 9999-12-31 23:59:59.999999
        values[17] = extreme ? -1L : (varying - 2) * 1_000_000_007L; // -1 ns is 1969-12-31 23:59:59.999999
        for (int column = 1; column < values.length; column++) {
            if ((row + column) % (column + 3) == 0) {
                values[column] = null;
            }
        }
        return values;
    }

    /** What Columba should give back for a written row, as the JDBC driver gives it. */
    private static List<Object> expectedRow(Object[] row) {
        List<Object> values = new ArrayList<>();
        values.add(row[0]);
        values.add(row[1]);
        values.add(row[2]);
        values.add(row[3] == null ? null : Integer.toUnsignedLong((Integer) row[3]));
        values.add(row[4]);
        values.add(row[5] == null ? null : new BigDecimal(Long.toUnsignedString((Long) row[5])));
        values.add(row[6] == null ? null : (double) (Float) row[6]);
        values.add(row[7]);
        values.add(row[8] == null ? null : BigDecimal.valueOf((Integer) row[8], 2));
        values.add(row[9] == null ? null : BigDecimal.valueOf((Long) row[9], 4));
        values.add(row[10] == null ? null : new BigDecimal((BigInteger) row[10], 10));
        values.add(row[11] == null ? null : new BigDecimal((BigInteger) row[11], 0));
        values.add(row[12]);
        values.add(row[13] == null ? null : String.format("%-3s", row[13]));
        values.add(row[14] == null ? null : LocalDate.ofEpochDay((Integer) row[14]));
        values.add(row[15] == null ? null : micros(Math.multiplyExact((Long) row[15], 1_000L)));
        values.add(row[16] == null ? null : micros((Long) row[16]));
        values.add(row[17] == null ? null : micros(Math.floorDiv((Long) row[17], 1_000L)));
        return values;
    }

    private static LocalDateTime micros(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1_000,
                ZoneOffset.UTC);
    }

    private List<List<Object>> read(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Object[] row = new Object[columns];
                for (int column = 0; column < columns; column++) {
                    String name = result.getMetaData().getColumnName(column + 1).toLowerCase(java.util.Locale.ROOT);
                    row[column] = switch (name) {
                        case "day" -> result.getObject(column + 1, LocalDate.class);
                        case "ms", "us", "ns" -> result.getObject(column + 1, LocalDateTime.class);
                        default -> result.getObject(column + 1);
                    };
                }
                rows.add(Arrays.asList(row));
            }
        }
        return rows;
    }

    /**
     * Values refused in several columns of a row group: the error is the one a row at a time
     * meets first — the lowest row, at it the first column in file order, and a NULL in a NOT NULL
     * column only when its row comes before any refused value — and the table is left unchanged.
     */
    @Test
    void theFirstBadRowInRowOrderIsReportedAcrossColumns() throws Exception {
        MessageType schema = Types.buildMessage()
                .optional(PrimitiveTypeName.INT64).named("a")
                .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("b")
                .optional(PrimitiveTypeName.INT32).named("c")
                .named("t");
        statement.execute("CREATE TABLE t (a INT, b VARCHAR(3), c INT NOT NULL) WITH (storage = columnstore, bulk_min_rows = 2)");
        record Case(int badA, int badB, int nullC, String fragment) {
        }
        for (Case bad : List.of(new Case(300, 200, -1, "row 201, column b"), new Case(300, 400, -1, "row 301, column a"),
                new Case(300, 300, -1, "row 301, column a"), new Case(300, 400, 100, "row 101: "),
                new Case(300, -1, 300, "row 301, column a"), new Case(-1, 5000, 70_000, "row 5001, column b"),
                new Case(-1, 70_001, 70_000, "row 70001: "))) {
            List<Object[]> rows = new ArrayList<>();
            for (int row = 0; row < 80_000; row++) {
                rows.add(new Object[] {row == bad.badA ? 1L << 40 : (long) row, row == bad.badB ? "four" : "ok",
                        row == bad.nullC ? null : row});
            }
            Path file = directory.resolve("bad.parquet");
            write(file, schema, rows, ParquetProperties.WriterVersion.PARQUET_1_0, true);
            SQLException failure = assertThrows(SQLException.class,
                    () -> statement.execute("COPY t FROM '" + file + "' WITH (FORMAT parquet)"));
            assertTrue(failure.getMessage().contains(bad.fragment), () -> bad + ": " + failure.getMessage());
            assertEquals(0L, ((Number) read("SELECT count(*) FROM t").get(0).get(0)).longValue(), bad::toString);
        }
    }

    private static ParquetFileReader open(Path file) throws Exception {
        return ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(new ParquetCodecs()).build());
    }

    private static Set<Encoding> encodings(Path file) throws Exception {
        Set<Encoding> encodings = new TreeSet<>();
        try (ParquetFileReader reader = open(file)) {
            for (BlockMetaData block : reader.getFooter().getBlocks()) {
                for (ColumnChunkMetaData chunk : block.getColumns()) {
                    encodings.addAll(chunk.getEncodings());
                }
            }
        }
        return encodings;
    }

    /** Row groups of the file, and the most data pages one of its column chunks has. */
    private static int[] rowGroupsAndMostPages(Path file) throws Exception {
        int rowGroups = 0;
        int mostPages = 0;
        try (ParquetFileReader reader = open(file)) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            for (PageReadStore pages = reader.readNextRowGroup(); pages != null; pages = reader.readNextRowGroup()) {
                rowGroups++;
                for (ColumnDescriptor column : schema.getColumns()) {
                    PageReader chunk = pages.getPageReader(column);
                    int count = 0;
                    while (chunk.readPage() != null) {
                        count++;
                    }
                    mostPages = Math.max(mostPages, count);
                }
            }
        }
        return new int[] {rowGroups, mostPages};
    }

    /** {@code rows} written with small row groups and pages and a small dictionary, so that each kind of page appears. */
    static void write(Path file, MessageType schema, List<Object[]> rows, ParquetProperties.WriterVersion version,
            boolean dictionary) throws Exception {
        try (ParquetWriter<Object[]> writer = new ArrayWriterBuilder(new LocalOutputFile(file), new ArrayWriteSupport(schema))
                .withConf(new PlainParquetConfiguration())
                .withCodecFactory(new ParquetCodecs())
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withWriterVersion(version)
                .withDictionaryEncoding(dictionary)
                .withDictionaryPageSize(2_048)
                .withPageSize(4_096)
                .withPageRowCountLimit(1_000)
                .withRowGroupSize(64L * 1024)
                .build()) {
            for (Object[] row : rows) {
                writer.write(row);
            }
        }
    }

    /** Writes an {@code Object[]} a field each: Boolean, Integer, Long, Float, Double, String, or BigInteger (a decimal's unscaled value). */
    private static final class ArrayWriteSupport extends WriteSupport<Object[]> {
        private final MessageType schema;
        private RecordConsumer consumer;

        ArrayWriteSupport(MessageType schema) {
            this.schema = schema;
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(Object[] row) {
            consumer.startMessage();
            for (int index = 0; index < row.length; index++) {
                if (row[index] == null) {
                    continue;
                }
                Type field = schema.getType(index);
                consumer.startField(field.getName(), index);
                switch (row[index]) {
                    case Boolean value -> consumer.addBoolean(value);
                    case Integer value -> consumer.addInteger(value);
                    case Long value -> consumer.addLong(value);
                    case Float value -> consumer.addFloat(value);
                    case Double value -> consumer.addDouble(value);
                    case String value -> consumer.addBinary(Binary.fromConstantByteArray(value.getBytes(StandardCharsets.UTF_8)));
                    case BigInteger value -> {
                        byte[] bytes = value.toByteArray();
                        int length = field.asPrimitiveType().getTypeLength();
                        if (field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                            byte[] fixed = new byte[length];
                            Arrays.fill(fixed, 0, length - bytes.length, (byte) (value.signum() < 0 ? -1 : 0));
                            System.arraycopy(bytes, 0, fixed, length - bytes.length, bytes.length);
                            bytes = fixed;
                        }
                        consumer.addBinary(Binary.fromConstantByteArray(bytes));
                    }
                    default -> throw new IllegalArgumentException("no Parquet value for " + row[index].getClass());
                }
                consumer.endField(field.getName(), index);
            }
            consumer.endMessage();
        }
    }

    private static final class ArrayWriterBuilder extends ParquetWriter.Builder<Object[], ArrayWriterBuilder> {
        private final ArrayWriteSupport writeSupport;

        ArrayWriterBuilder(LocalOutputFile file, ArrayWriteSupport writeSupport) {
            super(file);
            this.writeSupport = writeSupport;
        }

        @Override
        protected ArrayWriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(org.apache.hadoop.conf.Configuration configuration) {
            return writeSupport;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(ParquetConfiguration configuration) {
            return writeSupport;
        }
    }
}
