import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: dbpath dop warmupPasses measuredPasses name=file ...; a pass runs every query once, in order.
 * Prints per query: median wall ms, median session-thread CPU ms, median CPU ms of the session thread plus
 * Columba's worker threads (columba-worker-*, columba-sort-worker-*), rows, and a checksum of the rows in order.
 */
public class Drive {
    static final ThreadMXBean TM = ManagementFactory.getThreadMXBean();

    static Map<Long, Long> workerCpu() {
        Map<Long, Long> cpu = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("columba-worker-") || t.getName().startsWith("columba-sort-worker-")) {
                long c = TM.getThreadCpuTime(t.threadId());
                if (c >= 0) cpu.put(t.threadId(), c);
            }
        }
        return cpu;
    }

    public static void main(String[] a) throws Exception {
        String db = a[0]; int[] dops = Arrays.stream(a[1].split(",")).mapToInt(Integer::parseInt).toArray(); int warm = Integer.parseInt(a[2]); int passes = Integer.parseInt(a[3]);
        Connection c = DriverManager.getConnection("jdbc:columba:" + db);
        int queries = a.length - 4;
        int n = queries * dops.length;
        String[] names = new String[n], sqls = new String[n];
        int[] dopOf = new int[n];
        for (int i = 0; i < n; i++) {
            String[] kv = a[4 + i / dops.length].split("=", 2);
            names[i] = kv[0];
            dopOf[i] = dops[i % dops.length];
            String sql = Files.readString(Path.of(kv[1])).strip();
            sqls[i] = sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        }
        long[][] wall = new long[n][passes], cpu = new long[n][passes], total = new long[n][passes];
        long[] rows = new long[n];
        long[] sums = new long[n];
        for (int pass = -warm; pass < passes; pass++) {
            for (int i = 0; i < n; i++) {
                try (Statement s = c.createStatement()) { s.execute("SET max_dop = " + dopOf[i]); }
                Map<Long, Long> before = workerCpu();
                long w0 = System.nanoTime(), c0 = TM.getCurrentThreadCpuTime();
                long r = 0, h = 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sqls[i])) {
                    int cols = rs.getMetaData().getColumnCount();
                    while (rs.next()) { for (int k = 1; k <= cols; k++) { Object o = rs.getObject(k); h = h * 31 + Objects.hashCode(o); } r++; }
                }
                long w1 = System.nanoTime(), c1 = TM.getCurrentThreadCpuTime();
                long workers = 0;
                for (Map.Entry<Long, Long> e : workerCpu().entrySet()) workers += e.getValue() - before.getOrDefault(e.getKey(), 0L);
                rows[i] = r; sums[i] = h;
                if (pass >= 0) { wall[i][pass] = w1 - w0; cpu[i][pass] = c1 - c0; total[i][pass] = c1 - c0 + workers; }
            }
        }
        for (int i = 0; i < n; i++) {
            long[] w = wall[i].clone(), cp = cpu[i].clone(), t = total[i].clone(); Arrays.sort(w); Arrays.sort(cp); Arrays.sort(t);
            StringBuilder all = new StringBuilder();
            for (int p = 0; p < passes; p++) all.append(String.format(Locale.ROOT, " %.0f/%.0f", wall[i][p] / 1e6, total[i][p] / 1e6));
            System.out.printf(Locale.ROOT, "%s dop %d wall %.1f sessioncpu %.1f totalcpu %.1f rows %d hash %x passes(wall/totalcpu)%s%n", names[i], dopOf[i],
                    w[passes / 2] / 1e6, cp[passes / 2] / 1e6, t[passes / 2] / 1e6, rows[i], sums[i], all);
        }
        c.close();
    }
}
