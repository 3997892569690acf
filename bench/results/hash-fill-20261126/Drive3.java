import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** One JVM, one connection: per query, R rounds of (MAXDOP 1, MAXDOP 2) alternating; prints per query the medians of elapsed and process CPU at each degree, the ratios, and whether the answers' checksums agree. */
public class Drive3 {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        Path dir = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String[] queries = args[3].split(",");
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (Connection connection = DriverManager.getConnection(url)) {
            for (String q : queries) {
                String sql = Files.readString(dir.resolve(q + ".sql")).split(";")[0];
                List<Double>[] el = new List[] {new ArrayList<>(), new ArrayList<>()};
                List<Double>[] cpu = new List[] {new ArrayList<>(), new ArrayList<>()};
                long[] sums = new long[2];
                for (int round = -1; round < rounds; round++) {
                    for (int d = 0; d < 2; d++) {
                        if (System.getProperty("only") != null && Integer.parseInt(System.getProperty("only")) != d + 1) continue;
                        try (Statement s = connection.createStatement()) { s.execute("SET max_dop = " + (d + 1)); }
                        long c0 = os.getProcessCpuTime();
                        long t0 = System.nanoTime();
                        long checksum = 0;
                        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                            int n = rs.getMetaData().getColumnCount();
                            List<String> rows = new ArrayList<>();
                            while (rs.next()) { StringBuilder b = new StringBuilder(); for (int i = 1; i <= n; i++) { b.append(rs.getString(i)).append('|'); } rows.add(b.toString()); }
                            Collections.sort(rows);
                            for (String r : rows) checksum = checksum * 31 + r.hashCode();
                        }
                        double e = (System.nanoTime() - t0) / 1e6, c = (os.getProcessCpuTime() - c0) / 1e6;
                        if (round >= 0) { el[d].add(e); cpu[d].add(c); }
                        sums[d] = checksum;
                    }
                }
                if (System.getProperty("only") != null) { int d = Integer.parseInt(System.getProperty("only")) - 1; System.out.printf("%s\tdop %d\t%.1f\t%.1f%n", q, d + 1, med(el[d]), med(cpu[d])); continue; }
                double e1 = med(el[0]), e2 = med(el[1]), c1 = med(cpu[0]), c2 = med(cpu[1]);
                System.out.printf("%s\t%.1f\t%.1f\t%.2f\t%.1f\t%.1f\t%.2f\t%s\t%s%n", q, e1, e2, e2 / e1, c1, c2, c2 / c1,
                        sums[0] == sums[1] ? "same" : "DIFFERENT", Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
            }
        }
    }
    static double med(List<Double> v) { List<Double> s = new ArrayList<>(v); Collections.sort(s); return s.get(s.size() / 2); }
}
