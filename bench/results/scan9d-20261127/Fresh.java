import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** Fresh.java <engine columba|duck> <db> <runs> <query>: in a fresh JVM as the tpch suite does it
 *  (EXPLAIN once, one check run, then runs): prints each execution's thread CPU and wall, ms. */
public class Fresh {
    public static void main(String[] args) throws Exception {
        String engine = args[0], db = args[1];
        int runs = Integer.parseInt(args[2]);
        Connection c;
        if (engine.equals("duck")) {
            Properties p = new Properties(); p.setProperty("duckdb.read_only", "true");
            c = DriverManager.getConnection("jdbc:duckdb:" + db, p);
            try (Statement s = c.createStatement()) { s.execute("SET threads = 1"); }
        } else {
            c = DriverManager.getConnection("jdbc:columba:" + db);
            try (Statement s = c.createStatement()) { s.execute("SET max_dop = 1"); }
        }
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        for (String q : args[3].split(",")) {
        String sql = Files.readString(Path.of(q.contains("/") ? q : "/tmp/lead/q/" + q + ".sql")).strip();
        if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
        StringBuilder out = new StringBuilder(engine + " " + q);
        for (int i = -2; i < runs; i++) {
            long w0 = System.nanoTime(), c0 = t.getCurrentThreadCpuTime();
            long rows = 0;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(i == -2 ? "EXPLAIN " + sql : sql)) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) { for (int k = 1; k <= n; k++) rs.getObject(k); rows++; }
            }
            long c1 = t.getCurrentThreadCpuTime(), w1 = System.nanoTime();
            out.append(String.format(Locale.ROOT, " | %s cpu %.1f wall %.1f", i == -2 ? "explain" : i == -1 ? "check" : "r" + i,
                    (c1 - c0) / 1e6, (w1 - w0) / 1e6));
        }
        System.out.println(out);
        }
        c.close();
    }
}
