import java.lang.management.*;
import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * args: columbaDb duckDbFile rounds q01 q02 ... ; per round and query runs Columba at MAXDOP 1, then MAXDOP 2,
 * then DuckDB at threads=2 (unless -Dnoduck=true), in one JVM, printing wall ms, process CPU ms, qcpu (thread CPU
 * of the main thread plus every columba* thread: the statement's own CPU) and a hash of the answer. One warm-up
 * round is not printed. -Donly2=true runs MAXDOP 2 alone (for profiles; start/end are epoch ms to split a recording by query). -Dgc=true runs System.gc() before each execution (default off: see paragg-20261127.md).
 */
public class Par10b {
    static Map<Long, Long> threadCpu(ThreadMXBean tm, boolean user) {
        Map<Long, Long> m = new HashMap<>();
        for (long id : tm.getAllThreadIds()) { long c = user ? tm.getThreadUserTime(id) : tm.getThreadCpuTime(id); if (c >= 0) m.put(id, c); }
        return m;
    }

    /** The process's minor page faults so far (/proc/self/stat, field 10). */
    static long minorFaults() throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]);
    }

    static long statementCpu(ThreadMXBean tm, Map<Long, Long> t0, Map<Long, Long> t1) {
        long q = 0;
        for (var en : t1.entrySet()) {
            ThreadInfo ti = tm.getThreadInfo(en.getKey());
            if (ti == null) continue;
            String nm = ti.getThreadName();
            if (nm.equals("main") || nm.startsWith("columba")) q += en.getValue() - t0.getOrDefault(en.getKey(), 0L);
        }
        return q;
    }

    public static void main(String[] a) throws Exception {
        String db = a[0], duck = a[1]; int rounds = Integer.parseInt(a[2]);
        String tag = System.getProperty("tag", "x");
        boolean noDuck = Boolean.getBoolean("noduck");
        String dop2 = System.getProperty("dop", "2");
        Connection c1 = DriverManager.getConnection("jdbc:columba:" + db);
        Connection c2 = DriverManager.getConnection("jdbc:columba:" + db);
        try (Statement s = c1.createStatement()) { s.execute("SET max_dop = 1"); }
        try (Statement s = c2.createStatement()) { s.execute("SET max_dop = " + dop2); }
        if (System.getProperty("thr2") != null) try (Statement s = c2.createStatement()) { s.execute("SET parallelism_threshold_rows = " + System.getProperty("thr2")); }
        Connection d = null;
        if (!noDuck) {
            Properties p = new Properties(); p.setProperty("duckdb.read_only", "true");
            d = DriverManager.getConnection("jdbc:duckdb:" + duck, p);
            // DuckDB at its default threads (all cores)
        }
        ThreadMXBean tm = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String[] sql = new String[a.length];
        for (int i = 3; i < a.length; i++) {
            String t = Files.readString(Path.of(System.getProperty("qdir", "/tmp/par10b/q"), a[i] + ".sql")).strip();
            sql[i] = t.endsWith(";") ? t.substring(0, t.length() - 1) : t;
        }
        String[] names = {"dop1", "dop" + dop2, "duck2"};
        for (int r = -1; r < rounds; r++) {
            for (int i = 3; i < a.length; i++) {
                Connection[] cs = noDuck ? new Connection[] {c1, c2} : new Connection[] {c1, c2, d};
                for (int k = 0; k < cs.length; k++) {
                    if (Boolean.getBoolean("only2") && k != 1) continue;
                    if (Boolean.getBoolean("gc")) System.gc();
                    Map<Long, Long> t0 = threadCpu(tm, false), u0 = threadCpu(tm, true);
                    long f0 = minorFaults();
                    double load = os.getSystemLoadAverage();
                    long w0 = System.nanoTime(), p0 = os.getProcessCpuTime(), start = System.currentTimeMillis();
                    long h = 0, rows = 0;
                    try (Statement s = cs[k].createStatement(); ResultSet rs = s.executeQuery(sql[i])) {
                        int n = rs.getMetaData().getColumnCount();
                        while (rs.next()) {
                            long rh = 0;
                            for (int col = 1; col <= n; col++) {
                                Object o = rs.getObject(col);
                                // numbers compared at 2 decimals so that DuckDB's and Columba's types agree
                                String v = o instanceof Number num ? String.format(Locale.ROOT, "%.2f", num.doubleValue()) : String.valueOf(o);
                                rh = rh * 31 + v.hashCode();
                            }
                            h += rh; rows++;
                        }
                    }
                    long w = System.nanoTime() - w0, p = os.getProcessCpuTime() - p0;
                    long faults = minorFaults() - f0;
                    Map<Long, Long> t1 = threadCpu(tm, false);
                    long q = statementCpu(tm, t0, t1), qu = statementCpu(tm, u0, threadCpu(tm, true));
                    long me = Thread.currentThread().threadId();
                    // per-thread busy time of the columba threads: the largest bounds the critical path on an idle machine
                    List<Long> per = new ArrayList<>();
                    for (var en : t1.entrySet()) { ThreadInfo ti = tm.getThreadInfo(en.getKey()); if (ti == null || !ti.getThreadName().startsWith("columba")) continue;
                        long dlt = en.getValue() - t0.getOrDefault(en.getKey(), 0L); if (dlt > 500_000) per.add(dlt); }
                    per.sort(Comparator.reverseOrder());
                    StringBuilder pw = new StringBuilder(); for (long x : per) pw.append(pw.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.0f", x / 1e6));
                    if (pw.length() == 0) pw.append("-");
                    long main = t1.getOrDefault(me, 0L) - t0.getOrDefault(me, 0L);
                    if (r >= 0) System.out.printf(Locale.ROOT, "%s r%d %s %s wall %.1f cpu %.1f qcpu %.1f qsys %.1f main %.1f faults %d load %.2f rows %d hash %x start %d end %d workers %s%n",
                            tag, r, a[i], names[k], w / 1e6, p / 1e6, q / 1e6, (q - qu) / 1e6, main / 1e6, faults, load, rows, h, start, System.currentTimeMillis(), pw);
                }
            }
            System.out.flush();
        }
        c1.close(); c2.close(); if (d != null) d.close();
    }
}
