import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** DriveDop with the process's CPU time as well: prints the medians of the last half of the runs, elapsed and process CPU (ms), and a checksum of the answer. */
public class Drive2 {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        String sql = Files.readString(Path.of(args[1])).split(";")[0];
        int runs = Integer.parseInt(args[2]);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<Double> el = new ArrayList<>(), cpu = new ArrayList<>();
        long sum = 0;
        try (Connection connection = DriverManager.getConnection(url)) {
            try (Statement s = connection.createStatement()) {
                s.execute(url.startsWith("jdbc:duckdb") ? "SET threads = " + System.getProperty("dop", "1") : "SET max_dop = " + System.getProperty("dop", "1"));
            }
            for (int run = 0; run < runs; run++) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                long checksum = 0;
                try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) { for (int i = 1; i <= n; i++) { String v = rs.getString(i); checksum += v == null ? 7 : v.hashCode(); } checksum *= 31; }
                }
                el.add((System.nanoTime() - t0) / 1e6);
                cpu.add((os.getProcessCpuTime() - c0) / 1e6);
                sum = checksum;
            }
        }
        System.out.printf("%.1f %.1f %x%n", med(el), med(cpu), sum);
    }
    static double med(List<Double> v) {
        List<Double> last = new ArrayList<>(v.subList(v.size() / 2, v.size()));
        Collections.sort(last);
        return last.get(last.size() / 2);
    }
}
