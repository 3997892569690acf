import dev.columba.bench.peers.*;
import java.lang.management.*;
import java.nio.file.*;
import java.util.*;

/** Cold.java <CS|DUCK> <databases dir> <cold runs> : the peers suite's fixtures (PeerConnection.dropCaches)
 *  on the tpch databases; per query: one check run, 2 warm runs, then for each run warm then cold;
 *  prints medians of thread CPU and wall, and read_bytes per cold run. */
public class Cold {
    static long readBytes() throws Exception {
        for (String l : Files.readAllLines(Path.of("/proc/self/io"))) if (l.startsWith("read_bytes:")) return Long.parseLong(l.substring(11).trim());
        return -1;
    }
    static long majflt() throws Exception {
        String st = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[9]); // field 12 majflt (index from state = field 3)
    }
    static double med(List<Double> v) { List<Double> s = new ArrayList<>(v); Collections.sort(s); return s.get(s.size() / 2); }
    public static void main(String[] args) throws Exception {
        Peer peer = switch (args[0]) { case "CS" -> Peer.COLUMBA_COLUMNSTORE; case "RS" -> Peer.COLUMBA_ROWSTORE; default -> Peer.DUCKDB; };
        int runs = Integer.parseInt(args[2]);
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        try (PeerConnection c = new PeerConnection(peer, Path.of(args[1]), System.getProperty("db.name", "tpch"))) {
            c.useThreads(1);
            for (TpchQuery q : TpchQuery.values()) {
                if (args.length > 3 && !Arrays.asList(args[3].split(",")).contains(q.name())) continue;
                String sql = q.sql();
                for (int i = 0; i < 3; i++) c.run(q.title(), sql);
                List<Double> wc = new ArrayList<>(), ww = new ArrayList<>(), cc = new ArrayList<>(), cw = new ArrayList<>(), rb = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    long w0 = System.nanoTime(), c0 = t.getCurrentThreadCpuTime();
                    c.run(q.title(), sql);
                    wc.add((t.getCurrentThreadCpuTime() - c0) / 1e6); ww.add((System.nanoTime() - w0) / 1e6);
                    c.dropCaches();
                    long b0 = readBytes(); long m0 = majflt();
                    w0 = System.nanoTime(); c0 = t.getCurrentThreadCpuTime();
                    c.run(q.title(), sql);
                    cc.add((t.getCurrentThreadCpuTime() - c0) / 1e6); cw.add((System.nanoTime() - w0) / 1e6);
                    rb.add((readBytes() - b0) / 1e6);
                    if (r == runs - 1) System.out.printf(Locale.ROOT, "  %s %s cold majflt on query thread %d, stats %s%n", args[0], q.name(), majflt() - m0, c.lastStatistics());
                }
                System.out.printf(Locale.ROOT, "%s %s warm wall %.1f cpu %.1f | cold wall %.1f cpu %.1f readMB %.1f | cold walls %s%n",
                        args[0], q.name(), med(ww), med(wc), med(cw), med(cc), med(rb), cw);
            }
        }
    }
}
