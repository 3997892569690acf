package dev.columba.planner.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The parser's one-pass path for plain records ({@code plainRecord}) builds exactly what the
 * general path builds: the same rows, line counts, end and first failure with its message, over
 * random records whose fields take every shape — valid, out of range, malformed, quoted, the NULL
 * text, non-ASCII, too long or short, missing or extra fields — and every line ending. Randomized;
 * the seed is in every message.
 */
class CsvBlockParserTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.BIGINT),
            Column.nullable("small", SqlType.INT),
            Column.nullable("name", SqlType.varchar(12)),
            Column.nullable("code", SqlType.character(3)),
            Column.nullable("amount", SqlType.decimal(9, 2)),
            Column.nullable("day", SqlType.DATE),
            Column.nullable("ratio", SqlType.DOUBLE));
    private static final int[] ALL = {0, 1, 2, 3, 4, 5, 6};
    private static final String[][] SHAPES = {
            {"1", "-42", "123456789012345678", "0", "", "1x", "9999999999999999999", "+5", " 5", "-", "\"7\""},
            {"5", "-5", "2147483647", "-2147483648", "2147483648", "", "1.0", "007", "\"3\""},
            {"abc", "", "日本", "twelve chars", "thirteen char", "\"quoted, yes\"", "x\"y", "NUL", "a b"},
            {"abc", "ab", "abcd", "日本語", "", "\"a,b\"", "NUL"},
            {"1.5", "-0.25", "1234567.89", "12345678.9", "1.005", ".5", "5.", "-", "", "1e3", "0", "-.5", "1.2.3"},
            {"2020-01-01", "2020-02-30", "2020-1-1", "", "2020-01-011", "9999-12-31", "0001-01-01", "2021-02-29",
                    "20200101", "\"2020-03-04\""},
            {"1.5", "-2", "1e300", "NaN", "", "abc"}};
    private static final String[] LINE_ENDS = {"\n", "\n", "\n", "\r\n", "\r"};

    private static String record(Random random, boolean invalidAllowed) {
        StringBuilder line = new StringBuilder();
        int fields = invalidAllowed && random.nextInt(40) == 0 ? ALL.length + random.nextInt(3) - 1 : ALL.length;
        for (int field = 0; field < fields; field++) {
            if (field > 0) {
                line.append(',');
            }
            String[] shapes = SHAPES[Math.min(field, SHAPES.length - 1)];
            // Mostly the first (valid, common) shapes, sometimes any.
            int shape = invalidAllowed && random.nextInt(10) == 0 ? random.nextInt(shapes.length)
                    : random.nextInt(Math.min(3, shapes.length));
            line.append(shapes[shape]);
        }
        return line.append(LINE_ENDS[random.nextInt(LINE_ENDS.length)]).toString();
    }

    @Test
    void plainRecordsBuildWhatTheGeneralPathBuilds() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        int failures = 0;
        for (int round = 0; round < 400; round++) {
            CsvFormat format = new CsvFormat((byte) ',', (byte) '"', (byte) '"',
                    (round % 3 == 0 ? "NUL" : "").getBytes(StandardCharsets.UTF_8), false);
            StringBuilder text = new StringBuilder();
            boolean invalidAllowed = round % 2 == 0;
            int records = 1 + random.nextInt(30);
            for (int record = 0; record < records; record++) {
                text.append(record(random, invalidAllowed));
            }
            byte[] data = text.toString().getBytes(StandardCharsets.UTF_8);
            for (boolean atEof : new boolean[] {true, false}) {
                // Cut anywhere: a record may be split, a \r\n too.
                int end = atEof ? data.length : random.nextInt(data.length + 1);
                String where = "seed " + seed + ", round " + round + ", end " + end + ", atEof " + atEof + ": "
                        + text.toString().replace("\r", "\\r").replace("\n", "\\n");
                ParsedBlock general = new CsvBlockParser(format, SCHEMA, "t", ALL, false).parse(data, 0, end, atEof);
                ParsedBlock plain = new CsvBlockParser(format, SCHEMA, "t", ALL, true).parse(data, 0, end, atEof);
                assertEquals(general.batch().rows(), plain.batch().rows(), where);
                for (int row = 0; row < general.batch().rows(); row++) {
                    assertArrayEquals(general.batch().row(row), plain.batch().row(row), where + ", row " + row);
                    assertEquals(general.rowLines()[row], plain.rowLines()[row], where + ", row " + row);
                }
                assertEquals(general.consumedEnd(), plain.consumedEnd(), where);
                assertEquals(general.lineBreaks(), plain.lineBreaks(), where);
                assertEquals(general.failureLine(), plain.failureLine(), where);
                assertEquals(general.failure() == null, plain.failure() == null, where);
                if (general.failure() != null) {
                    failures++;
                    assertEquals(general.failure().errorCode(), plain.failure().errorCode(), where);
                    assertEquals(general.failure().getMessage(), plain.failure().getMessage(), where);
                }
            }
        }
        assertTrue(failures > 20, "seed " + seed + ": the shapes make some records fail (" + failures + ")");
    }
}
