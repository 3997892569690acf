import dev.columba.bench.tpch.TpchText;
import java.lang.management.ManagementFactory;
import java.sql.*;
import java.util.*;

/** Planning time of every TPC-H query from scratch: EXPLAIN ... OPTION (RECOMPILE) on a fresh connection, passes in one JVM. Args: dbDir passes [queries] */
public class Plan {
    public static void main(String[] args) throws Exception {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String url = "jdbc:columba:" + args[0];
        int passes = Integer.parseInt(args[1]);
        Set<String> only = args.length > 2 ? Set.of(args[2].split(",")) : null;
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int pass = 0; pass < passes; pass++) {
            for (TpchText q : TpchText.values()) {
                if (only != null && !only.contains(q.title())) continue;
                try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                    String sql = "EXPLAIN " + q.sql() + " OPTION (RECOMPILE)";
                    long t0 = System.nanoTime(), c0 = mx.getCurrentThreadCpuTime();
                    try (ResultSet rs = s.executeQuery(sql)) { while (rs.next()) { rs.getString(1); } }
                    double wall = (System.nanoTime() - t0) / 1e6, cpu = (mx.getCurrentThreadCpuTime() - c0) / 1e6;
                    results.computeIfAbsent(q.title(), k -> new ArrayList<>()).add(new double[]{wall, cpu});
                    System.out.printf(Locale.ROOT, "pass %d %s wall %.1f ms cpu %.1f ms%n", pass, q.title(), wall, cpu);
                }
            }
        }
        System.out.printf(Locale.ROOT, "load %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println("| query | " + String.join(" | ", Collections.nCopies(passes, "wall / cpu ms")) + " |");
        for (var e : results.entrySet()) {
            StringBuilder b = new StringBuilder("| " + e.getKey());
            for (double[] r : e.getValue()) b.append(String.format(Locale.ROOT, " | %.0f / %.0f", r[0], r[1]));
            System.out.println(b + " |");
        }
    }
}
