package dev.columba.cli.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up cache's training script (run by the launcher after each build with
 * {@code -XX:AOTCacheOutput}) runs to its end: a statement Columba stops accepting would otherwise
 * leave the cache trained on half the script, silently.
 */
class StartupTrainingTest {
    @TempDir
    Path directory;

    @Test
    void theTrainingScriptRunsEveryStatement() throws Exception {
        String script;
        try (InputStream in = StartupTrainingTest.class.getResourceAsStream("/dev/columba/cli/startup-training.sql")) {
            assertNotNull(in, "the training script is a resource of the cli module");
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // The launcher runs the script in its temporary directory; a test cannot change its working
        // directory, so the CSV file's relative name is made absolute in the same temporary place.
        String csv = directory.resolve("sales.csv").toString();
        assertTrue(script.contains("'sales.csv'"), "the script round-trips a CSV file");
        Path file = directory.resolve("training.sql");
        Files.writeString(file, script.replace("'sales.csv'", "'" + csv + "'"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(new String[] {"sql", directory.resolve("db").toString(), "--stop-on-error", "-f", file.toString()},
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertEquals(2, printed.split("COPY 999\n", -1).length - 1, "written and loaded back: " + printed);
        assertTrue(printed.contains("Table 'sales'. Scan count"), printed);
        assertTrue(printed.contains("ColumnstoreScan [sales"), printed);
        assertTrue(printed.endsWith("(4 rows)\n"), "ends with the four tables listed: " + printed);
    }
}
