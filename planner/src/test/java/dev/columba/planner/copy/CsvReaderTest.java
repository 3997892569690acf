package dev.columba.planner.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CSV reader: the same rows at every MAXDOP and block size, quoted line breaks across block
 * cuts included (the speculative cut's rule), and errors naming the file's line in every mode.
 */
class CsvReaderTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.BIGINT),
            Column.nullable("name", SqlType.varchar(30)),
            Column.nullable("amount", SqlType.decimal(9, 2)),
            Column.nullable("day", SqlType.DATE));
    private static final int[] ALL = {0, 1, 2, 3};

    @TempDir
    Path directory;

    /** Rows with quoted commas, quotes, line breaks (\n, \r\n), NULLs, empty strings and non-ASCII text. */
    private static List<Object[]> randomRows(long seed, int count) {
        Random random = new Random(seed);
        String[] texts = {"plain", "with, comma", "say \"hi\"", "two\nlines", "crlf\r\nbreak", "", "日本語😀", "x"};
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            rows.add(new Object[] {(long) id, random.nextInt(6) == 0 ? null : texts[random.nextInt(texts.length)],
                    random.nextInt(5) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2),
                    random.nextInt(5) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(20_000))});
        }
        return rows;
    }

    private static String csv(List<Object[]> rows, boolean header) {
        StringBuilder text = new StringBuilder(header ? "id,name,amount,day\n" : "");
        for (Object[] row : rows) {
            text.append(row[0]).append(',');
            if (row[1] != null) {
                text.append('"').append(((String) row[1]).replace("\"", "\"\"")).append('"');
            }
            text.append(',').append(row[2] == null ? "" : ((BigDecimal) row[2]).toPlainString());
            text.append(',').append(row[3] == null ? "" : row[3]).append(row[0].equals(7L) ? "\r\n" : "\n");
        }
        return text.toString();
    }

    private List<Object[]> read(Path file, CopyOptions options, int blockBytes) {
        List<Object[]> rows = new ArrayList<>();
        try (CsvReader reader = new CsvReader(file, file.toString(), options, SCHEMA, "t", ALL, ignored -> { },
                blockBytes)) {
            while (reader.hasNext()) {
                rows.add(reader.next());
            }
        }
        return rows;
    }

    /** The rows as {@link CsvReader#batches} hands them to a columnstore's bulk load. */
    private List<Object[]> readBatches(Path file, CopyOptions options, int blockBytes) {
        List<Object[]> rows = new ArrayList<>();
        try (CsvReader reader = new CsvReader(file, file.toString(), options, SCHEMA, "t", ALL, ignored -> { },
                blockBytes)) {
            var batches = reader.batches();
            while (batches.hasNext()) {
                ColumnBatch batch = batches.next();
                for (int row = 0; row < batch.rows(); row++) {
                    rows.add(batch.row(row));
                }
            }
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void batchesHoldTheRowsAndFailWithTheErrorsOfRows(int maxDop) throws Exception {
        long seed = System.nanoTime();
        List<Object[]> expected = randomRows(seed, 2_000);
        Path file = Files.writeString(directory.resolve("rows.csv"), csv(expected, true), StandardCharsets.UTF_8);
        for (int blockBytes : new int[] {16, 1024, 1 << 21}) {
            List<Object[]> rows = readBatches(file, options(maxDop, true), blockBytes);
            assertEquals(expected.size(), rows.size(), "seed " + seed + ", blocks of " + blockBytes);
            for (int index = 0; index < rows.size(); index++) {
                assertArrayEquals(expected.get(index), rows.get(index), "seed " + seed + ", blocks of " + blockBytes
                        + ", row " + index);
            }
        }
        String[] bad = {"id,name,amount,day\n1,\"a\nb\",1.5,2020-01-01\n2,b,12345678.999,\n",
                "id,name,amount,day\n1,a,1,2021-02-29x\n", "id,name,amount,day\n1,a,1,\n,b,2,\n",
                "id,name,amount,day\n1,a,1,\n2,\"open,1,\n"};
        for (int index = 0; index < bad.length; index++) {
            Path badFile = Files.writeString(directory.resolve("bad" + index + ".csv"), bad[index]);
            for (int blockBytes : new int[] {8, 1 << 20}) {
                ColumbaException byRows = assertThrows(ColumbaException.class,
                        () -> read(badFile, options(maxDop, true), blockBytes));
                ColumbaException byBatches = assertThrows(ColumbaException.class,
                        () -> readBatches(badFile, options(maxDop, true), blockBytes));
                assertEquals(byRows.errorCode(), byBatches.errorCode(), bad[index]);
                assertEquals(byRows.getMessage(), byBatches.getMessage(), bad[index]);
                assertTrue(byBatches.getMessage().contains(badFile + " line "), byBatches.getMessage());
            }
        }
    }

    @Test
    void datesAreCountedAsLocalDateCountsThemAndImpossibleOnesLeftToStoreAssignment() {
        for (LocalDate day = LocalDate.of(1, 1, 1); day.getYear() < 10_000; day = day.plusDays(13)) {
            byte[] text = day.toString().getBytes(StandardCharsets.US_ASCII);
            assertEquals(day.toEpochDay(), FieldConverter.epochDay(text, 0, text.length), day.toString());
        }
        for (String impossible : new String[] {"2021-02-29", "2020-02-30", "2020-04-31", "2020-13-01", "2020-00-10",
                "2020-01-00", "0000-01-01", "2020/01/01", "2020-1-01", "20a0-01-01"}) {
            byte[] text = impossible.getBytes(StandardCharsets.US_ASCII);
            assertEquals(Long.MIN_VALUE, FieldConverter.epochDay(text, 0, text.length), impossible);
        }
        byte[] leap = "2000-02-29".getBytes(StandardCharsets.US_ASCII);
        assertEquals(LocalDate.of(2000, 2, 29).toEpochDay(), FieldConverter.epochDay(leap, 0, leap.length));
    }

    private static CopyOptions options(int maxDop, boolean header) {
        return new CopyOptions(new CsvFormat((byte) ',', (byte) '"', (byte) '"', new byte[0], header), maxDop);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void everyMaxDopAndBlockSizeReadsTheSameRows(int maxDop) throws Exception {
        long seed = System.nanoTime();
        List<Object[]> expected = randomRows(seed, 3_000);
        Path file = Files.writeString(directory.resolve("rows.csv"), csv(expected, true), StandardCharsets.UTF_8);
        for (int blockBytes : new int[] {16, 61, 1024, 1 << 21}) {
            List<Object[]> rows = read(file, options(maxDop, true), blockBytes);
            assertEquals(expected.size(), rows.size(), "seed " + seed + ", blocks of " + blockBytes);
            for (int index = 0; index < rows.size(); index++) {
                assertArrayEquals(expected.get(index), rows.get(index), "seed " + seed + ", blocks of " + blockBytes
                        + ", row " + index);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void anErrorNamesTheFilesLineAfterQuotedLineBreaksInEveryMode(int maxDop) throws Exception {
        StringBuilder text = new StringBuilder("id,name,amount,day\n");
        for (int id = 0; id < 500; id++) {
            text.append(id).append(",\"a\nb\",1.5,2020-01-0").append(1 + id % 9).append('\n');
        }
        // The header is line 1, each record two lines: record 500 starts on line 1002.
        text.append("500,\"fine\",12345678.999,2020-01-01\n");
        Path file = Files.writeString(directory.resolve("bad.csv"), text, StandardCharsets.UTF_8);
        for (int blockBytes : new int[] {32, 4096, 1 << 21}) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> read(file, options(maxDop, true),
                    blockBytes));
            assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, error.errorCode(), error.getMessage());
            assertTrue(error.getMessage().contains("bad.csv line 1002, column amount"), error.getMessage());
        }
    }

    @Test
    void anUnclosedQuoteIsReportedAtTheLineItStarts() throws Exception {
        Path file = Files.writeString(directory.resolve("open.csv"), "1,a,1,2020-01-01\n2,\"open,1,2020-01-01\n3,b,1,\n");
        for (int maxDop : new int[] {1, 2}) {
            ColumbaException error = assertThrows(ColumbaException.class, () -> read(file, options(maxDop, false), 8));
            assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
            assertTrue(error.getMessage().contains("open.csv line 2: the quoted field"), error.getMessage());
        }
    }

    @Test
    void fieldCountsAndNotNullAreChecked() throws Exception {
        Path few = Files.writeString(directory.resolve("few.csv"), "1,a,1,2020-01-01\n2,b\n");
        ColumbaException error = assertThrows(ColumbaException.class, () -> read(few, options(1, false), 1 << 20));
        assertTrue(error.getMessage().contains("few.csv line 2 has 2 fields, expected 4"), error.getMessage());
        Path missing = Files.writeString(directory.resolve("missing.csv"), ",a,1,2020-01-01\n");
        error = assertThrows(ColumbaException.class, () -> read(missing, options(2, false), 1 << 20));
        assertEquals(ErrorCode.NULL_NOT_ALLOWED, error.errorCode());
        assertTrue(error.getMessage().contains("missing.csv line 1: Cannot insert the value NULL into column 'id'"),
                error.getMessage());
    }

    @Test
    void theHeaderMustNameTheColumnsInOrder() throws Exception {
        Path swapped = Files.writeString(directory.resolve("swapped.csv"), "id,amount,name,day\n1,1,a,2020-01-01\n");
        ColumbaException error = assertThrows(ColumbaException.class, () -> read(swapped, options(1, true), 1 << 20));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains("swapped.csv line 1: the header's column 2 is 'amount', COPY expects"
                + " 'name'"), error.getMessage());
        Path shortHeader = Files.writeString(directory.resolve("short.csv"), "ID,Name\n");
        error = assertThrows(ColumbaException.class, () -> read(shortHeader, options(2, true), 1 << 20));
        assertTrue(error.getMessage().contains("the header names 2 columns, COPY expects 4"), error.getMessage());
        Path empty = Files.writeString(directory.resolve("empty.csv"), "");
        assertEquals(0, read(empty, options(2, true), 1 << 20).size(), "an empty file has no header and no rows");
    }

    @Test
    void delimiterQuoteEscapeAndNullTextApply() throws Exception {
        Path file = Files.writeString(directory.resolve("custom.csv"),
                "1|'it\\'s|here'|\\N|2020-02-29\n2|\\N|'\\N'|\n3|'back\\\\slash'|-0.5|0001-01-01\n", StandardCharsets.UTF_8);
        CopyOptions options = new CopyOptions(new CsvFormat((byte) '|', (byte) '\'', (byte) '\\',
                "\\N".getBytes(StandardCharsets.UTF_8), false), 2);
        ColumbaException error = assertThrows(ColumbaException.class, () -> read(file, options, 1 << 20));
        // Row 2's amount is the quoted text \N: not NULL (a quoted field never is), and not a number.
        assertTrue(error.getMessage().contains("custom.csv line 2, column amount"), error.getMessage());
        Path fixed = Files.writeString(directory.resolve("fixed.csv"),
                "1|'it\\'s|here'|\\N|2020-02-29\n2|\\N|7|\\N\n3|'back\\\\slash'|-0.5|0001-01-01\n", StandardCharsets.UTF_8);
        List<Object[]> rows = read(fixed, options, 7);
        assertArrayEquals(new Object[] {1L, "it's|here", null, LocalDate.of(2020, 2, 29)}, rows.get(0));
        assertArrayEquals(new Object[] {2L, null, new BigDecimal("7.00"), null}, rows.get(1));
        assertArrayEquals(new Object[] {3L, "back\\slash", new BigDecimal("-0.50"), LocalDate.of(1, 1, 1)}, rows.get(2));
    }

    @Test
    void valuesThatDoNotFitAreRefusedNeverCut() throws Exception {
        Path tooLong = Files.writeString(directory.resolve("long.csv"), "1," + "é".repeat(31) + ",1,\n",
                StandardCharsets.UTF_8);
        ColumbaException error = assertThrows(ColumbaException.class, () -> read(tooLong, options(2, false), 1 << 20));
        assertEquals(ErrorCode.STRING_TOO_LONG, error.errorCode());
        assertTrue(error.getMessage().contains("long.csv line 1, column name"), error.getMessage());
        Path tooBig = Files.writeString(directory.resolve("big.csv"), "99999999999999999999,a,1,\n");
        error = assertThrows(ColumbaException.class, () -> read(tooBig, options(1, false), 1 << 20));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, error.errorCode());
        assertTrue(error.getMessage().contains("big.csv line 1, column id"), error.getMessage());
        Path rounded = Files.writeString(directory.resolve("rounded.csv"), "1,a,1.005,\n2,a,+3,\n3,a, 4 ,\n");
        List<Object[]> rows = read(rounded, options(1, false), 1 << 20);
        assertEquals(new BigDecimal("1.01"), rows.get(0)[2], "more decimals round as CAST does");
        assertEquals(new BigDecimal("3.00"), rows.get(1)[2]);
        assertEquals(new BigDecimal("4.00"), rows.get(2)[2]);
    }

    @Test
    void bytesThatAreNotUtf8AreAnErrorNamingTheLine() throws Exception {
        Path file = directory.resolve("latin1.csv");
        Files.write(file, new byte[] {'1', ',', 'a', '\n', '2', ',', (byte) 0xE9, 't', (byte) 0xE9, ',', '1', ',', '\n'});
        ColumbaException error = assertThrows(ColumbaException.class, () -> read(file, options(1, false), 1 << 20));
        assertTrue(error.getMessage().contains("latin1.csv line 1 has 2 fields"), error.getMessage());
        Files.write(file, new byte[] {'2', ',', (byte) 0xE9, 't', (byte) 0xE9, ',', '1', ',', '\n'});
        error = assertThrows(ColumbaException.class, () -> read(file, options(1, false), 1 << 20));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains("latin1.csv line 1, column name: the field is not valid UTF-8"),
                error.getMessage());
    }

    /**
     * Unquoted fields are scanned eight bytes at a time: every length around the word size, the
     * stop byte (delimiter, \n, \r\n, the end of the file) at every offset of a word, non-ASCII
     * text at every offset (it must not pass as ASCII) and a byte that is no UTF-8 at every offset
     * (an error naming its line).
     */
    @Test
    void unquotedFieldsOfEveryLengthAndOffsetAreScannedWhole() throws Exception {
        List<Object[]> expected = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        long id = 0;
        for (int length = 0; length <= 20; length++) {
            for (int nonAscii = -1; nonAscii < length; nonAscii++) {
                StringBuilder name = new StringBuilder();
                for (int position = 0; position < length; position++) {
                    name.append(position == nonAscii ? 'é' : (char) ('a' + position));
                }
                for (String lineEnd : new String[] {"\n", "\r\n"}) {
                    // The name in the middle of the record, then last (ended by the line break).
                    text.append(id).append(',').append(name).append(",1.5,\n");
                    expected.add(new Object[] {id++, length == 0 ? null : name.toString(), new BigDecimal("1.50"), null});
                    text.append(id).append(",,,").append(name.isEmpty() ? "" : "2020-01-0" + (1 + length % 9))
                            .append(lineEnd);
                    expected.add(new Object[] {id++, null, null,
                            name.isEmpty() ? null : LocalDate.of(2020, 1, 1 + length % 9)});
                }
            }
        }
        text.append(id).append(",no line break at the end,,");
        expected.add(new Object[] {id, "no line break at the end", null, null});
        Path file = Files.writeString(directory.resolve("lengths.csv"), text.toString(), StandardCharsets.UTF_8);
        for (int blockBytes : new int[] {8, 13, 1 << 20}) {
            for (List<Object[]> rows : List.of(read(file, options(1, false), blockBytes),
                    readBatches(file, options(1, false), blockBytes))) {
                assertEquals(expected.size(), rows.size(), "blocks of " + blockBytes);
                for (int index = 0; index < rows.size(); index++) {
                    assertArrayEquals(expected.get(index), rows.get(index), "blocks of " + blockBytes + ", row " + index);
                }
            }
        }
        for (int length = 1; length <= 20; length++) {
            for (int bad = 0; bad < length; bad++) {
                byte[] name = new byte[length];
                java.util.Arrays.fill(name, (byte) 'n');
                name[bad] = (byte) 0xFF;
                java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                bytes.writeBytes("1,fine,,\n2,".getBytes(StandardCharsets.US_ASCII));
                bytes.writeBytes(name);
                bytes.writeBytes(",,\n".getBytes(StandardCharsets.US_ASCII));
                Path badFile = Files.write(directory.resolve("bad.csv"), bytes.toByteArray());
                ColumbaException error = assertThrows(ColumbaException.class,
                        () -> readBatches(badFile, options(1, false), 1 << 20));
                assertTrue(error.getMessage().contains("bad.csv line 2, column name: the field is not valid UTF-8"),
                        length + " bytes, bad at " + bad + ": " + error.getMessage());
            }
        }
    }
}
