package dev.columba.bench.oltp;

import dev.columba.bench.harness.BenchDirectories;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;


/**
 * The oltp suite's databases, one per engine and table size, under {@code <data>/oltp/<rows>/<engine>}:
 * loaded once by the runner before JMH starts, and reused by every configuration and run after
 * (a marker file says a load finished). Inserts go to {@code ins} with keys above those it holds,
 * updates change {@code v} only, so a database stays fit for every workload however often it ran.
 */
public final class OltpDatabases {
    private static final String LOADED_MARKER = "oltp-loaded";

    private OltpDatabases() {
    }

    /** Where {@code engine}'s database of {@code rows} rows lives. */
    static Path directory(Path data, long rows, OltpEngine engine) {
        return data.resolve("oltp").resolve(String.valueOf(rows)).resolve(engine.name().toLowerCase(Locale.ROOT));
    }

    /**
     * Loads every engine's database of {@code rows} rows that is not loaded yet; returns a line for
     * the report saying what was loaded and what reused.
     *
     * @throws ColumbaException INTERNAL if an engine fails or loads other rows than asked
     */
    public static String prepare(Path data, long rows, PrintStream progress) {
        StringBuilder line = new StringBuilder();
        for (OltpEngine engine : OltpEngine.values()) {
            Path directory = directory(data, rows, engine);
            boolean reused = Files.exists(directory.resolve(LOADED_MARKER));
            if (!reused) {
                progress.println("oltp: loading " + rows + " rows into " + engine.label() + " at " + directory);
                long started = System.nanoTime();
                load(engine, directory, rows);
                progress.printf(Locale.ROOT, "oltp: %s loaded in %.1f s%n", engine.label(), (System.nanoTime() - started) / 1e9);
            }
            line.append(line.isEmpty() ? "" : ", ").append(engine.label()).append(reused ? " reused" : " loaded now");
        }
        return "Databases of " + rows + " rows under `" + data.resolve("oltp").resolve(String.valueOf(rows)) + "`: " + line
                + " (a database is loaded once and reused by later runs; the inserts of earlier runs stay in `ins`).";
    }

    private static void load(OltpEngine engine, Path directory, long rows) {
        BenchDirectories.deleteRecursively(directory);
        try {
            Files.createDirectories(directory);
            try (Connection connection = DriverManager.getConnection(engine.url(directory), engine.properties());
                 Statement statement = connection.createStatement()) {
                String key = engine == OltpEngine.SQLITE ? "INTEGER PRIMARY KEY" : "BIGINT PRIMARY KEY";
                for (String table : List.of("t", "ins")) {
                    statement.execute("CREATE TABLE " + table + " (id " + key + ", v INT NOT NULL, s VARCHAR(20) NOT NULL)");
                }
                statement.execute(engine.loadStatement(rows));
                checkRows(engine, connection, rows);
            }
            Files.writeString(directory.resolve(LOADED_MARKER), rows + "\n");
        } catch (SQLException e) {
            throw new ColumbaException(ErrorCode.INTERNAL, "cannot load " + engine.label() + " at " + directory + ": "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Checks that {@code t} holds keys 1..rows. */
    static void checkRows(OltpEngine engine, Connection connection, long rows) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT COUNT(*), MIN(id), MAX(id) FROM t")) {
            count.next();
            if (count.getLong(1) != rows || count.getLong(2) != 1 || count.getLong(3) != rows) {
                throw new IllegalStateException(engine.label() + "'s t holds " + count.getLong(1) + " rows with keys "
                        + count.getLong(2) + ".." + count.getLong(3) + ", expected 1.." + rows);
            }
        }
    }

    /** Whether the database of {@code engine} is loaded (the runner loads it before JMH starts). */
    static boolean loaded(Path data, long rows, OltpEngine engine) {
        return Files.exists(directory(data, rows, engine).resolve(LOADED_MARKER));
    }
}
