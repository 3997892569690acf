import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: dbpath warmupPasses measuredPasses q1 q2 ...; each pass runs every query at max_dop 1 then hi
 * (order alternating by pass) in one JVM. Per query: median wall at each, ratio, mean thread CPU
 * (all threads but the JIT's), split into session thread and columba-worker threads, GC ms,
 * heap bytes allocated by all threads, and a hash of the rows.
 */
public class Drive {
    static final com.sun.management.ThreadMXBean TM = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    record Snap(Map<Long, Long> cpu, Map<Long, Long> alloc) {}
    static Snap snap() {
        Map<Long, Long> c = new HashMap<>(), a = new HashMap<>();
        for (long id : TM.getAllThreadIds()) { long t = TM.getThreadCpuTime(id); if (t > 0) c.put(id, t); long b = TM.getThreadAllocatedBytes(id); if (b > 0) a.put(id, b); }
        return new Snap(c, a);
    }
    /** [total cpu ns excl compiler, worker cpu ns, alloc bytes, max single-thread cpu ns] */
    static long[] since(Snap s) {
        long sum = 0, workers = 0, alloc = 0, max = 0;
        for (long id : TM.getAllThreadIds()) {
            ThreadInfo ti = TM.getThreadInfo(id); if (ti == null) continue;
            String n = ti.getThreadName();
            long b = TM.getThreadAllocatedBytes(id); if (b > 0) alloc += b - s.alloc().getOrDefault(id, 0L);
            if (n.contains("Compiler")) continue;
            long t = TM.getThreadCpuTime(id); if (t <= 0) continue;
            long d = t - s.cpu().getOrDefault(id, 0L);
            sum += d; if (n.startsWith("columba-")) workers += d; max = Math.max(max, d);
        }
        return new long[] {sum, workers, alloc, max};
    }
    static long gcMillis() { long t = 0; for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) t += b.getCollectionTime(); return t; }
    static double med(long[] v) { long[] w = v.clone(); Arrays.sort(w); return w[w.length / 2]; }

    public static void main(String[] a) throws Exception {
        String db = a[0]; int warm = Integer.parseInt(a[1]); int passes = Integer.parseInt(a[2]);
        String qdir = System.getProperty("qdir", "/tmp/par10g/q");
        Connection c = DriverManager.getConnection("jdbc:columba:" + db);
        int n = a.length - 3;
        String[] names = new String[n], sqls = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = a[3 + i];
            String sql = Files.readString(Path.of(qdir, names[i] + ".sql")).strip();
            sqls[i] = sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        }
        int hi = Integer.getInteger("dop", 2);
        int[] dops = {1, hi};
        long[][][] wall = new long[2][n][passes], cpu = new long[2][n][passes], wcpu = new long[2][n][passes], alloc = new long[2][n][passes], mx = new long[2][n][passes], gc = new long[2][n][passes];
        long[] hash = new long[n]; long[] rows = new long[n];
        try (Statement st = c.createStatement()) {
            for (int pass = -warm; pass < passes; pass++) {
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < 2; k++) {
                        int d = ((pass & 1) == 0) == (k == 0) ? 0 : 1;
                        if (Boolean.getBoolean("only") && d == 0) continue;
                        st.execute("SET max_dop = " + dops[d]);
                        Snap s0 = snap(); long g0 = gcMillis(); long w0 = System.nanoTime();
                        long r = 0, h = 0;
                        try (ResultSet rs = st.executeQuery(sqls[i])) {
                            int cols = rs.getMetaData().getColumnCount();
                            while (rs.next()) { long rh = 0; for (int x = 1; x <= cols; x++) { Object o = rs.getObject(x); rh = rh * 31 + (o == null ? 0 : (o instanceof Double dd ? Long.hashCode(Math.round(dd * 100)) : o.toString().hashCode())); } h += rh * 0x9E3779B97F4A7C15L; r++; }
                        }
                        long w = System.nanoTime() - w0;
                        long[] t = since(s0); long g = gcMillis() - g0;
                        rows[i] = r; hash[i] = h;
                        if (pass >= 0) { wall[d][i][pass] = w; cpu[d][i][pass] = t[0]; wcpu[d][i][pass] = t[1]; alloc[d][i][pass] = t[2]; mx[d][i][pass] = t[3]; gc[d][i][pass] = g; }
                    }
                }
            }
        }
        double g = 0;
        for (int i = 0; i < n; i++) {
            double[] mw = new double[2], mc = new double[2], mwc = new double[2], ma = new double[2], mg = new double[2], mm = new double[2];
            for (int d = 0; d < 2; d++) { mw[d] = med(wall[d][i]) / 1e6; mc[d] = med(cpu[d][i]) / 1e6; mwc[d] = med(wcpu[d][i]) / 1e6; ma[d] = med(alloc[d][i]) / 1e6; mm[d] = med(mx[d][i]) / 1e6; mg[d] = Arrays.stream(gc[d][i]).average().orElse(0); }
            g += Math.log(mw[1] / mw[0]);
            System.out.printf(Locale.ROOT, "%s wall %.1f/%.1f ratio %.2f cpu %.1f/%.1f (workers %.1f/%.1f) cpuratio %.2f maxthread %.1f/%.1f allocMB %.1f/%.1f gcms %.1f/%.1f rows %d hash %x%n",
                names[i], mw[0], mw[1], mw[1] / mw[0], mc[0], mc[1], mwc[0], mwc[1], mc[1] / mc[0], mm[0], mm[1], ma[0], ma[1], mg[0], mg[1], rows[i], hash[i]);
        }
        System.out.printf(Locale.ROOT, "geomean wall ratio %.3f%n", Math.exp(g / n));
        c.close();
    }
}
