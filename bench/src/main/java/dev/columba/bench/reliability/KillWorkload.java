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
 * parent can start the clock of a kill in the work). The parent applies acknowledged
 * units to its model; the one begun and not acknowledged may be there whole or not at all.
 *
 * <p>Arguments: database directory, acknowledgement file, first unit number, seed.
 */
public final class KillWorkload {
    /** Rows of a delta rowgroup before it closes and the tuple mover is woken. */
    static final int ROWGROUP_ROWS = 2000;

    private KillWorkload() {
    }

    public static void main(String[] args) throws SQLException {
        Path directory = Path.of(args[0]);
        long unit = Long.parseLong(args[2]);
        SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
        try (AckFile acknowledged = AckFile.append(Path.of(args[1]));
             Connection connection = DriverManager.getConnection("jdbc:columba:" + directory);
             Statement statement = connection.createStatement()) {
            System.out.println("opened");
            statement.execute("CREATE TABLE IF NOT EXISTS r (id BIGINT PRIMARY KEY, unit BIGINT NOT NULL,"
                    + " v BIGINT NOT NULL, s VARCHAR(40))");
            statement.execute("CREATE TABLE IF NOT EXISTS c (id BIGINT, unit BIGINT, v BIGINT, s VARCHAR(40))"
                    + " WITH (storage = columnstore, rowgroup_max_rows = " + ROWGROUP_ROWS + ")");
            List<Long> liveR = units(statement, "r");
            List<Long> liveC = units(statement, "c");
            System.out.println("ready");
            for (;; unit++) {
                int kind = random.nextInt(100);
                if (kind < 25) {
                    acknowledged.write("B " + unit + " INSERT r 1");
                    statement.executeUpdate("INSERT INTO r VALUES (" + unit * 1000 + ", " + unit + ", 0, 'auto')");
                    liveR.add(unit);
                } else if (kind < 45) {
                    int rows = 2 + random.nextInt(199);
                    acknowledged.write("B " + unit + " INSERT r " + rows);
                    connection.setAutoCommit(false);
                    // Two statements in one transaction: a row, then the rest.
                    statement.executeUpdate("INSERT INTO r VALUES (" + unit * 1000 + ", " + unit + ", 0, 'first')");
                    statement.executeUpdate("INSERT INTO r SELECT " + unit * 1000 + " + generate_series, " + unit
                            + ", 0, 'txn' FROM generate_series(1, " + (rows - 1) + ")");
                    connection.commit();
                    connection.setAutoCommit(true);
                    liveR.add(unit);
                } else if (kind < 70) {
                    int rows = 1 + random.nextInt(1500);
                    acknowledged.write("B " + unit + " INSERT c " + rows);
                    connection.setAutoCommit(false);
                    statement.executeUpdate("INSERT INTO c SELECT " + unit * 10_000 + " + generate_series, " + unit
                            + ", 0, 'col' FROM generate_series(1, " + rows + ")");
                    connection.commit();
                    connection.setAutoCommit(true);
                    liveC.add(unit);
                } else if (kind < 88) {
                    // An update (kind < 80) or a delete of every row of an earlier unit, in one statement.
                    boolean update = kind < 80;
                    boolean rowstore = random.nextBoolean();
                    List<Long> live = rowstore ? liveR : liveC;
                    if (live.isEmpty()) {
                        continue;
                    }
                    int index = random.nextInt(live.size());
                    long target = update ? live.get(index) : live.remove(index);
                    String table = rowstore ? "r" : "c";
                    acknowledged.write("B " + unit + (update ? " UPDATE " : " DELETE ") + table + " " + target);
                    statement.executeUpdate(update ? "UPDATE " + table + " SET v = v + 1 WHERE unit = " + target
                            : "DELETE FROM " + table + " WHERE unit = " + target);
                } else if (kind < 94) {
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
