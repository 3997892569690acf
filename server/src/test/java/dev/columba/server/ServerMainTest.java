package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code columba server}'s command line: help, version and usage errors, before any database is opened. */
class ServerMainTest {
    private record Run(int exit, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = ServerMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpAndVersionGoToStandardOutput() {
        Run help = run("--help");
        assertEquals(0, help.exit(), help::toString);
        assertTrue(help.out().startsWith("Usage: columba server [-hV]"), help::toString);
        assertTrue(help.out().contains("--port=N") && help.out().contains("default 5432"), help::toString);
        Run version = run("--version");
        assertEquals(0, version.exit(), version::toString);
        assertTrue(version.out().matches("columba server \\d+\\.\\d+\\S* \\(Java .+\\)\\R"), version::toString);
    }

    @Test
    void usageErrorsNameTheProblemAndExitWithTwo() {
        Run none = run();
        assertEquals(2, none.exit());
        assertTrue(none.err().startsWith("columba server: Missing required parameter: '<dir>'\nUsage: columba server"), none::toString);
        Run port = run("db", "--port", "many");
        assertEquals(2, port.exit());
        assertTrue(port.err().startsWith("columba server: Invalid value for option '--port': 'many' is not an int"), port::toString);
        Run last = run("db", "--password");
        assertEquals(2, last.exit());
        assertTrue(last.err().startsWith("columba server: Missing required parameter for option '--password' (P)"), last::toString);
    }
}
