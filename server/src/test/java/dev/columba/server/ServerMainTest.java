package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void aPortInUseIsOneLineAndExitOneWithTheDatabaseClosedAgain(@TempDir Path directory) throws Exception {
        try (PgServer first = PgServer.start(ServerConfig.of(directory.resolve("first")).withPort(0))) {
            Run second = run(directory.resolve("second").toString(), "--port", Integer.toString(first.port()));
            assertEquals(1, second.exit(), second::toString);
            assertEquals("columba server: cannot listen on 127.0.0.1:" + first.port() + ": Address already in use\n",
                    second.err(), second::toString);
        }
        // The failed start closed its database: it opens again in this JVM.
        try (PgServer again = PgServer.start(ServerConfig.of(directory.resolve("second")).withPort(0))) {
            assertTrue(again.port() > 0);
        }
    }
}
