import java.sql.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Batch4 <dir> <clients> <seconds> [delayed]: clients threads doing executeBatch of 1000 rows into ins. */
public class Batch4 {
    public static void main(String[] a) throws Exception {
        String url = "jdbc:columba:" + a[0];
        int clients = Integer.parseInt(a[1]);
        int seconds = Integer.parseInt(a[2]);
        boolean delayed = a.length > 3;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS ins");
            s.execute("CREATE TABLE ins (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))");
        }
        AtomicLong next = new AtomicLong(1);
        for (int round = 0; round < 3; round++) {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            List<Thread> threads = new ArrayList<>();
            long[][] lat = new long[clients][];
            int[] counts = new int[clients];
            for (int t = 0; t < clients; t++) {
                int me = t;
                Thread th = new Thread(() -> {
                    long[] l = new long[100000];
                    int n = 0;
                    try (Connection c = DriverManager.getConnection(url)) {
                        if (delayed) try (Statement s = c.createStatement()) { s.execute("SET delayed_durability = on"); }
                        PreparedStatement p = c.prepareStatement("INSERT INTO ins (id, v, s) VALUES (?, ?, ?)");
                        while (System.nanoTime() < deadline) {
                            long first = next.getAndAdd(1000);
                            for (int r = 0; r < 1000; r++) {
                                long id = first + r;
                                p.setLong(1, id); p.setInt(2, (int) (id % 1000)); p.setString(3, "row " + id);
                                p.addBatch();
                            }
                            long st = System.nanoTime();
                            p.executeBatch();
                            l[n++] = System.nanoTime() - st;
                        }
                    } catch (SQLException e) { throw new RuntimeException(e); }
                    lat[me] = Arrays.copyOf(l, n); counts[me] = n;
                });
                threads.add(th); th.start();
            }
            for (Thread th : threads) th.join();
            long[] all = Arrays.stream(lat).flatMapToLong(Arrays::stream).sorted().toArray();
            int total = Arrays.stream(counts).sum();
            System.out.printf("round %d clients %d: %d batches, %.0f rows/s, p50 %.2f ms p99 %.2f ms%n", round, clients, total,
                total * 1000.0 / seconds, all[all.length / 2] / 1e6, all[(int) (all.length * 0.99)] / 1e6);
        }
    }
}
