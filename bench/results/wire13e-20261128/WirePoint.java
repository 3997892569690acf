import dev.columba.server.PgServer;
import dev.columba.server.ServerConfig;
import java.nio.file.*;
import java.sql.*;

/**
 * WirePoint <dir> <seconds>: one pgJDBC client, prepared point selects over a 100,000-row table, against a server in
 * the same JVM. The first half of the time warms up; prints, for the second half, selects/s, the p50 latency and the
 * process CPU per select, and the voluntary context switches per select (a thread that blocks to wait for another)
 * of the server's threads ("columba-pg-*"), of the client's ("main") and of all the process's, which count the
 * hand-offs between threads whatever the machine's load.
 * (The lead's WirePoint, bench/results/lead-20261128/, with the warm-up, the CPU and the switches added.)
 */
public class WirePoint {
    /** Voluntary context switches of the server's threads, of the client's thread, and of all threads alive now (/proc). */
    static long[] switches() throws java.io.IOException {
        long[] sum = new long[3];
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            long count = Long.parseLong(line.substring(24).strip());
                            if (name.startsWith("columba-pg")) sum[0] += count;
                            if (name.equals("main")) sum[1] += count;
                            sum[2] += count;
                        }
                    }
                } catch (java.io.IOException ended) { /* the thread ended meanwhile */ }
            }
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int seconds = Integer.parseInt(args[1]);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + dir); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS pt");
            s.execute("CREATE TABLE pt (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO pt VALUES (?, ?, ?)")) {
                for (int i = 0; i < 100_000; i++) { p.setLong(1, i); p.setInt(2, i % 1000); p.setString(3, "row " + i); p.addBatch(); if (i % 1000 == 999) p.executeBatch(); }
            }
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        try (PgServer server = PgServer.start(ServerConfig.of(dir).withPort(0));
             Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "columba", "");
             PreparedStatement p = c.prepareStatement("SELECT v, s FROM pt WHERE id = ?")) {
            java.util.Random random = new java.util.Random(1);
            long[] lat = new long[50_000_000]; int n = 0;
            long start = System.nanoTime();
            long half = start + seconds * 500_000_000L, end = start + seconds * 1_000_000_000L;
            int measuredFrom = -1; long cpu0 = 0, t0 = 0; long[] switches0 = null;
            while (true) {
                long a = System.nanoTime();
                if (measuredFrom < 0 && a >= half) { measuredFrom = n; cpu0 = os.getProcessCpuTime(); t0 = a; switches0 = switches(); }
                if (a >= end) break;
                p.setLong(1, random.nextInt(100_000));
                try (ResultSet r = p.executeQuery()) { while (r.next()) { r.getInt(1); r.getString(2); } }
                lat[n++] = System.nanoTime() - a;
            }
            long[] switches1 = switches();
            double secs = (System.nanoTime() - t0) / 1e9;
            int measured = n - measuredFrom;
            double cpuPerSelect = (os.getProcessCpuTime() - cpu0) / 1000.0 / measured;
            java.util.Arrays.sort(lat, measuredFrom, n);
            System.out.printf("%d selects measured, %.0f /s, p50 %.1f us, p90 %.1f us, process CPU %.1f us/select, voluntary context switches/select: server threads %.2f, client %.2f, all %.2f%n", measured,
                    measured / secs, lat[measuredFrom + measured / 2] / 1000.0, lat[measuredFrom + measured * 9 / 10] / 1000.0, cpuPerSelect,
                    (switches1[0] - switches0[0]) / (double) measured, (switches1[1] - switches0[1]) / (double) measured,
                    (switches1[2] - switches0[2]) / (double) measured);
        }
    }
}
