import dev.columba.bench.peers.*;
import java.lang.management.*;
import java.nio.file.*;
import java.util.*;

/** Runs.java <CS|DUCK> <databases dir> <runs> <queries>: per query (the peers suite's texts) in this fresh JVM,
 *  <runs> runs from the first, each printed with its thread CPU, wall, the JVM's GC count and time and JIT
 *  compilation time during it: whether a run's cost changes as the compiler catches up, or with a collection. */
public class Runs {
    public static void main(String[] args) throws Exception {
        Peer peer = switch (args[0]) { case "CS" -> Peer.COLUMBA_COLUMNSTORE; case "RS" -> Peer.COLUMBA_ROWSTORE; default -> Peer.DUCKDB; };
        int runs = Integer.parseInt(args[2]);
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        try (PeerConnection c = new PeerConnection(peer, Path.of(args[1]), System.getProperty("db.name", "lineitem"))) {
            c.useThreads(1);
            for (String name : args[3].split(",")) {
                TpchQuery q = TpchQuery.valueOf(name);
                List<Double> cpu = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    long gcCount = 0, gcMs = 0;
                    for (GarbageCollectorMXBean gc : gcs) { gcCount -= gc.getCollectionCount(); gcMs -= gc.getCollectionTime(); }
                    long jit0 = jit.getTotalCompilationTime();
                    long w0 = System.nanoTime(), c0 = t.getCurrentThreadCpuTime();
                    c.run(q.title(), q.sql());
                    double ms = (t.getCurrentThreadCpuTime() - c0) / 1e6, wall = (System.nanoTime() - w0) / 1e6;
                    for (GarbageCollectorMXBean gc : gcs) { gcCount += gc.getCollectionCount(); gcMs += gc.getCollectionTime(); }
                    cpu.add(ms);
                    System.out.printf(Locale.ROOT, "%s %s run %d cpu %.1f wall %.1f gc %d (%d ms) jit %d ms, ended at uptime %d ms epoch %d%n", args[0], name, r, ms,
                            wall, gcCount, gcMs, jit.getTotalCompilationTime() - jit0, ManagementFactory.getRuntimeMXBean().getUptime(), System.currentTimeMillis());
                }
                List<Double> tail = new ArrayList<>(cpu.subList(Math.min(5, runs - 1), runs));
                Collections.sort(tail);
                System.out.printf(Locale.ROOT, "%s %s cpu median of runs 5.. %.1f%n", args[0], name, tail.get(tail.size() / 2));
            }
        }
    }
}
