import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: engine(columba|duck) dbpath warmupPasses measuredPasses q1 q2 ...; a pass runs every query once, in order.
 * Prints per query: median wall ms over the measured passes, median session-thread cpu ms, rows.
 * -Ddop (Columba max_dop), -Ddthreads (DuckDB threads).
 */
public class Drive {
    public static void main(String[] a) throws Exception {
        String engine = a[0]; String db = a[1]; int warm = Integer.parseInt(a[2]); int passes = Integer.parseInt(a[3]);
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
        int n = a.length - 4;
        String[] names = new String[n], sqls = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = a[4 + i];
            String sql = Files.readString(Path.of("/tmp/lead/q/" + names[i] + ".sql")).strip();
            sqls[i] = sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        }
        long[][] wall = new long[n][passes], cpu = new long[n][passes];
        long[] rows = new long[n];
        for (int pass = -warm; pass < passes; pass++) {
            for (int i = 0; i < n; i++) {
                long w0 = System.nanoTime(), c0 = tm.getCurrentThreadCpuTime();
                long r = 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sqls[i])) {
                    int cols = rs.getMetaData().getColumnCount();
                    while (rs.next()) { for (int k = 1; k <= cols; k++) rs.getObject(k); r++; }
                }
                rows[i] = r;
                if (pass >= 0) { wall[i][pass] = System.nanoTime() - w0; cpu[i][pass] = tm.getCurrentThreadCpuTime() - c0; }
            }
        }
        for (int i = 0; i < n; i++) {
            long[] w = wall[i].clone(), cp = cpu[i].clone(); Arrays.sort(w); Arrays.sort(cp);
            System.out.printf(Locale.ROOT, "%s %s wall %.1f cpu %.1f rows %d%n", engine, names[i], w[passes / 2] / 1e6, cp[passes / 2] / 1e6, rows[i]);
        }
        c.close();
    }
}
