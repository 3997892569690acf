import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: dbpath rounds q18 q10 ... ; per round and query runs MAXDOP 1 then MAXDOP 2 (two sessions),
 * printing wall ms, process CPU ms (all threads: workers + coordinator) and a hash of the answer.
 */
public class Pair {
    static java.util.Map<Long, Long> threadCpu(ThreadMXBean tm) {
        java.util.Map<Long, Long> m = new java.util.HashMap<>();
        for (long id : tm.getAllThreadIds()) { long c = Boolean.getBoolean("user") ? tm.getThreadUserTime(id) : tm.getThreadCpuTime(id); if (c >= 0) m.put(id, c); }
        return m;
    }

    public static void main(String[] a) throws Exception {
        String db = a[0]; int rounds = Integer.parseInt(a[1]);
        String tag = System.getProperty("tag", "x");
        Connection c1 = DriverManager.getConnection("jdbc:columba:" + db);
        Connection c2 = DriverManager.getConnection("jdbc:columba:" + db);
        try (Statement s = c1.createStatement()) { s.execute("SET max_dop = 1"); }
        try (Statement s = c2.createStatement()) { s.execute("SET max_dop = " + System.getProperty("dop", "2")); }
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String[] sql = new String[a.length];
        for (int i = 2; i < a.length; i++) {
            String t = Files.readString(Path.of("/tmp/paragg/q/" + a[i] + ".sql")).strip();
            sql[i] = t.endsWith(";") ? t.substring(0, t.length() - 1) : t;
        }
        for (int r = -1; r < rounds; r++) {
            for (int i = 2; i < a.length; i++) {
                for (Connection c : Boolean.getBoolean("only2") ? new Connection[] {c2} : Boolean.getBoolean("only1") ? new Connection[] {c1} : new Connection[] {c1, c2}) {
                    if (!Boolean.getBoolean("nogc")) System.gc();
                    java.util.Map<Long, Long> t0 = threadCpu(tm);
                    long w0 = System.nanoTime(), p0 = os.getProcessCpuTime();
                    long h = 0, rows = 0;
                    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql[i])) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) { long rh = 0; for (int k = 1; k <= n; k++) rh = rh * 31 + Objects.hashCode(String.valueOf(rs.getObject(k))); h += rh; rows++; }
                    }
                    long w = System.nanoTime() - w0, p = os.getProcessCpuTime() - p0;
                    java.util.Map<Long, Long> t1 = threadCpu(tm);
                    long q = 0, busiest = 0, main = 0;
                    for (var en : t1.entrySet()) {
                        long d = en.getValue() - t0.getOrDefault(en.getKey(), 0L);
                        ThreadInfo ti = tm.getThreadInfo(en.getKey());
                        if (ti == null) continue;
                        String nm = ti.getThreadName();
                        if (nm.equals("main")) { main = d; q += d; }
                        else if (nm.startsWith("columba")) { q += d; busiest = Math.max(busiest, d); }
                    }
                    if (r >= 0) System.out.printf(Locale.ROOT, "%s r%d %s dop%s wall %.1f cpu %.1f qcpu %.1f main %.1f busiest %.1f rows %d hash %x%n", tag, r, a[i], c == c1 ? "1" : System.getProperty("dop", "2"), w / 1e6, p / 1e6, q / 1e6, main / 1e6, busiest / 1e6, rows, h);
                }
            }
            System.out.flush();
        }
        c1.close(); c2.close();
    }
}
