import java.nio.file.*;
import java.sql.*;
/** Runs each query file N times at max_dop = -Ddop, printing name, start and end epoch ms of the measured runs (after one warm-up). */
public class Prof2 {
    public static void main(String[] args) throws Exception {
        try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
            s.execute("SET max_dop = " + System.getProperty("dop", "2"));
            int runs = Integer.parseInt(args[1]);
            for (int a = 2; a < args.length; a++) {
                String sql = Files.readString(Path.of(args[a])).trim();
                if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
                try (ResultSet rs = s.executeQuery(sql)) { while (rs.next()) { } }
                long start = System.currentTimeMillis();
                for (int run = 0; run < runs; run++) {
                    try (ResultSet rs = s.executeQuery(sql)) { while (rs.next()) { } }
                }
                System.out.println(Path.of(args[a]).getFileName() + "\t" + start + "\t" + System.currentTimeMillis());
            }
        }
    }
}
