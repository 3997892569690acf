package dev.columba.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Databases loaded by an earlier version of the suite, before a query was added, are reused with the new query agreed on. */
class LineitemDatabasesTest {
    @TempDir
    Path data;

    @Test
    void aQueryAddedSinceTheLoadIsAgreedOnWithoutLoadingAgain() throws Exception {
        LineitemDatabases.Description first = LineitemDatabases.prepare(data, 0.01, new PrintStream(PrintStream.nullOutputStream()));
        assertTrue(first.loadedNow());
        Path marker = data.resolve("peers-sf0.01.properties");
        List<String> lines = Files.readAllLines(marker, StandardCharsets.ISO_8859_1);
        List<String> older = lines.stream().filter(line -> !line.startsWith("expected.SCAN_FILTERED=")).toList();
        assertEquals(lines.size() - 1, older.size(), "the marker held the answer: " + lines);
        Files.write(marker, older, StandardCharsets.ISO_8859_1);

        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        LineitemDatabases.Description again = LineitemDatabases.prepare(data, 0.01,
                new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertFalse(again.loadedNow(), "reused, not loaded again");
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("no agreed answer for a query added since"), progress::toString);
        assertEquals(first.expected().get(TpchQuery.SCAN_FILTERED), again.expected().get(TpchQuery.SCAN_FILTERED));
        assertTrue(Files.readString(marker, StandardCharsets.ISO_8859_1).contains("expected.SCAN_FILTERED="), "recorded again");
    }
}
