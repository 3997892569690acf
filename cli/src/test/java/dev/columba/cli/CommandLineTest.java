package dev.columba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every subcommand has --help and --version, and every usage error is a message naming the
 * command followed by its usage, exit code 2: the five hand-written parsers this replaced printed
 * nothing for {@code diag --help}, took {@code --help} for a database directory, and threw
 * ArrayIndexOutOfBoundsException for an option missing its value at the end.
 */
class CommandLineTest {
    @TempDir
    Path directory;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code command}'s words followed by {@code option}. */
    private static Run runWith(String command, String option) {
        String[] words = command.isEmpty() ? new String[0] : command.split(" ");
        String[] args = java.util.Arrays.copyOf(words, words.length + 1);
        args[words.length] = option;
        return run(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "sql", "demo", "inspect", "diag", "diag dictionary", "repair"})
    void everyCommandAnswersHelpOnItsStandardOutput(String command) {
        Run run = runWith(command, "--help");
        assertEquals(0, run.exit(), run::toString);
        assertTrue(run.out().startsWith("Usage: columba" + (command.isEmpty() ? "" : " " + command) + " "), run::toString);
        assertEquals("", run.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "sql", "demo", "inspect", "diag", "diag dictionary", "repair"})
    void everyCommandAnswersVersion(String command) {
        Run run = runWith(command, "--version");
        assertEquals(0, run.exit(), run::toString);
        assertTrue(run.out().matches("columba \\d+\\.\\d+\\S* \\(Java .+\\)\\R"), run::toString);
    }

    @Test
    void usageErrorsNameTheCommandAndPrintItsUsage() {
        Run none = run();
        assertEquals(2, none.exit());
        assertTrue(none.err().startsWith("Usage: columba [-hV] COMMAND"), none::toString);

        Run unknown = run("frobnicate");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().startsWith("columba: Unmatched argument at index 0: 'frobnicate'\n"), unknown::toString);

        Run diag = run("diag");
        assertEquals(2, diag.exit());
        assertTrue(diag.err().startsWith("Usage: columba diag [-hV] COMMAND"), diag::toString);

        Run rowsLast = run("demo", "--rows");
        assertEquals(2, rowsLast.exit());
        assertTrue(rowsLast.err().startsWith("columba demo: Missing required parameter for option '--rows' (N)\nUsage: columba demo"),
                rowsLast::toString);

        Run rowsBad = run("demo", "--rows", "many");
        assertEquals(2, rowsBad.exit());
        assertTrue(rowsBad.err().startsWith("columba demo: Invalid value for option '--rows': 'many' is not a whole number"),
                rowsBad::toString);

        Run tableLast = run("diag", "dictionary", directory.toString(), "--table");
        assertEquals(2, tableLast.exit());
        assertTrue(tableLast.err().startsWith("columba diag dictionary: Missing required parameter for option '--table' (NAME)"),
                tableLast::toString);

        Run whatIf = run("diag", "dictionary", directory.toString(), "--what-if", "dictionary_cap");
        assertEquals(2, whatIf.exit());
        assertTrue(whatIf.err().startsWith("columba diag dictionary: "), whatIf::toString);

        Run repair = run("repair", "--point-in-time");
        assertEquals(2, repair.exit());
        assertTrue(repair.err().startsWith("columba repair: Missing required parameter: '<database directory>'"), repair::toString);

        Run sql = run("sql", directory.resolve("db").toString(), "-c");
        assertEquals(2, sql.exit());
        assertTrue(sql.err().startsWith("columba sql: Missing required parameter for option '-c' (SQL)"), sql::toString);
    }

    @Test
    void aDirectoryThatIsNoDatabaseIsNamedNotTakenForAnOption() {
        Run run = run("diag", "dictionary", directory.toString());
        assertEquals(2, run.exit(), run::toString);
        assertEquals("columba diag: " + directory + " is not a Columba database directory\n", run.err());
    }
}
