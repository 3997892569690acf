import dev.columba.server.PgServer;
import dev.columba.server.ServerConfig;
import java.nio.file.*;
import java.sql.*;

/** WirePoint <dir> <seconds>: one pgJDBC client, prepared point selects over a 100,000-row table; prints selects/s and p50. */
public class WirePoint {
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
        try (PgServer server = PgServer.start(ServerConfig.of(dir).withPort(0));
             Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "columba", "");
             PreparedStatement p = c.prepareStatement("SELECT v, s FROM pt WHERE id = ?")) {
            java.util.Random random = new java.util.Random(1);
            long[] lat = new long[50_000_000]; int n = 0;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long t0 = System.nanoTime();
            while (System.nanoTime() < end) {
                long a = System.nanoTime();
                p.setLong(1, random.nextInt(100_000));
                try (ResultSet r = p.executeQuery()) { while (r.next()) { r.getInt(1); r.getString(2); } }
                lat[n++] = System.nanoTime() - a;
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            java.util.Arrays.sort(lat, n / 5, n); // p50 over the last 80%
            System.out.printf("%d selects, %.0f /s, p50 %.1f us (last 80%%)%n", n, n / secs, lat[n / 5 + (n - n / 5) / 2] / 1000.0);
        }
    }
}
