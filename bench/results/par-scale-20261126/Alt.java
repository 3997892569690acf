import java.nio.file.*;
import java.sql.*;
import java.util.*;

/**
 * For each query file: one unmeasured run at each degree, then N rounds alternating MAXDOP 1 and 2
 * (order swapped every round) on one connection; prints min and median elapsed ms per degree, the ratio
 * of medians, and the row counts (must agree).
 */
public class Alt {
    public static void main(String[] args) throws Exception {
        String url = args[0];
        int runs = Integer.parseInt(args[1]);
        try (Connection connection = DriverManager.getConnection(url)) {
            for (int a = 2; a < args.length; a++) {
                String sql = Files.readString(Path.of(args[a])).trim();
                if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
                double[][] wall = new double[3][runs];
                long[] rows = new long[3];
                long[] hash = new long[3];
                for (int run = -1; run < runs; run++) {
                    for (int k = 0; k < 2; k++) {
                        int dop = ((run & 1) == 0) == (k == 0) ? 1 : 2;
                        try (Statement s = connection.createStatement()) { s.execute("SET max_dop = " + dop); }
                        long t0 = System.nanoTime();
                        long r = 0; long h = 0;
                        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                            int columns = rs.getMetaData().getColumnCount();
                            while (rs.next()) { long rh = 0; for (int c = 1; c <= columns; c++) rh = rh * 31 + Objects.hashCode(String.valueOf(rs.getObject(c))); h += rh; r++; }
                        }
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (run >= 0) wall[dop][run] = ms;
                        rows[dop] = r; hash[dop] = h;
                    }
                }
                Arrays.sort(wall[1]); Arrays.sort(wall[2]);
                double m1 = wall[1][runs / 2], m2 = wall[2][runs / 2];
                System.out.printf(Locale.ROOT, "%s\tmin1 %.0f\tmed1 %.0f\tmin2 %.0f\tmed2 %.0f\tratio %.2f\trows %d/%d %s%n",
                        Path.of(args[a]).getFileName(), wall[1][0], m1, wall[2][0], m2, m2 / m1, rows[1], rows[2], hash[1] == hash[2] ? "same" : "DIFF");
            }
        }
    }
}
