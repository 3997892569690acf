import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: dbpath warmupPasses measuredPasses q1 q2 ...; each pass runs every query at max_dop 1 then 2
 * (order alternating by pass) in one JVM, so both meet the same load. Prints per query: median wall
 * at dop 1 and 2, their ratio, median process CPU per execution at each.
 */
public class Drive {
    static final ThreadMXBean TM = ManagementFactory.getThreadMXBean();
    static java.util.Map<Long, Long> threadCpu() { java.util.Map<Long, Long> m = new java.util.HashMap<>(); for (long id : TM.getAllThreadIds()) { long t = TM.getThreadCpuTime(id); if (t > 0) m.put(id, t); } return m; }
    static long threadCpuSince(java.util.Map<Long, Long> before) { long sum = 0; for (long id : TM.getAllThreadIds()) { ThreadInfo ti = TM.getThreadInfo(id); if (ti == null || ti.getThreadName().contains("Compiler")) continue; long t = TM.getThreadCpuTime(id); if (t > 0) sum += t - before.getOrDefault(id, 0L); } return sum; }
    static long gcMillis() { long t = 0; for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) t += b.getCollectionTime(); return t; }

    public static void main(String[] a) throws Exception {
        String db = a[0]; int warm = Integer.parseInt(a[1]); int passes = Integer.parseInt(a[2]);
        Connection c = DriverManager.getConnection("jdbc:columba:" + db);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int n = a.length - 3;
        String[] names = new String[n], sqls = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = a[3 + i];
            String sql = Files.readString(Path.of("/tmp/lead/q/" + names[i] + ".sql")).strip();
            sqls[i] = sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        }
        int hi = Integer.getInteger("dop", 2);
        long[][][] wall = new long[2][n][passes], cpu = new long[2][n][passes];
        double[][] tcpu = new double[2][n]; double[][] jit = new double[2][n], gc = new double[2][n], cpuSum = new double[2][n];
        CompilationMXBean comp = ManagementFactory.getCompilationMXBean();
        long[] rows = new long[n];
        try (Statement st = c.createStatement()) {
            for (int pass = -warm; pass < passes; pass++) {
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < 2; k++) {
                        int d = ((pass & 1) == 0) == (k == 0) ? 0 : 1;
                        st.execute("SET max_dop = " + (d == 0 ? 1 : hi));
                        java.util.Map<Long, Long> t0 = threadCpu(); long w0 = System.nanoTime(), c0 = os.getProcessCpuTime(), j0 = comp.getTotalCompilationTime(), g0 = gcMillis();
                        long r = 0;
                        try (ResultSet rs = st.executeQuery(sqls[i])) {
                            int cols = rs.getMetaData().getColumnCount();
                            while (rs.next()) { for (int x = 1; x <= cols; x++) rs.getObject(x); r++; }
                        }
                        rows[i] = r;
                        long tc = threadCpuSince(t0); if (pass >= 0) { tcpu[d][i] += tc / 1e6 / passes; wall[d][i][pass] = System.nanoTime() - w0; cpu[d][i][pass] = os.getProcessCpuTime() - c0; cpuSum[d][i] += cpu[d][i][pass] / 1e6 / passes; jit[d][i] += (comp.getTotalCompilationTime() - j0) / (double) passes; gc[d][i] += (gcMillis() - g0) / (double) passes; }
                    }
                }
            }
        }
        double g = 0; int gn = 0;
        for (int i = 0; i < n; i++) {
            double[] m = new double[4];
            for (int d = 0; d < 2; d++) {
                long[] w = wall[d][i].clone(), cp = cpu[d][i].clone(); Arrays.sort(w); Arrays.sort(cp);
                m[d] = w[passes / 2] / 1e6; m[2 + d] = cp[passes / 2] / 1e6;
            }
            g += Math.log(m[1] / m[0]); gn++;
            System.out.printf(Locale.ROOT, "%s dop1 %.1f dop%d %.1f ratio %.2f threadcpu %.1f/%.1f meancpu1 %.1f meancpu%d %.1f jit %.1f/%.1f gc %.1f/%.1f rows %d%n", names[i], m[0], hi, m[1], m[1] / m[0], tcpu[0][i], tcpu[1][i], cpuSum[0][i], hi, cpuSum[1][i], jit[0][i], jit[1][i], gc[0][i], gc[1][i], rows[i]);
        }
        System.out.printf(Locale.ROOT, "geomean ratio %.3f%n", Math.exp(g / gn));
        c.close();
    }
}
