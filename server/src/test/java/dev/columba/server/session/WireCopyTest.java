package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireCopyTest {
    @Test
    void readsBothOptionSpellingsAndLeavesFileCopiesToColumba() {
        WireCopy text = WireCopy.of("COPY t FROM STDIN");
        assertEquals(new WireCopy(true, "t", false, '\t', "\\N", false, '"', '"'), text);
        WireCopy modern = WireCopy.of("copy t (a, \"b c\") from stdin with (format csv, header true, delimiter ';', null 'NA')");
        assertEquals(new WireCopy(true, "t (a, \"b c\")", true, ';', "NA", true, '"', '"'), modern);
        WireCopy legacy = WireCopy.of("COPY t FROM STDIN WITH DELIMITER AS '|' NULL AS '' CSV HEADER QUOTE AS '''' ESCAPE '\\'");
        assertEquals(new WireCopy(true, "t", true, '|', "", true, '\'', '\\'), legacy);
        WireCopy tab = WireCopy.of("COPY t FROM STDIN (FORMAT csv, DELIMITER E'\\t');");
        assertEquals('\t', tab.delimiter());
        WireCopy out = WireCopy.of("COPY (SELECT a FROM t WHERE s = 'TO STDOUT') TO STDOUT");
        assertFalse(out.in());
        assertEquals("SELECT a FROM t WHERE s = 'TO STDOUT'", out.query());
        assertEquals("SELECT a, b FROM t ", WireCopy.of("COPY t (a, b) TO STDOUT").query());
        assertNull(WireCopy.of("COPY t FROM '/tmp/x.csv' (FORMAT csv)"));
        assertNull(WireCopy.of("SELECT 1"));
    }

    @Test
    void refusesWhatItCannotDoWithTheRightSqlState() {
        assertEquals("0A000", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (FORMAT binary)")).sqlState());
        assertEquals("0A000", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (FORMAT csv, FORCE_NULL (a))")).sqlState());
        assertEquals("0A000", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (ENCODING 'LATIN1')")).sqlState());
        assertEquals("22023", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (QUOTE '\"')")).sqlState());
        assertEquals("22023", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (FORMAT csv, DELIMITER '\"')")).sqlState());
        assertEquals("42601", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY (SELECT 1) FROM STDIN")).sqlState());
        assertEquals("42601", assertThrows(WireSqlException.class,
                () -> WireCopy.of("COPY t FROM STDIN (FORMAT csv")).sqlState());
    }

    @Test
    void textFormatBecomesCsvWithNullsEscapesAndTheEndMarker() throws IOException {
        WireCopy copy = WireCopy.of("COPY t FROM STDIN");
        String text = "1\ta\\tb\\nc\\\\d\t\\N\n"
                + "2\t\t\\x41\\101\\\\N\r\n"
                + "3\t\"quoted\"\tx\n"
                + "\\.\n"
                + "4\tignored\tafter the marker\n";
        assertEquals("\"1\",\"a\tb\nc\\d\",\n"
                + "\"2\",\"\",\"AA\\N\"\n"
                + "\"3\",\"\"\"quoted\"\"\",\"x\"\n", csv(text, copy));
        WireCopy header = WireCopy.of("COPY t FROM STDIN (HEADER, DELIMITER '|', NULL '')");
        assertEquals("\"x\",\n", csv("a|b\nx|\n", header));
        assertEquals("22P04", assertThrows(WireSqlException.class, () -> csv("1\tends with \\", copy)).sqlState());
    }

    @Test
    void rowsGoOutInTextAndCsvForm() {
        WireCopy text = WireCopy.of("COPY t TO STDOUT");
        List<byte[]> values = Arrays.asList(bytes("a\tb\\c\nd"), null, bytes(""));
        assertEquals("a\\tb\\\\c\\nd\t\\N\t\n", new String(CopyRows.row(values, text), StandardCharsets.UTF_8));
        WireCopy csv = WireCopy.of("COPY t TO STDOUT (FORMAT csv)");
        List<byte[]> csvValues = Arrays.asList(bytes("plain"), bytes("with, \"quote\""), null, bytes(""));
        assertEquals("plain,\"with, \"\"quote\"\"\",,\"\"\n", new String(CopyRows.row(csvValues, csv), StandardCharsets.UTF_8));
        assertTrue(new String(CopyRows.header(List.of("a", "b c"), csv), StandardCharsets.UTF_8).equals("a,b c\n"));
    }

    private static String csv(String text, WireCopy copy) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CopyRows.textToCsv(new ByteArrayInputStream(bytes(text)), out, copy);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
