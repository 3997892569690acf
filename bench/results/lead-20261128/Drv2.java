import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;
import dev.columba.bench.tpch.TpchText;

/** Drv2 <db> <query> <dop> <iterations>: per iteration wall, and CPU split into JIT, GC, other (from /proc/self/task). */
public class Drv2 {
    static long[] cpu() throws Exception {
        long jit = 0, gc = 0, other = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path t : tasks) {
                String stat;
                try { stat = Files.readString(t.resolve("stat")); } catch (Exception e) { continue; }
                int l = stat.indexOf('('), r = stat.lastIndexOf(')');
                String comm = stat.substring(l + 1, r);
                String[] f = stat.substring(r + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                if (comm.startsWith("C1 Comp") || comm.startsWith("C2 Comp")) jit += ticks;
                else if (comm.startsWith("GC") || comm.startsWith("G1")) gc += ticks;
                else other += ticks;
            }
        }
        String st = Files.readString(Paths.get("/proc/self/stat")); String[] g = st.substring(st.lastIndexOf(')') + 2).split(" ");
        return new long[] {jit * 10, gc * 10, other * 10, Long.parseLong(g[7]), ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes()};
    }
    public static void main(String[] a) throws Exception {
        String db = a[0]; TpchText q = TpchText.valueOf(a[1]); int dop = Integer.parseInt(a[2]); int n = Integer.parseInt(a[3]);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + db); Statement s = c.createStatement()) {
            s.execute("SET max_dop = " + dop);
            StringBuilder out = new StringBuilder(a[1] + " dop" + dop + " wall/work/jit/gc/minflt/alloc:");
            for (int i = 0; i < n; i++) {
                long w = System.nanoTime(); long[] c0 = cpu();
                try (ResultSet r = s.executeQuery(q.sql())) { while (r.next()) { } }
                long dw = System.nanoTime() - w; long[] c1 = cpu();
                out.append(String.format(" %d/%d/%d/%d/%dk/%dM", dw / 1_000_000, c1[2] - c0[2], c1[0] - c0[0], c1[1] - c0[1], (c1[3] - c0[3]) / 1000, (c1[4] - c0[4]) >> 20));
            }
            System.out.println(out);
        }
    }
}
