import java.nio.file.*;
import java.sql.*;
import java.util.*;
import dev.columba.bench.tpch.TpchText;

/** Drv4 <db> <query> <dop> <warmups> <measured> <explains>: the tpch suite's sequence; per run wall, workers' CPU and JIT CPU. */
public class Drv4 {
    static long[] cpu() throws Exception {
        long jit = 0, other = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path t : tasks) {
                String stat;
                try { stat = Files.readString(t.resolve("stat")); } catch (Exception e) { continue; }
                int l = stat.indexOf('('), r = stat.lastIndexOf(')');
                String comm = stat.substring(l + 1, r);
                String[] f = stat.substring(r + 2).split(" ");
                long ticks = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
                if (comm.contains("CompilerThre")) jit += ticks; else other += ticks;
            }
        }
        return new long[] {jit, other};
    }
    static void run(Statement s, String sql) throws Exception {
        try (ResultSet r = s.executeQuery(sql)) { while (r.next()) { } }
    }
    public static void main(String[] a) throws Exception {
        String db = a[0]; TpchText q = TpchText.valueOf(a[1]); int dop = Integer.parseInt(a[2]);
        int warm = Integer.parseInt(a[3]), measured = Integer.parseInt(a[4]), explains = Integer.parseInt(a[5]);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + db); Statement s = c.createStatement()) {
            s.execute("SET max_dop = " + dop);
            run(s, "EXPLAIN " + q.sql());
            run(s, q.sql());
            long[] e0 = cpu();
            for (int i = 0; i < explains; i++) run(s, "EXPLAIN " + q.sql());
            long[] e1 = cpu();
            StringBuilder out = new StringBuilder(String.format("%s dop%d explains jit %d | wall/other/jit:", a[1], dop, e1[0] - e0[0]));
            for (int i = 0; i < warm + measured; i++) {
                long[] c0 = cpu(); long w = System.nanoTime();
                run(s, q.sql());
                long dw = System.nanoTime() - w; long[] c1 = cpu();
                out.append(i == warm ? " ||" : "").append(String.format(" %d/%d/%d", dw / 1_000_000, c1[1] - c0[1], c1[0] - c0[0]));
            }
            System.out.println(out);
        }
    }
}
