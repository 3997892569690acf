import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/** Fresh.java <engine columba|duck> <db> <runs> <queries q02,q11> [explain]: in a fresh JVM as the tpch suite
 *  does it (EXPLAIN once, one check run, then runs): prints each execution's thread CPU and wall, ms. */
public class Fresh {
    public static void main(String[] args) throws Exception {
        String engine = args[0], db = args[1];
        int runs = Integer.parseInt(args[2]);
        boolean explain = args.length > 4 && args[4].equals("explain");
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
            String sql = Files.readString(Path.of(q.contains("/") ? q : "/tmp/join9h/q/" + q + ".sql")).strip();
            if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
            if (explain) {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery((engine.equals("duck") ? "EXPLAIN " : "EXPLAIN ") + sql)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) { StringBuilder b = new StringBuilder(); for (int k = 1; k <= n; k++) b.append(rs.getString(k)).append(k < n ? " | " : ""); System.out.println(b); }
                }
                continue;
            }
            StringBuilder out = new StringBuilder(engine + " " + q);
            List<Double> cpus = new ArrayList<>();
            jdk.jfr.Recording rec = null;
            for (int i = -2; i < runs; i++) {
                if (i == Integer.getInteger("jfrstart", 0) && System.getProperty("jfrout") != null) {
                    rec = new jdk.jfr.Recording(jdk.jfr.Configuration.create(Path.of("/tmp/join9h/prof1ms.jfc")));
                    rec.start();
                }
                if (rec != null && Integer.getInteger("jfrstop", 1 << 30) == i) { rec.stop(); rec.dump(Path.of(System.getProperty("jfrout"))); rec = null; }
                long w0 = System.nanoTime(), c0 = t.getCurrentThreadCpuTime();
                long rows = 0;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(i == -2 ? "EXPLAIN " + sql : sql)) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) { for (int k = 1; k <= n; k++) rs.getObject(k); rows++; }
                }
                long c1 = t.getCurrentThreadCpuTime(), w1 = System.nanoTime();
                if (i >= 0) cpus.add((c1 - c0) / 1e6);
                out.append(String.format(Locale.ROOT, " | %s %.1f", i == -2 ? "explain" : i == -1 ? "check" : "r" + i, (c1 - c0) / 1e6));
            }
            if (rec != null) { rec.stop(); rec.dump(Path.of(System.getProperty("jfrout"))); }
            System.out.println(out);
            if (runs >= 10) { List<Double> s = new ArrayList<>(cpus.subList(runs - 10, runs)); Collections.sort(s); System.out.printf(Locale.ROOT, "%s %s r4-6 med %.1f  last10 med %.1f%n", engine, q, med(cpus.subList(4, 7)), s.get(5)); }
            else if (runs >= 7) System.out.printf(Locale.ROOT, "%s %s r4-6 med %.1f%n", engine, q, med(cpus.subList(4, 7)));
        }
        c.close();
    }
    static double med(List<Double> v) { List<Double> s = new ArrayList<>(v); Collections.sort(s); return s.get(s.size() / 2); }
}
