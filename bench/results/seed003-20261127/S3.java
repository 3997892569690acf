import java.lang.management.*;
import java.sql.*;
import java.util.*;

/** seed 003's POINT mix (half point reads, half updates by email, autocommit) with full and delayed durability in turn. */
public class S3 {
    static final long SCATTER = Long.parseLong(System.getProperty("scatter"));
    static String email(long id) { return String.format(Locale.ROOT, "user%08x@example.org", (id * SCATTER) & 0xFFFF_FFFFL); }
    public static void main(String[] a) throws Exception {
        int ops = Integer.parseInt(a[1]);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + a[0] + ";buffer_pool_size=64MB;direct_io=true");
             PreparedStatement read = c.prepareStatement("SELECT id, balance FROM accounts WHERE email = ?");
             PreparedStatement update = c.prepareStatement("UPDATE accounts SET balance = balance + 1 WHERE email = ?");
             Statement s = c.createStatement()) {
            SplittableRandom random = new SplittableRandom(3);
            ThreadMXBean tm = ManagementFactory.getThreadMXBean();
            for (int round = 0; round < 4; round++) {
                for (String mode : new String[] {"off", "on"}) {
                    s.execute("SET delayed_durability = " + mode);
                    long syncs0 = syncs(s);
                    long w0 = System.nanoTime(), c0 = tm.getCurrentThreadCpuTime();
                    for (int i = 0; i < ops; i++) {
                        long id = random.nextLong(2_000_000);
                        boolean up = random.nextInt(100) < 50;
                        PreparedStatement p = up ? update : read;
                        p.setString(1, email(id));
                        if (up) { if (p.executeUpdate() != 1) throw new AssertionError(); }
                        else try (ResultSet r = p.executeQuery()) { if (!r.next() || r.getLong(1) != id) throw new AssertionError(); }
                    }
                    double wall = (System.nanoTime() - w0) / 1e9, cpu = (tm.getCurrentThreadCpuTime() - c0) / 1e9;
                    long syncs = syncs(s) - syncs0;
                    if (round > 0) System.out.printf(Locale.ROOT, "round %d delayed_durability=%s ops/s %.0f cpu-ms/op %.3f wall-ms/op %.3f log syncs/op %.3f%n",
                            round, mode, ops / wall, cpu * 1000 / ops, wall * 1000 / ops, (double) syncs / ops);
                }
            }
        }
    }
    static long syncs(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT log_syncs FROM sys.log_stats")) { r.next(); return r.getLong(1); }
    }
}
