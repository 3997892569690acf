import java.sql.*;

public class Hello {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:columba:" + args[0]);
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20))");
            s.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')");
            try (ResultSet r = s.executeQuery("SELECT name FROM t WHERE id = 2")) {
                r.next();
                System.out.println("answer: " + r.getString(1));
            }
        }
    }
}
