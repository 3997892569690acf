// Measurement driver, not part of the build: the batch-lock report's Rounds.java with a mode "batchd" (Columba with SET delayed_durability = on).
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.*;
import java.util.*;

/**
 * Measurement driver (not committed; after /tmp/stmt-cost/driver/Rounds.java): Columba and H2 alternately in one JVM, one thread,
 * on the oltp suite's databases. Modes: prepared / adhoc point select on t (rows checked), batch = executeBatch of 1,000 rows into ins.
 * Per phase: per-second statements (rows for batch) by wall and by the thread's CPU time; median of the last 2/3.
 * For Columba batches: log syncs, groups, bytes per batch from sys.log_stats.
 * Args: dataDir rounds seconds mode label
 */
public class Rounds {
    static final com.sun.management.ThreadMXBean MX = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    static long checksum;
    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        String mode = args[3];
        String label = args.length > 4 ? args[4] : "";
        Path base = data.resolve("oltp").resolve("300000");
        Connection columba = DriverManager.getConnection("jdbc:columba:" + base.resolve("columba").toAbsolutePath(), new Properties());
        Connection h2 = DriverManager.getConnection("jdbc:h2:file:" + base.resolve("h2").toAbsolutePath().resolve("oltp") + ";OPTIMIZE_REUSE_RESULTS=0", new Properties());
        long[] nextKey = {maxIns(columba) + 1, maxIns(h2) + 1};
        if (mode.equals("batchd")) { try (Statement s = columba.createStatement()) { s.execute("SET delayed_durability = on"); } }
        for (int round = 0; round <= rounds; round++) {
            long[] log0 = log(columba);
            double[] c = phase(columba, seconds, mode, round, nextKey, 0);
            long[] log1 = log(columba);
            double[] h = phase(h2, seconds, mode, round, nextKey, 1);
            String logText = "";
            if (mode.startsWith("batch")) {
                double batches = log1[0] - log0[0];
                logText = String.format(Locale.ROOT, " | columba per batch: syncs %.3f groups %.3f KB %.1f", (log1[1] - log0[1]) / batches,
                        (log1[2] - log0[2]) / batches, (log1[3] - log0[3]) / batches / 1024);
            }
            System.out.printf(Locale.ROOT, "%s round %d %s: columba wall %.0f cpu %.0f alloc/stmt %.0f B | h2 wall %.0f cpu %.0f alloc/stmt %.0f B | ratio wall %.3f cpu %.3f | load %.2f%s%s%n",
                    label, round, mode, c[0], c[1], c[2], h[0], h[1], h[2], c[0] / h[0], c[1] / h[1],
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), logText, round == 0 ? " (warm-up)" : "");
        }
        System.out.println("checksum " + checksum);
    }

    static long[] log(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT full_commits, log_syncs, groups_appended, bytes_appended FROM sys.log_stats")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)};
        }
    }

    static long maxIns(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(id) FROM ins")) {
            rs.next();
            long v = rs.getLong(1);
            return Math.max(v, 10_000_000L);
        }
    }

    static double[] phase(Connection connection, int seconds, String mode, int round, long[] nextKey, int engine) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(mode.startsWith("batch")
                ? "INSERT INTO ins (id, v, s) VALUES (?, ?, ?)" : "SELECT v, s FROM t WHERE id = ?");
        Statement st = connection.createStatement();
        SplittableRandom random = new SplittableRandom(42 + round);
        List<double[]> perSecond = new ArrayList<>();
        int perLoop = mode.startsWith("batch") ? 1 : 256;
        for (int second = 0; second < seconds; second++) {
            long t0 = System.nanoTime(), c0 = MX.getCurrentThreadCpuTime(), a0 = MX.getCurrentThreadAllocatedBytes();
            long n = 0, until = t0 + 1_000_000_000L;
            do {
                if (mode.startsWith("batch")) {
                    long first = nextKey[engine];
                    nextKey[engine] += 1000;
                    for (int row = 0; row < 1000; row++) {
                        long id = first + row;
                        ps.setLong(1, id); ps.setInt(2, (int) (id % 1000)); ps.setString(3, "row " + id);
                        ps.addBatch();
                    }
                    int[] counts = ps.executeBatch();
                    if (counts.length != 1000) throw new IllegalStateException("counts " + counts.length);
                    n += 1000;
                    continue;
                }
                for (int i = 0; i < perLoop; i++) {
                    long key = 1 + random.nextLong(300_000);
                    ResultSet rs;
                    if (mode.equals("prepared")) { ps.setLong(1, key); rs = ps.executeQuery(); }
                    else rs = st.executeQuery("SELECT v, s FROM t WHERE id = " + key);
                    try (rs) {
                        if (!rs.next()) throw new IllegalStateException("missing " + key);
                        int v = rs.getInt(1);
                        String s = rs.getString(2);
                        checksum += v + s.length();
                        if (rs.next()) throw new IllegalStateException("twice " + key);
                    }
                }
                n += perLoop;
            } while (System.nanoTime() < until);
            long t1 = System.nanoTime(), c1 = MX.getCurrentThreadCpuTime(), a1 = MX.getCurrentThreadAllocatedBytes();
            perSecond.add(new double[]{n / ((t1 - t0) / 1e9), n / ((c1 - c0) / 1e9), (a1 - a0) / (double) n});
        }
        ps.close(); st.close();
        List<double[]> warm = perSecond.subList(perSecond.size() / 3, perSecond.size());
        double[] w = warm.stream().mapToDouble(a -> a[0]).sorted().toArray();
        double[] u = warm.stream().mapToDouble(a -> a[1]).sorted().toArray();
        double[] b = warm.stream().mapToDouble(a -> a[2]).sorted().toArray();
        return new double[]{w[w.length / 2], u[u.length / 2], b[b.length / 2]};
    }
}
