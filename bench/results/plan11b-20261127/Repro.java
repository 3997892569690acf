import java.sql.*;
import java.util.*;
import java.util.concurrent.*;

public class Repro {
    static String row(int count) {
        StringBuilder sql = new StringBuilder("SELECT (0");
        for (int n = 1; n < count; n++) sql.append(", ").append(n);
        return sql.append(") FROM t").toString();
    }
    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        String sqlText = row(400_000);
        Properties p = new Properties();
        p.setProperty("buffer_pool_size", "16MB");
        for (int r = 0; r < rounds; r++) {
            try (Connection c = DriverManager.getConnection("jdbc:columba:mem:x" + System.nanoTime(), p)) {
                Statement s = c.createStatement();
                s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
                s.execute("INSERT INTO t VALUES (1, 1)");
                c.setAutoCommit(false);
                s.execute("INSERT INTO t VALUES (2, 2)");
                long[] startEnd = new long[2];
                CompletableFuture<SQLException> running = CompletableFuture.supplyAsync(() -> {
                    startEnd[0] = System.nanoTime();
                    try (Statement o = c.createStatement()) {
                        o.execute(sqlText);
                        return null;
                    } catch (SQLException e) {
                        return e;
                    } finally { startEnd[1] = System.nanoTime(); }
                });
                int calls = 0; long longest = 0;
                while (!running.isDone()) {
                    long t0 = System.nanoTime();
                    c.rollback();
                    longest = Math.max(longest, System.nanoTime() - t0);
                    calls++;
                    Thread.onSpinWait();
                }
                SQLException e = running.get();
                String msg = e == null ? "null" : e.getMessage();
                System.out.printf("round %d: state=%s stmt=%d ms rollbacks=%d longest=%d ms msg=%s%n", r,
                        e == null ? "-" : e.getSQLState(), (startEnd[1] - startEnd[0]) / 1_000_000, calls, longest / 1_000_000,
                        msg.substring(0, Math.min(160, msg.length())));
            }
        }
        System.exit(0);
    }
}
