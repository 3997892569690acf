package dev.columba.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.Main;
import dev.columba.storage.io.ProcSelfIo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code columba demo} on a small TestTable: it runs end to end, prints the seed's statements and
 * the driver's messages for them, and a comparison of the cold runs with its check against the
 * operating system. Timings vary from run to run; the test asserts on what does not.
 */
class SeedDemoTest {
    private static final Pattern CHECK = Pattern.compile("([\\d,]+) vs +([\\d,]+) bytes \\(ratio [\\d.]+\\)");
    private static final String COMPILE_TIME = "SQL Server parse and compile time: \\n   CPU time = \\d+ ms, elapsed time = \\d+ ms\\.\\n";

    private static String demo(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsTheSeedThroughTheDriverAndReusesAKeptDatabase(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("db");
        String output = demo("demo", "--rows", "3000", "--dir", database.toString());
        assertTrue(output.contains("FROM generate_series(1, 3000) AS g(n)\n(3,000 rows affected"), output);
        assertTrue(output.contains("> SELECT * FROM TestTable WHERE ID < 300\n(299 rows)\nTable 'TestTable'. Scan count 1, "), output);
        assertTrue(output.contains("WithUnorderedPrefetch"), output);
        assertTrue(output.contains("> DBCC TRACEON (652)\nDBCC execution completed."), output);
        assertTrue(output.contains("> DBCC TRACEON (8744)\nDBCC execution completed."), output);
        // With STATISTICS TIME on, the parse and compile time comes first (0 ms for a cached plan).
        assertTrue(Pattern.compile("\\(2,999 rows\\)\n" + COMPILE_TIME + "Table 'TestTable'\\. Scan count 1, ").matcher(output).find(),
                output);
        assertTrue(Pattern.compile("\\(999 rows\\)\n" + COMPILE_TIME + "Table 'TestTable'\\. Scan count 1, ").matcher(output).find(),
                output);
        assertTrue(output.contains("Table 'Testtable2'. Scan count 0, "), output);
        assertTrue(output.contains(" SQL Server Execution Times:\n   CPU time = "), output);
        assertTrue(output.contains("== Comparison of the cold runs"), output);

        // The agreement with read_bytes is the storage tests' business (they control the page cache); here each
        // cold run must have read something and printed its check.
        Matcher check = CHECK.matcher(output);
        int checks = 0;
        while (check.find()) {
            assertTrue(Long.parseLong(check.group(1).replace(",", "")) > 0, check.group());
            checks++;
        }
        assertEquals(ProcSelfIo.available() ? 4 : 0, checks, output);
        assertTrue(Files.isDirectory(database), "--dir keeps the database");

        String again = demo("demo", "--rows", "3000", "--dir", database.toString());
        assertTrue(again.contains("TestTable exists: using it as it is"), again);
        assertFalse(again.contains("INSERT INTO"), again);
    }

    @Test
    void refusesTooFewRows() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, Main.run(new String[] {"demo", "--rows", "999"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--rows must be at least 1000"), err.toString(StandardCharsets.UTF_8));
    }
}
