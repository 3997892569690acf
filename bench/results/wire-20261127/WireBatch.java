import dev.columba.server.PgServer;
import dev.columba.server.ServerConfig;
import java.nio.file.*;
import java.sql.*;

public class WireBatch {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int seconds = Integer.parseInt(args[1]);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + dir); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS ins");
            s.execute("CREATE TABLE ins (id BIGINT PRIMARY KEY, v INT, s VARCHAR(20))");
        }
        try (PgServer server = PgServer.start(ServerConfig.of(dir).withPort(0));
             Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/columba", "columba", "");
             PreparedStatement p = c.prepareStatement("INSERT INTO ins (id, v, s) VALUES (?, ?, ?)")) {
            long key = 1;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            long batches = 0;
            long t0 = System.nanoTime();
            while (System.nanoTime() < end) {
                for (int i = 0; i < 1000; i++) {
                    p.setLong(1, key); p.setInt(2, (int) (key % 1000)); p.setString(3, "row " + key); key++;
                    p.addBatch();
                }
                p.executeBatch();
                batches++;
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            System.out.printf("%d batches, %.0f rows/s%n", batches, batches * 1000 / secs);
        }
    }
}
