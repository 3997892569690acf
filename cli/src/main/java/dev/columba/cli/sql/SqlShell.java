package dev.columba.cli.sql;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;

/**
 * {@code columba sql [<dir> | mem:<name>] [-c SQL]... [-f FILE] [--stop-on-error]}: runs SQL against
 * an embedded database, from the arguments, a file, or typed at a prompt. Each statement's rows are
 * printed as a table, then its messages (the STATISTICS IO / TIME lines SQL Server prints, which the
 * driver returns as warnings), then its row count; an error prints its SQLSTATE and message and the
 * shell goes on with the next statement unless told to stop. Exit code: 0, 1 if a statement failed,
 * 2 for bad arguments or a database that cannot be opened. The command line is {@link SqlCommand}'s.
 */
public final class SqlShell {
    private final PrintStream out;
    private final PrintStream err;
    private final ResultPrinter printer;
    private boolean timing;
    private boolean failed;
    /** The statement executing now, for Ctrl-C to cancel; null between statements. */
    private volatile Statement running;
    /** When the running statement started ({@link #printCopyProgress}'s rate). */
    private volatile long statementStarted;

    private SqlShell(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
        this.printer = new ResultPrinter(out);
    }

    /**
     * Runs the shell on {@code target} (a directory or {@code mem:<name>}; null for a temporary
     * in-memory database): the {@code commands}, then {@code file}, or else statements typed on
     * {@code terminal} when there is one (line editing, history, completion, Ctrl-C) or read from
     * {@code in}. {@link SqlCommand} parses the command line.
     */
    static int run(String target, List<String> commands, Path file, boolean stopOnError, InputStream in, Terminal terminal,
            PrintStream out, PrintStream err) {
        if (target == null) {
            err.println("columba sql: no database given; using a temporary in-memory one (mem:shell)");
            target = "mem:shell";
        }
        String url = "jdbc:columba:" + (target.startsWith("mem:") ? target : Path.of(target).toAbsolutePath().toString());
        SqlShell shell = new SqlShell(out, err);
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.unwrap(dev.columba.jdbc.ColumbaConnection.class).setCopyProgress(shell::printCopyProgress);
            if (!commands.isEmpty() || file != null) {
                for (String command : commands) {
                    if (!shell.runScript(connection, new BufferedReader(new java.io.StringReader(command)), stopOnError)) {
                        return 1;
                    }
                }
                if (file != null) {
                    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                        shell.runScript(connection, reader, stopOnError);
                    }
                }
            } else if (terminal != null) {
                shell.interactive(connection, shell.typed(connection, terminal));
            } else {
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                shell.interactive(connection, prompt -> {
                    shell.out.print(prompt);
                    shell.out.flush();
                    return reader.readLine();
                });
            }
        } catch (SQLException e) {
            err.println("columba sql: cannot open " + url + ": " + describe(e));
            return 2;
        } catch (IOException e) {
            err.println("columba sql: cannot read " + file + ": " + e.getMessage());
            return 2;
        }
        return shell.failed ? 1 : 0;
    }

    /** Runs every statement of a script; false if it stopped at an error. */
    private boolean runScript(Connection connection, BufferedReader reader, boolean stopOnError) throws IOException {
        StatementSplitter splitter = new StatementSplitter();
        String line;
        while ((line = reader.readLine()) != null) {
            for (String statement : splitter.add(line)) {
                if (!execute(connection, statement) && stopOnError) {
                    return false;
                }
            }
        }
        for (String statement : splitter.finish()) {
            if (!execute(connection, statement) && stopOnError) {
                return false;
            }
        }
        return true;
    }

    /** Where typed lines come from: a terminal's line reader, or plain input. */
    @FunctionalInterface
    private interface LineSource {
        /**
         * The next line, after showing {@code prompt}; null at the end of input.
         *
         * @throws UserInterruptException when the user pressed Ctrl-C at the prompt (terminals only)
         */
        String read(String prompt) throws IOException;
    }

    /**
     * The lines typed on {@code terminal}, through JLine: line editing, a history file
     * ({@code ~/.columba_history}, or the {@code columba.history} system property; "none" for
     * none), completion of keywords, tables and columns. Ctrl-C while a statement runs cancels it
     * ({@link Statement#cancel}); at the prompt it drops the statement being typed; Ctrl-D ends.
     */
    private LineSource typed(Connection connection, Terminal terminal) {
        LineReaderBuilder builder = LineReaderBuilder.builder().terminal(terminal).appName("columba")
                .completer(new SqlCompleter(connection))
                // SQL has '!' (<>, !=) and backslash commands: no history expansion of either.
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true);
        String history = System.getProperty("columba.history", Path.of(System.getProperty("user.home"), ".columba_history").toString());
        if (!history.equals("none")) {
            builder.variable(LineReader.HISTORY_FILE, Path.of(history));
        }
        LineReader reader = builder.build();
        terminal.handle(Terminal.Signal.INT, signal -> {
            Statement statement = running;
            if (statement != null) {
                try {
                    statement.cancel();
                } catch (SQLException e) {
                    err.println(describe(e));
                }
            }
        });
        return prompt -> {
            try {
                return reader.readLine(prompt);
            } catch (EndOfFileException end) {
                return null;
            } finally {
                terminal.flush();
            }
        };
    }

    private void interactive(Connection connection, LineSource lines) throws IOException {
        out.println("Columba SQL shell. End statements with ; or a line GO. \\? for help, \\q to quit.");
        StatementSplitter splitter = new StatementSplitter();
        while (true) {
            String line;
            try {
                line = lines.read(splitter.inStatement() ? "      -> " : "columba> ");
            } catch (UserInterruptException interrupted) {
                splitter = new StatementSplitter();
                continue;
            }
            if (line == null) {
                for (String statement : splitter.finish()) {
                    execute(connection, statement);
                }
                out.println();
                return;
            }
            if (!splitter.inStatement() && line.strip().startsWith("\\")) {
                if (!metaCommand(connection, line.strip())) {
                    return;
                }
                continue;
            }
            if (!splitter.inStatement() && (line.strip().equalsIgnoreCase("exit") || line.strip().equalsIgnoreCase("quit"))) {
                return;
            }
            for (String statement : splitter.add(line)) {
                execute(connection, statement);
            }
        }
    }

    /** Runs a backslash command; false to quit. */
    private boolean metaCommand(Connection connection, String line) {
        String[] words = line.split("\\s+", 2);
        try {
            switch (words[0]) {
                case "\\q" -> {
                    return false;
                }
                case "\\x" -> out.println("Expanded display is " + (printer.toggleExpanded() ? "on." : "off."));
                case "\\timing" -> {
                    timing = !timing;
                    out.println("Timing is " + (timing ? "on." : "off."));
                }
                case "\\dt" -> {
                    DatabaseMetaData metadata = connection.getMetaData();
                    try (ResultSet tables = metadata.getTables(null, null, "%", new String[] {"TABLE", "VIEW"})) {
                        printer.print(tables, List.of("TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
                    }
                }
                case "\\d" -> {
                    if (words.length < 2) {
                        err.println("usage: \\d <table>");
                        break;
                    }
                    describeTable(connection.getMetaData(), words[1].strip());
                }
                case "\\pset" -> setFormat(words.length < 2 ? "" : words[1].strip());
                case "\\o" -> redirect(words.length < 2 ? "" : words[1].strip());
                case "\\i" -> {
                    if (words.length < 2) {
                        err.println("usage: \\i <file>");
                        break;
                    }
                    try (BufferedReader reader = Files.newBufferedReader(Path.of(words[1].strip()), StandardCharsets.UTF_8)) {
                        runScript(connection, reader, false);
                    } catch (IOException e) {
                        err.println("cannot read " + words[1].strip() + ": " + e);
                    }
                }
                case "\\?" -> out.println("""
                        \\dt            list tables and views
                        \\d <table>     describe a table's columns and indexes (sys.<view> for a system view)
                        \\timing        show each statement's elapsed time (client side)
                        \\x             expanded display: one block per row, values whole
                        \\pset format aligned|csv|json   how results are printed
                        \\o [file]      send results to a file (appended), or back to the screen
                        \\i <file>      run the statements of a file
                        \\q             quit
                        SET STATISTICS IO ON / SET STATISTICS TIME ON print the engine's own counters after each statement.""");
                default -> err.println("unknown command " + words[0] + " (\\? for help)");
            }
        } catch (SQLException e) {
            err.println(describe(e));
        }
        return true;
    }

    /** {@code \\d}: a table's columns, then its indexes (name, UNIQUE, columns in key order). */
    private void describeTable(DatabaseMetaData metadata, String name) throws SQLException {
        // A user table has no schema (""); sys.<view> names a system view.
        int dot = name.indexOf('.');
        String schema = dot < 0 ? "" : name.substring(0, dot);
        String table = dot < 0 ? name : name.substring(dot + 1);
        try (ResultSet columns = metadata.getColumns(null, schema, table, "%")) {
            printer.print(columns, List.of("COLUMN_NAME", "TYPE_NAME", "COLUMN_SIZE", "IS_NULLABLE"));
        }
        java.util.Map<String, List<String>> indexes = new java.util.LinkedHashMap<>();
        java.util.Set<String> unique = new java.util.HashSet<>();
        try (ResultSet index = metadata.getIndexInfo(null, schema, table, false, false)) {
            while (index.next()) {
                String indexName = index.getString("INDEX_NAME");
                if (indexName == null) {
                    continue; // a statistics row, not an index
                }
                indexes.computeIfAbsent(indexName, key -> new java.util.ArrayList<>()).add(index.getString("COLUMN_NAME"));
                if (!index.getBoolean("NON_UNIQUE")) {
                    unique.add(indexName);
                }
            }
        }
        if (!indexes.isEmpty()) {
            PrintStream results = printer.output();
            results.println("Indexes:");
            indexes.forEach((indexName, keys) -> results.println("    " + indexName + (unique.contains(indexName) ? " UNIQUE" : "")
                    + " (" + String.join(", ", keys) + ")"));
        }
    }

    /** {@code \\pset format aligned|csv|json}. */
    private void setFormat(String argument) {
        String[] words = argument.split("\\s+");
        if (words.length != 2 || !words[0].equals("format")) {
            err.println("usage: \\pset format aligned|csv|json");
            return;
        }
        try {
            ResultPrinter.Format format = ResultPrinter.Format.valueOf(words[1].toUpperCase(java.util.Locale.ROOT));
            printer.format(format);
            out.println("Output format is " + format.name().toLowerCase(java.util.Locale.ROOT) + ".");
        } catch (IllegalArgumentException unknown) {
            err.println("\\pset: unknown format " + words[1] + " (aligned, csv or json)");
        }
    }

    /** {@code \\o [file]}: results to the end of {@code file}, or to the screen again without one. */
    private void redirect(String file) {
        if (printer.output() != out) {
            printer.output().close();
        }
        if (file.isEmpty()) {
            printer.output(out);
            return;
        }
        try {
            printer.output(new PrintStream(Files.newOutputStream(Path.of(file), java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND), true, StandardCharsets.UTF_8));
        } catch (IOException e) {
            printer.output(out);
            err.println("cannot write " + file + ": " + e);
        }
    }

    /**
     * A running COPY's progress, on the error stream (so that output sent to a file holds only
     * results): rows, MB read of the file's MB and its percentage, the rate since the statement
     * started, and the time the rest of the file takes at that rate. Called on the thread running
     * the statement.
     */
    private void printCopyProgress(dev.columba.planner.copy.CopyProgress progress) {
        double seconds = (System.nanoTime() - statementStarted) / 1e9;
        double megabytes = progress.bytesRead() / 1e6;
        double rate = seconds > 0 ? megabytes / seconds : 0.0;
        double remaining = Math.max(0, progress.fileBytes() - progress.bytesRead()) / 1e6;
        String left = rate > 0 ? String.format(java.util.Locale.ROOT, ", about %s left", duration(remaining / rate)) : "";
        err.printf(java.util.Locale.ROOT, "COPY progress: %,d rows, %.1f of %.1f MB (%.0f%%), %.1f MB/s%s%n",
                progress.rows(), megabytes, progress.fileBytes() / 1e6, progress.percentOfFile(), rate, left);
        err.flush();
    }

    /** A time to go as people say it: "40 s", "3 min 5 s", "1 h 20 min". */
    static String duration(double seconds) {
        long whole = Math.round(seconds);
        if (whole < 60) {
            return whole + " s";
        }
        if (whole < 3600) {
            return whole / 60 + " min " + whole % 60 + " s";
        }
        return whole / 3600 + " h " + whole % 3600 / 60 + " min";
    }

    /** Executes one statement and prints what it returns; false if it failed. */
    private boolean execute(Connection connection, String sql) {
        long started = System.nanoTime();
        statementStarted = started;
        try (Statement statement = connection.createStatement()) {
            running = statement;
            boolean rows = statement.execute(sql);
            while (true) {
                if (rows) {
                    // The driver puts a statement's messages on the statement and its result set alike:
                    // they are printed once, from the statement, when all its results are read.
                    try (ResultSet resultSet = statement.getResultSet()) {
                        printer.print(resultSet, null);
                    }
                } else {
                    long count = statement.getLargeUpdateCount();
                    if (count < 0) {
                        break;
                    }
                    if (changesRows(sql)) {
                        printer.output().println("(" + count + (count == 1 ? " row" : " rows") + " affected)");
                    }
                }
                rows = statement.getMoreResults();
            }
            printWarnings(statement.getWarnings());
            printer.output().flush();
            if (timing) {
                out.printf("Time: %.3f ms%n", (System.nanoTime() - started) / 1e6);
            }
            return true;
        } catch (SQLException e) {
            failed = true;
            err.println(describe(e));
            return false;
        } finally {
            running = null;
        }
    }

    /**
     * Whether a statement's update count is a count of rows (as sqlcmd prints it): JDBC gives 0 for
     * DDL and commands too, which would read as "(0 rows affected)". COPY is not among them: its own
     * message ("COPY n", as psql prints it) already says how many rows it moved.
     */
    private static boolean changesRows(String sql) {
        String first = sql.stripLeading().split("[\\s(]", 2)[0].toUpperCase(java.util.Locale.ROOT);
        return switch (first) {
            case "INSERT", "UPDATE", "DELETE", "MERGE" -> true;
            default -> false;
        };
    }

    private void printWarnings(SQLWarning warning) {
        for (SQLWarning current = warning; current != null; current = current.getNextWarning()) {
            out.println(current.getMessage());
        }
    }

    private static String describe(SQLException e) {
        return "ERROR " + (e.getSQLState() == null ? "" : "[" + e.getSQLState() + "] ") + e.getMessage();
    }
}
