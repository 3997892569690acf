import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** args: engine(columba|duck) dbpath rounds q1 q5 ... ; prints per query median wall ms and thread-cpu ms. */
public class Drive {
    public static void main(String[] a) throws Exception {
        String engine = a[0]; String db = a[1]; int rounds = Integer.parseInt(a[2]);
        Connection c;
        if (engine.equals("duck")) {
            Properties p = new Properties(); p.setProperty("duckdb.read_only", "true");
            c = DriverManager.getConnection("jdbc:duckdb:" + db, p);
            try (Statement s = c.createStatement()) { s.execute("SET threads = " + System.getProperty("dthreads", "1")); }
        } else {
            c = DriverManager.getConnection("jdbc:columba:" + db);
            try (Statement s = c.createStatement()) { s.execute("SET max_dop = " + System.getProperty("dop", "1")); }
        }
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        for (int i = 3; i < a.length; i++) {
            String q = a[i];
            String sql = Files.readString(Path.of("/tmp/lead/q/" + q + ".sql")).strip();
            if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
            long[] wall = new long[rounds], cpu = new long[rounds];
            long rows = 0;
            for (int r = -1; r < rounds; r++) {
                long w0 = System.nanoTime(), c0 = tm.getCurrentThreadCpuTime();
                rows = 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) { for (int k = 1; k <= n; k++) rs.getObject(k); rows++; }
                }
                if (r >= 0) { wall[r] = System.nanoTime() - w0; cpu[r] = tm.getCurrentThreadCpuTime() - c0; }
            }
            Arrays.sort(wall); Arrays.sort(cpu);
            System.out.printf(Locale.ROOT, "%s %s wall %.1f cpu %.1f rows %d%n", engine, q, wall[rounds/2]/1e6, cpu[rounds/2]/1e6, rows);
        }
        c.close();
    }
}
