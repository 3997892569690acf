import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** One JVM, one connection: per query, R rounds of (MAXDOP 1, MAXDOP 2) alternating after one warm-up pair;
 *  prints per query medians of wall and process CPU per degree, the per-round ratios, answers' agreement, and the
 *  wait deltas (sys.wait_stats) summed over the measured rounds of each degree. -Donly=N runs one degree. */
public class Drive {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        Path dir = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String[] queries = args[3].split(",");
        boolean waits = Boolean.getBoolean("waits");
        String only = System.getProperty("only");
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (Connection connection = DriverManager.getConnection(url)) {
            for (String q : queries) {
                String sql = Files.readString(dir.resolve(q + ".sql")).split(";")[0];
                List<Double>[] el = new List[] {new ArrayList<>(), new ArrayList<>()};
                List<Double>[] cpu = new List[] {new ArrayList<>(), new ArrayList<>()};
                List<Double> ratios = new ArrayList<>();
                List<Double>[] mainC = new List[] {new ArrayList<>(), new ArrayList<>()}, maxW = new List[] {new ArrayList<>(), new ArrayList<>()},
                        sumW = new List[] {new ArrayList<>(), new ArrayList<>()}, crit = new List[] {new ArrayList<>(), new ArrayList<>()};
                Map<String, double[]>[] w = new Map[] {new TreeMap<>(), new TreeMap<>()};
                long[] sums = new long[2];
                for (int round = -1; round < rounds; round++) {
                    double[] roundEl = new double[2];
                    for (int d = 0; d < 2; d++) {
                        if (only != null && Integer.parseInt(only) != d + 1) continue;
                        try (Statement s = connection.createStatement()) { s.execute("SET max_dop = " + (d + 1)); }
                        Map<String, double[]> before = waits && round >= 0 ? waits(connection) : null;
                        Map<Long, Long> tc0 = threadCpu();
                        long c0 = os.getProcessCpuTime();
                        long t0 = System.nanoTime();
                        if (Boolean.getBoolean("columba.trace")) System.err.println("TRACE " + t0 + " main exec-start");
                        long checksum = 0;
                        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                            int n = rs.getMetaData().getColumnCount();
                            List<String> rows = new ArrayList<>();
                            while (rs.next()) { StringBuilder b = new StringBuilder(); for (int i = 1; i <= n; i++) { b.append(rs.getString(i)).append('|'); } rows.add(b.toString()); }
                            Collections.sort(rows);
                            for (String r : rows) checksum = checksum * 31 + r.hashCode();
                        }
                        double e = (System.nanoTime() - t0) / 1e6, c = (os.getProcessCpuTime() - c0) / 1e6;
                        Map<Long, Long> tc1 = threadCpu();
                        double mainCpu = 0, maxWorker = 0, sumWorker = 0;
                        for (var en : tc1.entrySet()) {
                            double delta = (en.getValue() - tc0.getOrDefault(en.getKey(), 0L)) / 1e6;
                            if (en.getKey() == Thread.currentThread().threadId()) mainCpu = delta;
                            else if (names.get(en.getKey()) != null && names.get(en.getKey()).startsWith("columba-worker")) { maxWorker = Math.max(maxWorker, delta); sumWorker += delta; }
                        }
                        if (round >= 0) { mainC[d].add(mainCpu); maxW[d].add(maxWorker); sumW[d].add(sumWorker); crit[d].add(mainCpu + maxWorker); }
                        if (before != null) {
                            Map<String, double[]> after = waits(connection);
                            for (var en : after.entrySet()) {
                                double[] b0 = before.getOrDefault(en.getKey(), new double[2]);
                                double[] acc = w[d].computeIfAbsent(en.getKey(), k -> new double[2]);
                                acc[0] += en.getValue()[0] - b0[0]; acc[1] += en.getValue()[1] - b0[1];
                            }
                        }
                        if (round >= 0) { el[d].add(e); cpu[d].add(c); }
                        roundEl[d] = e;
                        sums[d] = checksum;
                    }
                    if (round >= 0 && only == null) ratios.add(roundEl[1] / roundEl[0]);
                }
                String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
                if (only != null) { int d = Integer.parseInt(only) - 1; System.out.printf("%s\tdop %d\t%.1f\t%.1f\t%s\tmain %.1f busiest %.1f all %.1f%n", q, d + 1, med(el[d]), med(cpu[d]), load, med(mainC[d]), med(maxW[d]), med(sumW[d])); continue; }
                double e1 = med(el[0]), e2 = med(el[1]), c1 = med(cpu[0]), c2 = med(cpu[1]);
                StringBuilder rs = new StringBuilder();
                for (double r : ratios) rs.append(String.format("%.2f ", r));
                System.out.printf("%s\twall %.1f -> %.1f (%.2f; median of per-round %.2f)\tcpu %.1f -> %.1f (%.2f)\t%s\tload %s\trounds: %s%n", q, e1, e2, e2 / e1, med(ratios), c1, c2, c2 / c1,
                        sums[0] == sums[1] ? "same" : "DIFFERENT", load, rs);
                for (int d = 0; d < 2; d++) System.out.printf("  thread cpu dop %d: main %.1f  busiest worker %.1f  all workers %.1f  main+busiest %.1f%n", d + 1, med(mainC[d]), med(maxW[d]), med(sumW[d]), med(crit[d]));
                System.out.printf("  critical-path ratio (main+busiest worker cpu, dop2/dop1): %.2f%n", med(crit[1]) / med(crit[0]));
                if (waits) for (int d = 0; d < 2; d++) {
                    StringBuilder b = new StringBuilder();
                    for (var en : w[d].entrySet()) if (en.getValue()[0] > 0) b.append(String.format(" %s=%d/%.1fms", en.getKey(), (long) (en.getValue()[0] / rounds), en.getValue()[1] / rounds));
                    System.out.printf("  waits per exec dop %d:%s%n", d + 1, b);
                }
            }
        }
    }
    static final ThreadMXBean TM = ManagementFactory.getThreadMXBean();
    static final Map<Long, String> names = new HashMap<>();
    static Map<Long, Long> threadCpu() {
        Map<Long, Long> m = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long v = TM.getThreadCpuTime(t.threadId());
            if (v >= 0) { m.put(t.threadId(), v); names.put(t.threadId(), t.getName()); }
        }
        return m;
    }
    static Map<String, double[]> waits(Connection c) throws SQLException {
        Map<String, double[]> m = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT wait_type, waits, wait_time_ms FROM sys.wait_stats")) {
            while (rs.next()) m.put(rs.getString(1), new double[] {rs.getLong(2), rs.getDouble(3)});
        }
        return m;
    }
    static double med(List<Double> v) { if (v.isEmpty()) return Double.NaN; List<Double> s = new ArrayList<>(v); Collections.sort(s); return s.get(s.size() / 2); }
}
