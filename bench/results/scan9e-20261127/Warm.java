import dev.columba.bench.peers.*;
import java.lang.management.*;
import java.nio.file.*;
import java.util.*;

/** Warm.java <CS|DUCK> <databases dir> <runs> <queries>: per query (the peers suite's texts, TpchQuery),
 *  the answer printed, 2 more unmeasured runs, then <runs> runs; prints each run's thread CPU and the median (for profiles under JFR). */
public class Warm {
    public static void main(String[] args) throws Exception {
        Peer peer = switch (args[0]) { case "CS" -> Peer.COLUMBA_COLUMNSTORE; case "RS" -> Peer.COLUMBA_ROWSTORE; default -> Peer.DUCKDB; };
        int runs = Integer.parseInt(args[2]);
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        try (PeerConnection c = new PeerConnection(peer, Path.of(args[1]), System.getProperty("db.name", "tpch"))) {
            c.useThreads(1);
            for (String name : args[3].split(",")) {
                TpchQuery q = TpchQuery.valueOf(name);
                System.out.println(args[0] + " " + name + " answer " + c.run(q.title(), q.sql()).rows());
                for (int i = 0; i < 2; i++) c.run(q.title(), q.sql());
                List<Double> cpu = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    long c0 = t.getCurrentThreadCpuTime();
                    c.run(q.title(), q.sql());
                    cpu.add((t.getCurrentThreadCpuTime() - c0) / 1e6);
                }
                List<Double> sorted = new ArrayList<>(cpu);
                Collections.sort(sorted);
                System.out.printf(Locale.ROOT, "%s %s warm cpu median %.1f ms over %d runs%n", args[0], name, sorted.get(runs / 2), runs);
            }
        }
    }
}
