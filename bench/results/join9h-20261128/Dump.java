import java.nio.file.*;
import java.sql.*;

/** Dump.java <db> <query file>: the query's rows, one a line, columns separated by |. */
public class Dump {
    public static void main(String[] args) throws Exception {
        String sql = Files.readString(Path.of(args[1])).strip();
        if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + args[0]); Statement s = c.createStatement()) {
            s.execute("SET max_dop = 1");
            try (ResultSet rs = s.executeQuery(sql)) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int k = 1; k <= n; k++) b.append(rs.getString(k)).append(k < n ? "|" : "");
                    System.out.println(b);
                }
            }
        }
    }
}
