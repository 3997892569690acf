import java.nio.file.*;
import java.sql.*;
public class Explain {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
            s.execute("SET max_dop = " + args[2]);
            for (String q : args[1].split(",")) {
                String sql = Files.readString(Path.of("/tmp/hash-fill/h/q/" + q + ".sql")).split(";")[0];
                System.out.println("== " + q);
                try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) { while (rs.next()) System.out.println(rs.getString(1)); }
            }
        }
    }
}
