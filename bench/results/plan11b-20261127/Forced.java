import java.sql.*;
import java.util.*;
import java.util.concurrent.*;
import java.lang.reflect.Field;

/** The forced interleaving of the new test, against any build: prints the statement's outcome. */
public class Forced {
    public static void main(String[] args) throws Exception {
        String sqlText = Repro.row(400_000);
        Properties p = new Properties();
        p.setProperty("buffer_pool_size", "16MB");
        try (Connection c = DriverManager.getConnection("jdbc:columba:mem:x" + System.nanoTime(), p)) {
            Statement s = c.createStatement();
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 1)");
            c.setAutoCommit(false);
            s.execute("INSERT INTO t VALUES (2, 2)");
            Field f = c.getClass().getDeclaredField("lock");
            f.setAccessible(true);
            Object lock = f.get(c);
            Thread r = new Thread(() -> { try { c.rollback(); } catch (SQLException e) { e.printStackTrace(); } });
            long t0 = System.nanoTime();
            synchronized (lock) {
                r.start();
                while (r.getState() != Thread.State.BLOCKED) Thread.onSpinWait();
                try { s.execute(sqlText); System.out.println("ran to its end"); }
                catch (SQLException e) { System.out.println("state=" + e.getSQLState() + " after " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + e.getMessage().substring(0, 120)); }
            }
            r.join();
        }
        System.exit(0);
    }
}
