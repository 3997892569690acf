import java.sql.*;
import java.util.*;

/** A few executeBatch calls of 1,000 rows into ins, for strace. Args: columbaDir batches */
public class Batches {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + args[0]);
             Statement s = c.createStatement()) {
            long first;
            try (ResultSet rs = s.executeQuery("SELECT MAX(id) FROM ins")) { rs.next(); first = Math.max(rs.getLong(1), 50_000_000L) + 1; }
            PreparedStatement ps = c.prepareStatement("INSERT INTO ins (id, v, s) VALUES (?, ?, ?)");
            for (int b = 0; b < Integer.parseInt(args[1]); b++) {
                for (int row = 0; row < 1000; row++) {
                    long id = first++;
                    ps.setLong(1, id); ps.setInt(2, (int) (id % 1000)); ps.setString(3, "row " + id);
                    ps.addBatch();
                }
                System.out.println("BATCH " + b + " " + ps.executeBatch().length);
            }
        }
    }
}
