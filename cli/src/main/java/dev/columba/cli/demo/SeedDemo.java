package dev.columba.cli.demo;

import dev.columba.core.stats.IoStats;
import dev.columba.datagen.Seed000Sql;
import dev.columba.jdbc.ColumbaStatement;
import dev.columba.planner.session.StatementStatistics;
import dev.columba.storage.io.ProcSelfIo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * {@code columba demo}: seed 000 ("SQL Server Read Ahead Reads Example") replayed in SQL through
 * the JDBC driver on an embedded database. It builds the seed's TestTable and Testtable2 with
 * {@code INSERT ... SELECT FROM generate_series}, then runs the seed's queries cold and warm, with
 * read-ahead and random prefetch on and off (trace flags 652 and 8744), printing each statement and
 * the messages the driver returns for it as SQLWarnings, exactly, then a comparison of the cold
 * runs from the driver's typed statistics, checked against the operating system's read_bytes.
 *
 * <p>The seed's data comes from {@code master.dbo.spt_values} and {@code RAND(CHECKSUM(NEWID()))};
 * Columba has neither, so every value derives from the row number (see {@link Seed000Sql}). Cold means
 * after {@code CHECKPOINT} (so no page is dirty, as the seed's readers advised) and
 * {@code DBCC DROPCLEANBUFFERS}. Each comparison runs after a warm-up run of the same query, so
 * neither side pays for the JVM compiling the code it runs, and alternates the two sides
 * {@value #ROUNDS} times, comparing medians.
 */
public final class SeedDemo {
    /** Rows per INSERT, each its own transaction: a load's dirty pages stay well within the buffer pool. */
    static final long ROWS_PER_INSERT = 500_000;

    private static final long MEGABYTE = 1L << 20;
    /** Cold runs of each side of a comparison; the median is compared. */
    private static final int ROUNDS = 3;

    private final PrintStream out;
    private final long rows;
    private final Path directory;
    private final boolean keep;
    private final List<Measurement> measurements = new ArrayList<>();

    /**
     * @param rows      TestTable's rows (the seed's cross join of spt_values gave about 6.5 million)
     * @param directory the database directory, or null for a temporary one
     * @param keep      keep a temporary database instead of deleting it at the end
     */
    public SeedDemo(PrintStream out, long rows, Path directory, boolean keep) {
        if (rows < 1000) {
            throw new IllegalArgumentException("the demo needs at least 1,000 rows (the loop join reads ID < 1000), not " + rows);
        }
        this.out = out;
        this.rows = rows;
        this.directory = directory;
        this.keep = keep;
    }

    public int run() throws IOException, SQLException {
        Path dir = directory != null ? directory : Files.createTempDirectory("columba-demo-");
        try {
            runIn(dir);
        } finally {
            if (directory == null) {
                if (keep) {
                    out.println("database kept in " + dir);
                } else {
                    deleteRecursively(dir);
                }
            }
        }
        return 0;
    }

    private void runIn(Path dir) throws SQLException {
        // Both tables and the secondary index in the pool, and a load's transaction within its share of it.
        long poolBytes = Math.max(256 * MEGABYTE, Long.highestOneBit(rows * 70 * 2) << 1);
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", (poolBytes / MEGABYTE) + "MB");
        out.printf(Locale.ROOT, "Columba demo: seed 000 (SQL Server read-ahead reads) in SQL through the JDBC driver%n");
        out.printf(Locale.ROOT, "database %s%s, buffer pool %d MB%n", dir, directory == null ? " (temporary)" : "",
                poolBytes / MEGABYTE);
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + dir.toAbsolutePath(), properties)) {
            if (loaded(connection)) {
                out.printf(Locale.ROOT, "TestTable exists: using it as it is%n");
            } else {
                load(connection);
            }
            describeTables(connection);
            readAhead(connection);
            rangeScans(connection);
            loopJoins(connection);
            new ComparisonTable(measurements).print(out);
        }
    }

    private static boolean loaded(Connection connection) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, "TestTable", null)) {
            return tables.next();
        }
    }

    private void load(Connection connection) throws SQLException {
        section("Build the test data: %,d rows in TestTable, the same in Testtable2", rows);
        run(connection, Seed000Sql.TEST_TABLE);
        long start = System.nanoTime();
        for (long first = 1; first <= rows; first += ROWS_PER_INSERT) {
            run(connection, Seed000Sql.fill(first, Math.min(rows, first + ROWS_PER_INSERT - 1)));
        }
        out.printf(Locale.ROOT, "-- TestTable loaded in %.1f s%n", seconds(System.nanoTime() - start));
        start = System.nanoTime();
        run(connection, Seed000Sql.TEST_TABLE_2);
        for (long first = 1; first <= rows; first += ROWS_PER_INSERT) {
            run(connection, Seed000Sql.copy(first, Math.min(rows, first + ROWS_PER_INSERT - 1)));
        }
        for (String index : Seed000Sql.TEST_TABLE_2_INDEXES) {
            run(connection, index);
        }
        out.printf(Locale.ROOT, "-- Testtable2 loaded and indexed in %.1f s%n", seconds(System.nanoTime() - start));
    }

    private void describeTables(Connection connection) throws SQLException {
        section("The tables");
        try (Statement statement = connection.createStatement();
             ResultSet shape = statement.executeQuery("SELECT table_name, index_name, page_count, height, record_count, "
                     + "avg_page_density_percent FROM sys.index_physical_stats ORDER BY table_name, index_name")) {
            while (shape.next()) {
                out.printf(Locale.ROOT, "%-10s %-16s %,9d rows on %,7d pages (%6.1f MB), %d levels, %3.0f%% full%n",
                        shape.getString(1), shape.getString(2) == null ? "(heap)" : shape.getString(2), shape.getLong(5),
                        shape.getLong(3), shape.getLong(3) * 8192 / (double) MEGABYTE, shape.getInt(4), shape.getDouble(6));
            }
        }
    }

    /** The seed's first experiment: the same small range cold (read-ahead brings pages in) then warm (none needed). */
    private void readAhead(Connection connection) throws SQLException {
        section("Read-ahead, the seed's first query: cold, then warm");
        run(connection, "SET STATISTICS IO ON");
        run(connection, "CHECKPOINT");
        run(connection, "DBCC DROPCLEANBUFFERS");
        run(connection, Seed000Sql.SMALL_RANGE);
        run(connection, Seed000Sql.SMALL_RANGE);
    }

    /** The seed's sequential read-ahead test: a large range cold with trace flag 652 (read-ahead off), then without. */
    private void rangeScans(Connection connection) throws SQLException {
        section("Sequential read-ahead off (trace flag 652) and on, cold");
        run(connection, "SET STATISTICS TIME ON");
        compare(connection, Seed000Sql.largeRange(Math.min(300_000, rows)), "TestTable", 652,
                "range scan, read-ahead off (652)", "range scan, read-ahead on");
    }

    /** The seed's random prefetch test: the loop join cold with trace flag 8744 (prefetch off), then without. */
    private void loopJoins(Connection connection) throws SQLException {
        String query = Seed000Sql.loopJoin(1000);
        section("Random prefetch off (trace flag 8744) and on for the loop join, cold");
        try (Statement statement = connection.createStatement();
             ResultSet plan = statement.executeQuery("EXPLAIN " + query)) {
            echo("EXPLAIN " + query);
            while (plan.next()) {
                out.println(plan.getString(1));
            }
        }
        compare(connection, query, "Testtable2", 8744, "loop join, prefetch off (8744)", "loop join, prefetch on");
    }

    /**
     * A warm-up run (so neither side pays for the JVM compiling the query's code), then
     * {@value #ROUNDS} rounds of: cold with the trace flag on, cold with it off. The first round
     * prints every statement; the others print only the queries' messages. The comparison keeps
     * each side's run of median elapsed time: the machine and its disk vary between repeats.
     */
    private void compare(Connection connection, String query, String table, int traceFlag, String offLabel,
                         String onLabel) throws SQLException {
        out.println("-- warm-up run, so that the JVM has compiled the query's code before the cold runs");
        run(connection, query, Echo.ALL);
        List<Measurement> offRuns = new ArrayList<>();
        List<Measurement> onRuns = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            Echo echo = round == 1 ? Echo.ALL : Echo.NONE;
            if (round > 1) {
                out.printf(Locale.ROOT, "-- round %d of %d: the same statements; the queries' messages only%n", round, ROUNDS);
            }
            cold(connection, echo);
            run(connection, "DBCC TRACEON (" + traceFlag + ")", echo);
            offRuns.add(measure(connection, query, offLabel, table, echo));
            run(connection, "DBCC TRACEOFF (" + traceFlag + ")", echo);
            cold(connection, echo);
            onRuns.add(measure(connection, query, onLabel, table, echo));
        }
        measurements.add(median(offRuns));
        measurements.add(median(onRuns));
    }

    private static Measurement median(List<Measurement> runs) {
        List<Measurement> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingLong(Measurement::elapsedNanos));
        return sorted.get(sorted.size() / 2);
    }

    private void cold(Connection connection, Echo echo) throws SQLException {
        run(connection, "CHECKPOINT", echo);
        run(connection, "DBCC DROPCLEANBUFFERS", echo);
    }

    private Measurement measure(Connection connection, String query, String label, String table, Echo echo)
            throws SQLException {
        if (echo == Echo.NONE) {
            out.println("[" + label + "]");
        }
        ProcSelfIo before = ProcSelfIo.available() ? ProcSelfIo.read() : null;
        StatementStatistics statistics = run(connection, query, echo == Echo.ALL ? Echo.ALL : Echo.MESSAGES);
        OptionalLong readBytes = before == null ? OptionalLong.empty()
                : OptionalLong.of(ProcSelfIo.read().minus(before).readBytes());
        IoStats tableStats = statistics.tables().getOrDefault(table, IoStats.ZERO);
        return new Measurement(label, table, tableStats, statistics.total(), statistics.elapsedNanos(), readBytes);
    }

    /** What {@link #run} prints of a statement. */
    private enum Echo {
        /** The statement, its row or update count, its messages. */
        ALL,
        /** Its messages only. */
        MESSAGES,
        /** Nothing. */
        NONE
    }

    private StatementStatistics run(Connection connection, String sql) throws SQLException {
        return run(connection, sql, Echo.ALL);
    }

    /**
     * Runs one statement through a fresh JDBC statement and prints, as {@code echo} says, the
     * statement, its rows' count (the rows are read, not printed) or update count, and its
     * messages exactly as the driver returns them.
     */
    private StatementStatistics run(Connection connection, String sql, Echo echo) throws SQLException {
        if (echo == Echo.ALL) {
            echo(sql);
        }
        try (Statement statement = connection.createStatement()) {
            long start = System.nanoTime();
            if (statement.execute(sql)) {
                long count = 0;
                try (ResultSet result = statement.getResultSet()) {
                    while (result.next()) {
                        count++;
                    }
                }
                if (echo == Echo.ALL) {
                    out.printf(Locale.ROOT, "(%,d rows)%n", count);
                }
            } else if (statement.getUpdateCount() > 0 && echo == Echo.ALL) {
                out.printf(Locale.ROOT, "(%,d rows affected, %.1f s)%n", statement.getUpdateCount(),
                        seconds(System.nanoTime() - start));
            }
            if (echo != Echo.NONE) {
                for (SQLWarning warning = statement.getWarnings(); warning != null; warning = warning.getNextWarning()) {
                    out.println(warning.getMessage());
                }
            }
            return statement.unwrap(ColumbaStatement.class).statistics();
        }
    }

    private void echo(String sql) {
        out.println("> " + sql.replace("\n", "\n  "));
    }

    private void section(String format, Object... arguments) {
        out.println();
        out.println("== " + String.format(Locale.ROOT, format, arguments));
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
