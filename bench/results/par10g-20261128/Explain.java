import java.nio.file.*;
import java.sql.*;
public class Explain {
    public static void main(String[] a) throws Exception {
        Connection c = DriverManager.getConnection("jdbc:columba:" + a[0]);
        try (Statement st = c.createStatement()) {
            st.execute("SET max_dop = " + a[1]);
            for (int i = 2; i < a.length; i++) {
                String sql = Files.readString(Path.of("/tmp/par10g/q", a[i] + ".sql")).strip();
                if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
                System.out.println("== " + a[i]);
                try (ResultSet rs = st.executeQuery("EXPLAIN " + sql)) { while (rs.next()) System.out.println(rs.getString(1)); }
            }
        }
        c.close();
    }
}
