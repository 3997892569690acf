import java.nio.file.*; import java.sql.*;
public class Explain { public static void main(String[] a) throws Exception {
  Connection c = DriverManager.getConnection("jdbc:columba:" + a[0]);
  try (Statement s = c.createStatement()) { s.execute("SET max_dop = " + System.getProperty("dop", "1")); }
  if (System.getProperty("thr") != null) try (Statement s = c.createStatement()) { s.execute("SET parallelism_threshold_rows = " + System.getProperty("thr")); }
  for (int i = 1; i < a.length; i++) {
  String sql = Files.readString(Path.of("/tmp/par10b/q/" + a[i] + ".sql")).strip(); if (sql.endsWith(";")) sql = sql.substring(0, sql.length()-1);
  System.out.println("=== " + a[i]);
  try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN " + sql)) { while (rs.next()) System.out.println(rs.getString(1)); }
  }
}}
