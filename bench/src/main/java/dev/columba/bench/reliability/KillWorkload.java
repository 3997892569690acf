package dev.columba.bench.reliability;

import dev.columba.testing.crash.AckFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link KillCampaign}: mixed work on a database until it is killed with SIGKILL.
 * Units of work, numbered from {@code firstUnit}: autocommit single-row inserts and multi-row
 * transactions into a rowstore table {@code r}, multi-row transactions into a columnstore table
 * {@code c} whose small rowgroups close often (so the tuple mover compresses in the background),
 * updates and deletes of a whole earlier unit, {@code CHECKPOINT}, and the columnstore's
 * {@code REORGANIZE}. Each row carries its unit, so every unit is checkable whole.
 *
 * <p>Protocol ({@link AckFile}, durable before the child goes on): {@code B <unit> <op> <table> <n>}
 * before a unit starts, {@code A <unit>} after its commit returned (also printed, once durable, so the
 * parent can start the clock of a kill in the work). A {@link Kind#LARGE} child also prints
 * {@code S <pages>}, the pages its transactions spilled so far, after each unit. The parent applies acknowledged
 * units to its model; the one begun and not acknowledged may be there whole or not at all.
 *
 * <p>What the units are is the {@link Kind} of work: all of it mixed, or one part of it at a time
 * so that a campaign of kills lands in that part often (issue 15 asks for 100 kills per workload).
 *
 * <p>Arguments: database directory, acknowledgement file, first unit number, seed, and the
 * {@link Kind} (MIXED when absent).
 */
public final class KillWorkload {
    /** Rows of a delta rowgroup before it closes and the tuple mover is woken. */
    static final int ROWGROUP_ROWS = 2000;
    /** The buffer pool of a {@link Kind#LARGE} child: its transactions write several times half of it. */
    static final String LARGE_POOL = "4MB";
    /** Rows of a {@link Kind#LARGE} insert, at least and at most: 40,000 rows fill about half of {@link #LARGE_POOL}. */
    static final int LARGE_MIN_ROWS = 60_000;
    static final int LARGE_MAX_ROWS = 160_000;
    private static final int LARGE_LIVE_UNITS = 6;
    /** Repeats of a 20-character text in a heap row: 6,000 bytes, stored out of row. */
    private static final int HEAP_TEXT_REPEATS = 300;

    /**
     * The work of a child: percentages of its units by operation, in the order insert autocommit
     * (rowstore), insert transaction (rowstore), insert transaction (columnstore), update or delete
     * of a whole earlier unit (the first 2/3 of the share updates), CHECKPOINT; the rest is the
     * columnstore's REORGANIZE. {@link #LARGE} is apart: transactions larger than half the buffer
     * pool, which spill, into and over the rowstore table.
     */
    enum Kind {
        MIXED(25, 20, 25, 18, 6),
        /**
         * Rowstore writes only: inserts alone and in transactions, updates, deletes; into a B+tree
         * table and a heap whose 6,000-byte strings are stored out of row (overflow pages).
         */
        ROWSTORE(35, 35, 0, 30, 0),
        /** Columnstore writes only: small rowgroups the tuple mover compresses, updates, deletes, REORGANIZE. */
        COLUMNSTORE(0, 0, 55, 30, 0),
        /**
         * Writes to both tables with a CHECKPOINT every third unit or so, so kills land in
         * checkpoints; the rowstore table lives on a filegroup of two files.
         */
        CHECKPOINT(15, 15, 15, 20, 35),
        /** Inserts, updates and deletes of 60,000-160,000 rows in one transaction, with a 4 MB buffer pool. */
        LARGE(0, 0, 0, 0, 0);

        final int autocommit;
        final int rowTransaction;
        final int columnTransaction;
        final int change;
        final int checkpoint;

        Kind(int autocommit, int rowTransaction, int columnTransaction, int change, int checkpoint) {
            this.autocommit = autocommit;
            this.rowTransaction = rowTransaction;
            this.columnTransaction = columnTransaction;
            this.change = change;
            this.checkpoint = checkpoint;
        }
    }

    private KillWorkload() {
    }

    public static void main(String[] args) throws SQLException {
        exitWhenOrphaned();
        Path directory = Path.of(args[0]);
        long unit = Long.parseLong(args[2]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
        Kind kind = args.length > 4 ? Kind.valueOf(args[4]) : Kind.MIXED;
        Properties settings = new Properties();
        if (kind == Kind.LARGE) {
            settings.setProperty("buffer_pool_size", LARGE_POOL);
        }
        try (AckFile acknowledged = AckFile.append(Path.of(args[1]));
             Connection connection = DriverManager.getConnection("jdbc:columba:" + directory, settings);
             Statement statement = connection.createStatement()) {
            System.out.println("opened");
            if (kind == Kind.CHECKPOINT) {
                // The rowstore table on a filegroup of two files (its extents alternate over them), so
                // the database has data/files.properties and more than one data file to damage.
                ifAbsent(statement, "ALTER DATABASE CURRENT ADD FILEGROUP fg");
                ifAbsent(statement, "ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'fg1.data'),"
                        + " (NAME = f2, FILENAME = 'fg2.data') TO FILEGROUP fg");
            }
            statement.execute("CREATE TABLE IF NOT EXISTS r (id BIGINT PRIMARY KEY, unit BIGINT NOT NULL,"
                    + " v BIGINT NOT NULL, s VARCHAR(40))" + (kind == Kind.CHECKPOINT ? " ON fg" : ""));
            statement.execute("CREATE TABLE IF NOT EXISTS c (id BIGINT, unit BIGINT, v BIGINT, s VARCHAR(40))"
                    + " WITH (storage = columnstore, rowgroup_max_rows = " + ROWGROUP_ROWS + ")");
            if (kind == Kind.ROWSTORE) {
                // A heap (no key) whose long strings are stored out of row, on overflow pages.
                statement.execute("CREATE TABLE IF NOT EXISTS h (id BIGINT NOT NULL, unit BIGINT NOT NULL,"
                        + " v BIGINT NOT NULL, s VARCHAR(8000))");
            }
            List<Long> liveR = units(statement, "r");
            List<Long> liveC = units(statement, "c");
            List<Long> liveH = kind == Kind.ROWSTORE ? units(statement, "h") : new ArrayList<>();
            System.out.println("ready");
            for (;; unit++) {
                if (kind == Kind.LARGE) {
                    large(connection, statement, acknowledged, random, unit, liveR);
                    continue;
                }
                int draw = random.nextInt(100);
                int autocommitEnd = kind.autocommit;
                int rowEnd = autocommitEnd + kind.rowTransaction;
                int columnEnd = rowEnd + kind.columnTransaction;
                int changeEnd = columnEnd + kind.change;
                int checkpointEnd = changeEnd + kind.checkpoint;
                if (draw < autocommitEnd) {
                    acknowledged.write("B " + unit + " INSERT r 1");
                    statement.executeUpdate("INSERT INTO r VALUES (" + unit * 1000 + ", " + unit + ", 0, 'auto')");
                    liveR.add(unit);
                } else if (draw < rowEnd && kind == Kind.ROWSTORE && random.nextBoolean()) {
                    int rows = 1 + random.nextInt(40);
                    acknowledged.write("B " + unit + " INSERT h " + rows);
                    inTransaction(connection, statement, "INSERT INTO h SELECT " + unit * 1000 + " + generate_series, " + unit
                            + ", 0, REPEAT('heap row out of row ', " + HEAP_TEXT_REPEATS + ") FROM generate_series(1, " + rows + ")");
                    liveH.add(unit);
                } else if (draw < rowEnd) {
                    int rows = 2 + random.nextInt(199);
                    acknowledged.write("B " + unit + " INSERT r " + rows);
                    // Two statements in one transaction: a row, then the rest.
                    inTransaction(connection, statement, "INSERT INTO r VALUES (" + unit * 1000 + ", " + unit + ", 0, 'first')",
                            "INSERT INTO r SELECT " + unit * 1000 + " + generate_series, " + unit
                                    + ", 0, 'txn' FROM generate_series(1, " + (rows - 1) + ")");
                    liveR.add(unit);
                } else if (draw < columnEnd) {
                    int rows = 1 + random.nextInt(1500);
                    acknowledged.write("B " + unit + " INSERT c " + rows);
                    inTransaction(connection, statement, "INSERT INTO c SELECT " + unit * 10_000 + " + generate_series, " + unit
                            + ", 0, 'col' FROM generate_series(1, " + rows + ")");
                    liveC.add(unit);
                } else if (draw < changeEnd) {
                    // An update (the first two thirds of the share) or a delete of every row of an earlier unit, in one statement.
                    boolean update = draw < columnEnd + kind.change * 2 / 3;
                    String table = kind == Kind.ROWSTORE ? (random.nextBoolean() ? "r" : "h")
                            : kind == Kind.COLUMNSTORE || random.nextBoolean() ? "c" : "r";
                    List<Long> live = switch (table) {
                        case "r" -> liveR;
                        case "h" -> liveH;
                        default -> liveC;
                    };
                    if (live.isEmpty()) {
                        continue;
                    }
                    int index = random.nextInt(live.size());
                    long target = update ? live.get(index) : live.remove(index);
                    change(statement, acknowledged, unit, update, table, target);
                } else if (draw < checkpointEnd) {
                    acknowledged.write("B " + unit + " CHECKPOINT - 0");
                    statement.execute("CHECKPOINT");
                } else {
                    acknowledged.write("B " + unit + " REORGANIZE c 0");
                    statement.execute("ALTER INDEX ALL ON c REORGANIZE");
                }
                acknowledged.write("A " + unit);
                System.out.println("A " + unit);
            }
        }
    }

    /**
     * One unit of {@link Kind#LARGE}: a transaction larger than half the buffer pool, so its pages
     * spill to the transaction's spill file before the commit — an insert of 60,000-160,000 rows
     * (half the units), else an update or a delete of a whole earlier large unit (a delete whenever
     * six are live). Ids are
     * {@code unit × 1,000,000 + n}, apart from the other kinds' {@code unit × 1,000 + n}.
     */
    private static void large(Connection connection, Statement statement, AckFile acknowledged, SplittableRandom random,
                              long unit, List<Long> live) throws SQLException {
        int draw = random.nextInt(100);
        // At most six large units live, so the table (and each update's scan of it) stays bounded.
        if (live.size() >= LARGE_LIVE_UNITS) {
            draw = 99;
        }
        if (draw < 50 || live.isEmpty()) {
            int rows = LARGE_MIN_ROWS + random.nextInt(LARGE_MAX_ROWS - LARGE_MIN_ROWS + 1);
            acknowledged.write("B " + unit + " INSERT r " + rows);
            inTransaction(connection, statement, "INSERT INTO r SELECT " + unit * 1_000_000 + " + generate_series, " + unit
                    + ", 0, 'large transaction row' FROM generate_series(1, " + rows + ")");
            live.add(unit);
        } else {
            boolean update = draw < 80;
            int index = random.nextInt(live.size());
            long target = update ? live.get(index) : live.remove(index);
            change(statement, acknowledged, unit, update, "r", target);
        }
        acknowledged.write("A " + unit);
        System.out.println("A " + unit);
        // The pages this child's transactions spilled so far: the campaign shows that they did.
        try (ResultSet spill = statement.executeQuery("SELECT spill_pages_written FROM sys.io_stats")) {
            spill.next();
            System.out.println("S " + spill.getLong(1));
        }
    }

    /**
     * Ends this child when its parent is gone: the parent holds the write end of the child's stdin
     * (a pipe), so its death reads as end of input. A child left working after its campaign died
     * went on writing into a database directory that a later campaign had created at the same
     * path, and that campaign reported the other writer's log segment as damage.
     */
    private static void exitWhenOrphaned() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Nothing is sent; anything read is ignored.
                }
            } catch (java.io.IOException e) {
                // A broken stdin is a parent gone too.
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Runs {@code sql} in one transaction, committed; the connection is in autocommit before and after. */
    private static void inTransaction(Connection connection, Statement statement, String... sql) throws SQLException {
        connection.setAutoCommit(false);
        for (String each : sql) {
            statement.executeUpdate(each);
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    /** Announces unit {@code unit}, then updates ({@code v + 1}) or deletes every row of unit {@code target} in one statement. */
    private static void change(Statement statement, AckFile acknowledged, long unit, boolean update, String table, long target)
            throws SQLException {
        acknowledged.write("B " + unit + (update ? " UPDATE " : " DELETE ") + table + " " + target);
        statement.executeUpdate(update ? "UPDATE " + table + " SET v = v + 1 WHERE unit = " + target
                : "DELETE FROM " + table + " WHERE unit = " + target);
    }

    /** Runs a DDL statement that a child before this one may have run already (42P07: it exists). */
    private static void ifAbsent(Statement statement, String ddl) throws SQLException {
        try {
            statement.execute(ddl);
        } catch (SQLException e) {
            if (!"42P07".equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** The units with rows in {@code table}: what updates and deletes pick from. */
    private static List<Long> units(Statement statement, String table) throws SQLException {
        List<Long> units = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("SELECT DISTINCT unit FROM " + table)) {
            while (rows.next()) {
                units.add(rows.getLong(1));
            }
        }
        return units;
    }
}
