import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Thread CPU per statement of the oltp suite's statements (OltpClient's texts) on Columba and H2 in
 * one JVM, one client thread: {@code OltpCpu <dir> <rows> <rounds> <statementsPerRound> [workloads]}.
 * Each round runs every workload on both engines; printed: per round and workload, µs of CPU per
 * statement (per 1,000-row batch for BATCH), then medians. A fresh database per JVM under dir.
 */
public final class OltpCpu {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** -Doltp.user=true: user CPU only (leaves out the kernel's share of a commit's write and sync). */
    static final boolean USER = Boolean.getBoolean("oltp.user");
    /** -Doltp.delayed=true: Columba's commits do not wait for the log's sync (delayed_durability = on). */
    static final boolean DELAYED = Boolean.getBoolean("oltp.delayed");

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rows = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int perRound = Integer.parseInt(args[3]);
        String[] workloads = args.length > 4 ? args[4].split(",")
                : new String[] {"POINT", "INSERT", "BATCH", "UPDATE", "RANGE", "ADHOC"};
        Files.createDirectories(dir);
        Connection columba = DriverManager.getConnection("jdbc:columba:" + dir.resolve("columba").toAbsolutePath());
        Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("h2").toAbsolutePath().resolve("oltp")
                + ";OPTIMIZE_REUSE_RESULTS=0");
        for (Connection c : new Connection[] {columba, h2}) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20) NOT NULL)");
                s.execute("CREATE TABLE ins (id BIGINT PRIMARY KEY, v INT NOT NULL, s VARCHAR(20) NOT NULL)");
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                c.setAutoCommit(false);
                for (int id = 1; id <= rows; id++) {
                    p.setLong(1, id); p.setInt(2, id % 1000); p.setString(3, "row " + id); p.addBatch();
                    if (id % 1000 == 0) { p.executeBatch(); }
                }
                p.executeBatch();
                c.commit();
                c.setAutoCommit(true);
            }
        }
        if (DELAYED) {
            try (Statement s = columba.createStatement()) {
                s.execute("SET delayed_durability = on");
            }
        }
        Bench[] engines = {new Bench("columba", columba, rows), new Bench("h2", h2, rows)};
        double[][][] results = new double[workloads.length][2][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int w = 0; w < workloads.length; w++) {
                for (int e = 0; e < 2; e++) {
                    int engine = (round % 2 == 0) ? e : 1 - e;
                    results[w][engine][round] = engines[engine].run(workloads[w], perRound);
                }
                System.out.printf(Locale.ROOT, "round %d %-7s columba %9.1f h2 %9.1f ratio %.2f%n", round, workloads[w],
                        results[w][0][round], results[w][1][round], results[w][0][round] / results[w][1][round]);
            }
        }
        System.out.println("medians (µs CPU per statement; BATCH per 1,000 rows), first round left out:");
        for (int w = 0; w < workloads.length; w++) {
            double c = median(Arrays.copyOfRange(results[w][0], 1, rounds));
            double h = median(Arrays.copyOfRange(results[w][1], 1, rounds));
            System.out.printf(Locale.ROOT, "MEDIAN %-7s columba %9.1f h2 %9.1f columba/h2 %.2f%n", workloads[w], c, h, c / h);
        }
        columba.close();
        h2.close();
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static final class Bench {
        final String name;
        final Connection connection;
        final int rows;
        final SplittableRandom random = new SplittableRandom(42);
        final PreparedStatement point, insert, update, range;
        final Statement adHoc;
        long nextKey = 1;

        Bench(String name, Connection connection, int rows) throws SQLException {
            this.name = name;
            this.connection = connection;
            this.rows = rows;
            point = connection.prepareStatement("SELECT v, s FROM t WHERE id = ?");
            insert = connection.prepareStatement("INSERT INTO ins (id, v, s) VALUES (?, ?, ?)");
            update = connection.prepareStatement("UPDATE t SET v = v + 1 WHERE id = ?");
            range = connection.prepareStatement("SELECT id, v, s FROM t WHERE id BETWEEN ? AND ?");
            adHoc = connection.createStatement();
        }

        double run(String workload, int statements) throws SQLException {
            int count = workload.equals("BATCH") ? Math.max(1, statements / 100) : statements;
            long start = USER ? THREADS.getCurrentThreadUserTime() : THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < count; i++) {
                one(workload);
            }
            long end = USER ? THREADS.getCurrentThreadUserTime() : THREADS.getCurrentThreadCpuTime();
            return (end - start) / 1e3 / count;
        }

        void one(String workload) throws SQLException {
            switch (workload) {
                case "POINT" -> {
                    point.setLong(1, 1 + random.nextInt(rows));
                    try (ResultSet r = point.executeQuery()) { check(r.next()); r.getInt(1); r.getString(2); }
                }
                case "ADHOC" -> {
                    try (ResultSet r = adHoc.executeQuery("SELECT v, s FROM t WHERE id = " + (1 + random.nextInt(rows)))) {
                        check(r.next());
                    }
                }
                case "INSERT" -> {
                    long id = nextKey++;
                    insert.setLong(1, id); insert.setInt(2, (int) (id % 1000)); insert.setString(3, "row " + id);
                    check(insert.executeUpdate() == 1);
                }
                case "BATCH" -> {
                    for (int i = 0; i < 1000; i++) {
                        long id = nextKey++;
                        insert.setLong(1, id); insert.setInt(2, (int) (id % 1000)); insert.setString(3, "row " + id);
                        insert.addBatch();
                    }
                    check(insert.executeBatch().length == 1000);
                }
                case "UPDATE" -> {
                    update.setLong(1, 1 + random.nextInt(rows));
                    check(update.executeUpdate() == 1);
                }
                case "RANGE" -> {
                    long low = 1 + random.nextInt(rows - 100);
                    range.setLong(1, low); range.setLong(2, low + 99);
                    int read = 0;
                    try (ResultSet r = range.executeQuery()) { while (r.next()) { read++; } }
                    check(read == 100);
                }
                default -> throw new IllegalArgumentException(workload);
            }
        }

        static void check(boolean ok) {
            if (!ok) throw new IllegalStateException("unexpected result");
        }
    }
}
