package dev.columba.cli.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.terminal.Terminal;
import org.jline.terminal.impl.ExternalTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell typed at through JLine, on a terminal over pipes (JLine's {@link ExternalTerminal}
 * runs the same line discipline as a pseudo-terminal: Ctrl-C typed is the INT signal).
 */
class SqlTerminalTest {
    @TempDir
    Path directory;

    /** A shell on its own thread, typed at through {@link #type}. */
    private final class Session implements AutoCloseable {
        final PipedOutputStream keys = new PipedOutputStream();
        final ByteArrayOutputStream screen = new ByteArrayOutputStream();
        final ByteArrayOutputStream errors = new ByteArrayOutputStream();
        final AtomicInteger exit = new AtomicInteger(-1);
        final Terminal terminal;
        final Thread thread;

        Session() throws Exception {
            terminal = new ExternalTerminal("test", "xterm", new PipedInputStream(keys, 1 << 16), screen, StandardCharsets.UTF_8);
            PrintStream out = new PrintStream(screen, true, StandardCharsets.UTF_8);
            PrintStream err = new PrintStream(errors, true, StandardCharsets.UTF_8);
            thread = new Thread(() -> exit.set(SqlShell.run(directory.resolve("db").toString(), List.of(), null, false, null,
                    terminal, out, err)), "shell");
            thread.start();
        }

        void type(String text) throws Exception {
            keys.write(text.getBytes(StandardCharsets.UTF_8));
            keys.flush();
        }

        String screen() {
            return screen.toString(StandardCharsets.UTF_8);
        }

        String errors() {
            return errors.toString(StandardCharsets.UTF_8);
        }

        /** Waits until the screen shows {@code text} {@code times} times. */
        void await(String text, int times) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (screen().split(java.util.regex.Pattern.quote(text), -1).length - 1 < times) {
                assertTrue(System.nanoTime() < deadline, () -> "waited for '" + text + "' x" + times + "; screen: " + screen()
                        + "\nerrors: " + errors());
                Thread.sleep(20);
            }
        }

        @Override
        public void close() throws Exception {
            thread.join(TimeUnit.SECONDS.toMillis(60));
            terminal.close();
        }
    }

    @Test
    @Timeout(120)
    void statementsTypedOverLinesRunAndLandInTheHistoryFile() throws Exception {
        Path history = directory.resolve("history");
        System.setProperty("columba.history", history.toString());
        try (Session shell = new Session()) {
            shell.await("columba> ", 1);
            shell.type("CREATE TABLE t (id INT, note VARCHAR(200));\r");
            shell.await("columba> ", 2);
            shell.type("INSERT INTO t VALUES (1, '" + "x".repeat(150) + "')\r");
            shell.await("      -> ", 1);
            shell.type(";\r");
            shell.await("(1 row affected)", 1);
            shell.type("SELECT note, id FROM t;\r");
            shell.await("(1 row)", 1);
            shell.type("\\x\r");
            shell.await("Expanded display is on.", 1);
            shell.type("SELECT id, note FROM t;\r");
            shell.await("(1 row)", 2);
            shell.type("\\q\r");
            shell.close();
            assertEquals(0, shell.exit.get(), shell::errors);
            String screen = shell.screen();
            assertTrue(screen.contains("x".repeat(79) + "… |  1"), "a wide value before the last column is cut: " + screen);
            assertTrue(screen.contains("-[ RECORD 1 ]"), screen);
            assertTrue(screen.contains("note | " + "x".repeat(150)), "expanded values are whole: " + screen);
        } finally {
            System.clearProperty("columba.history");
        }
        String saved = Files.readString(history);
        assertTrue(saved.contains("CREATE TABLE t (id INT, note VARCHAR(200));"), saved);
        assertTrue(saved.contains("SELECT id, note FROM t;"), saved);
    }

    @Test
    @Timeout(120)
    void ctrlCCancelsTheRunningStatementAndTheShellGoesOn() throws Exception {
        System.setProperty("columba.history", "none");
        try (Session shell = new Session()) {
            shell.await("columba> ", 1);
            shell.type("SELECT COUNT(*) FROM generate_series(1, 100000000000) AS a;\r");
            Thread.sleep(1500);
            assertFalse(shell.screen().contains("(1 row)"), "still running: " + shell.screen());
            shell.type("\u0003");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!shell.errors().contains("57014")) {
                assertTrue(System.nanoTime() < deadline, () -> "no cancel; errors: " + shell.errors() + " screen: " + shell.screen());
                Thread.sleep(20);
            }
            shell.await("columba> ", 2);
            shell.type("SELECT 41 + 1;\r");
            shell.await("42", 1);
            shell.type("\\q\r");
            shell.close();
            assertEquals(1, shell.exit.get(), "a statement failed (the cancelled one): " + shell.errors());
        } finally {
            System.clearProperty("columba.history");
        }
    }

    @Test
    @Timeout(120)
    void ctrlCAtThePromptDropsTheStatementBeingTyped() throws Exception {
        System.setProperty("columba.history", "none");
        try (Session shell = new Session()) {
            shell.await("columba> ", 1);
            shell.type("SELECT 1\r");
            shell.await("      -> ", 1);
            shell.type("\u0003");
            shell.await("columba> ", 2);
            shell.type("SELECT 2;\r");
            shell.await("(1 row)", 1);
            shell.type("\\q\r");
            shell.close();
            assertEquals(0, shell.exit.get(), shell::errors);
            assertFalse(shell.screen().contains("     1\n"), "the dropped SELECT 1 did not run: " + shell.screen());
        } finally {
            System.clearProperty("columba.history");
        }
    }

    @Test
    void completionOffersTheDatabasesNamesAsTheyAreNow() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("names"));
             Statement statement = connection.createStatement()) {
            SqlCompleter completer = new SqlCompleter(connection);
            assertFalse(completer.names().contains("orders"));
            statement.execute("CREATE TABLE orders (order_key BIGINT, placed DATE)");
            assertTrue(completer.names().containsAll(List.of("orders", "order_key", "placed")), completer.names().toString());
        }
    }
}
