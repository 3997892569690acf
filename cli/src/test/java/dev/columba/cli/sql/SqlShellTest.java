package dev.columba.cli.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shell end to end over the real driver and a database directory. */
class SqlShellTest {
    @TempDir
    Path directory;

    private record Run(int exit, String out, String err) {
    }

    private Run run(String input, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(prepend("sql", args), new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aScriptCreatesQueriesAndReportsStatisticsOnce() throws Exception {
        Path script = directory.resolve("script.sql");
        Files.writeString(script, """
                CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20));
                INSERT INTO t VALUES (1, 'one'), (2, NULL), (10, 'ten');
                SET STATISTICS IO ON
                GO
                SELECT id, name FROM t WHERE id < 5 ORDER BY id;
                """);
        Run run = run("", directory.resolve("db").toString(), "-f", script.toString());
        assertEquals(0, run.exit(), run.err());
        assertEquals("""
                (3 rows affected)
                id | name
                ---+-----
                 1 | one
                 2 | NULL
                (2 rows)
                """, run.out().substring(0, run.out().indexOf("Table 't'")));
        String statistics = run.out().substring(run.out().indexOf("Table 't'"));
        assertTrue(statistics.startsWith("Table 't'. Scan count 1, logical reads "), statistics);
        assertEquals(1, run.out().split("Table 't'", -1).length - 1, "printed once: " + run.out());
    }

    @Test
    void aCopyIsReportedOnceByItsOwnMessage() throws Exception {
        Path csv = directory.resolve("t.csv");
        Run run = run("", directory.resolve("db").toString(), "-c", "CREATE TABLE t (id INT, name VARCHAR(20))",
                "-c", "INSERT INTO t VALUES (1, 'one'), (2, 'two')", "-c", "COPY t TO '" + csv + "' (FORMAT csv)",
                "-c", "COPY t FROM '" + csv + "' (FORMAT csv)");
        assertEquals(0, run.exit(), run.err());
        assertEquals("(2 rows affected)\nCOPY 2\nCOPY 2\n", run.out());
    }

    /**
     * A COPY of more than a million rows reports its progress on the error stream as it runs, every
     * million rows: the rows, the MB read of the file's and the percentage, the rate and the time
     * left at that rate. The results on the
     * output stream are as without it.
     */
    @Test
    void aLongCopyReportsItsProgressEveryMillionRows() throws Exception {
        Path csv = directory.resolve("many.csv");
        int rows = 2_100_000;
        try (java.io.BufferedWriter writer = Files.newBufferedWriter(csv)) {
            for (int row = 0; row < rows; row++) {
                writer.write(Integer.toString(row));
                writer.write('\n');
            }
        }
        long fileBytes = Files.size(csv);
        Run run = run("", directory.resolve("db").toString(), "-c",
                "CREATE TABLE t (id INT NOT NULL) WITH (storage = columnstore)", "-c", "COPY t FROM '" + csv + "'");
        assertEquals(0, run.exit(), run.err());
        assertEquals("COPY " + rows + "\n", run.out());
        List<String> progress = run.err().lines().filter(line -> line.startsWith("COPY progress: ")).toList();
        assertEquals(2, progress.size(), run.err());
        String total = String.format(java.util.Locale.ROOT, "of %.1f MB", fileBytes / 1e6);
        for (int report = 0; report < progress.size(); report++) {
            String line = progress.get(report);
            assertTrue(line.contains(total) && line.matches(".* MB/s, about (\\d+ (h|min) )?\\d+ (s|min) left"), line);
            // A columnstore load takes parsed blocks whole: reported after the block that passes each million.
            long reported = Long.parseLong(line.substring("COPY progress: ".length(), line.indexOf(" rows")).replace(",", ""));
            assertTrue(reported >= (report + 1) * 1_000_000L && reported < Math.min(rows + 1, (report + 2) * 1_000_000L), line);
            // Read at least the rows reported (about 7 bytes a row here, at least 6), at most the whole file.
            double percent = Double.parseDouble(line.substring(line.indexOf('(') + 1, line.indexOf("%)")));
            assertTrue(percent >= Math.floor(100.0 * reported * 6 / fileBytes) && percent <= 100, line);
        }
    }

    @Test
    void timeLeftReadsAsPeopleSayIt() {
        assertEquals("0 s", SqlShell.duration(0.2));
        assertEquals("59 s", SqlShell.duration(59.4));
        assertEquals("3 min 5 s", SqlShell.duration(185));
        assertEquals("1 h 20 min", SqlShell.duration(4810));
    }

    @Test
    void errorsCarryTheirSqlStateAndSetTheExitCode() {
        Run run = run("", directory.resolve("db").toString(), "-c", "SELECT * FROM missing", "-c", "SELEC 1");
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("ERROR [42P01]"), run.err());
        assertTrue(run.err().contains("ERROR [42601]"), run.err());
    }

    @Test
    void theInteractiveShellContinuesStatementsAndQuits() {
        Run run = run("CREATE TABLE t (id INT);\nINSERT INTO t\nVALUES (7);\nSELECT id FROM t;\n\\dt\n\\q\nSELECT 1;\n",
                directory.resolve("db").toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("      -> "), "continuation prompt: " + run.out());
        assertTrue(run.out().contains("(1 row affected)"), run.out());
        assertTrue(run.out().contains("id\n--\n 7\n(1 row)"), run.out());
        assertTrue(run.out().contains("TABLE_NAME"), run.out());
        assertTrue(run.out().endsWith("columba> "), "nothing runs after \\q: " + run.out());
    }

    @Test
    void describeShowsIndexesAndResultsGoAsCsvOrJsonToAFile() throws Exception {
        Path script = directory.resolve("setup.sql");
        Files.writeString(script, """
                CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), amount DECIMAL(10, 2));
                CREATE INDEX t_name ON t (name, amount);
                INSERT INTO t VALUES (1, 'a, "quoted"', 2.50), (2, NULL, NULL), (3, '', 1e2);
                """);
        Path results = directory.resolve("results.txt");
        Run run = run("\\i " + script + "\n\\d t\n\\pset format csv\nSELECT * FROM t ORDER BY id;\n"
                + "\\o " + results + "\n\\pset format json\nSELECT id, name, amount FROM t ORDER BY id;\n\\o\n"
                + "\\pset format aligned\nSELECT COUNT(*) AS n FROM t;\n\\pset format yaml\n", directory.resolve("db").toString());
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("(3 rows affected)"), "\\i ran the file: " + run.out());
        assertTrue(run.out().contains("""
                Indexes:
                    t UNIQUE (id)
                    t_name (name, amount)
                """), run.out());
        assertTrue(run.out().contains("""
                id,name,amount
                1,"a, ""quoted""\",2.50
                2,,
                3,"",100.00
                """), "CSV: " + run.out());
        assertEquals("""
                [
                {"id":1,"name":"a, \\"quoted\\"","amount":2.50},
                {"id":2,"name":null,"amount":null},
                {"id":3,"name":"","amount":100.00}
                ]
                """, Files.readString(results), "JSON went to the file, not the screen");
        assertTrue(!run.out().contains("\"id\":1"), run.out());
        assertTrue(run.out().contains("n\n-\n3\n(1 row)"), "back to the screen, aligned: " + run.out());
        assertTrue(run.err().contains("\\pset: unknown format yaml"), run.err());
    }

    @Test
    void badArgumentsAreUsageErrors() {
        assertEquals(2, run("", "-x").exit());
        assertEquals(2, run("", "-c").exit());
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
