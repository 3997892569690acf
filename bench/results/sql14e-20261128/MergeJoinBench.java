// Merge join against hash join on two rowstore tables clustered on the join key: TPC-H orders and
// lineitem (the SF 1 tables' orders with o_orderkey below a limit, and their lineitems: 600000 is
// SF 0.1, 120000 SF 0.02), copied
// from the lead's SF 1 columnstore database into rowstore tables with clustered primary keys.
// One JVM, one connection, MAXDOP 1; each query text is run with OPTION (MERGE JOIN) and with
// OPTION (HASH JOIN) alternately, after warm-ups, and the calling thread's CPU time is measured
// (the serial plan runs on it). Prints every run's milliseconds, the medians and their ratio.
//
//   java -cp "cli/target/columba-cli-*.jar:cli/target/lib/*" MergeJoinBench.java <database dir> [rounds] [key limit]
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class MergeJoinBench {
    private static final String[][] QUERIES = {
        {"inner", "SELECT COUNT(*), SUM(l_extendedprice), SUM(o_totalprice) FROM r_orders JOIN r_lineitem ON l_orderkey = o_orderkey"},
        {"left", "SELECT COUNT(*), SUM(l_quantity) FROM r_orders LEFT JOIN r_lineitem ON l_orderkey = o_orderkey AND l_quantity > 45"},
        {"semi", "SELECT COUNT(*) FROM r_orders WHERE EXISTS (SELECT 1 FROM r_lineitem WHERE l_orderkey = o_orderkey AND l_quantity > 49)"},
    };

    public static void main(String[] args) throws Exception {
        String directory = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        long keyLimit = args.length > 2 ? Long.parseLong(args[2]) : 600_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory);
             Statement statement = connection.createStatement()) {
            if (!exists(statement, "r_lineitem")) {
                long start = System.nanoTime();
                if (exists(statement, "r_orders")) {
                    statement.execute("DROP TABLE r_orders"); // left by a load that failed
                }
                statement.execute("CREATE TABLE r_orders (o_orderkey BIGINT NOT NULL PRIMARY KEY, o_custkey BIGINT NOT NULL,"
                        + " o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL)");
                statement.execute("INSERT INTO r_orders SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate FROM orders"
                        + " WHERE o_orderkey < " + keyLimit);
                statement.execute("CREATE TABLE r_lineitem (l_orderkey BIGINT NOT NULL, l_linenumber INT NOT NULL,"
                        + " l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,"
                        + " PRIMARY KEY (l_orderkey, l_linenumber))");
                statement.execute("INSERT INTO r_lineitem SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice FROM lineitem"
                        + " WHERE l_orderkey < " + keyLimit);
                System.out.printf("loaded in %.1f s%n", (System.nanoTime() - start) / 1e9);
            }
            for (String[] query : QUERIES) {
                String merge = query[1] + " OPTION (MERGE JOIN, MAXDOP 1)";
                String hash = query[1] + " OPTION (HASH JOIN, MAXDOP 1)";
                System.out.println("== " + query[0] + ": " + query[1]);
                System.out.println(plan(statement, merge));
                System.out.println(plan(statement, hash));
                String mergeAnswer = run(statement, merge);
                String hashAnswer = run(statement, hash);
                if (!mergeAnswer.equals(hashAnswer)) {
                    throw new AssertionError("answers differ: merge " + mergeAnswer + ", hash " + hashAnswer);
                }
                System.out.println("answer " + mergeAnswer);
                for (int warm = 0; warm < 3; warm++) {
                    run(statement, merge);
                    run(statement, hash);
                }
                List<Double> mergeMillis = new ArrayList<>();
                List<Double> hashMillis = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    boolean mergeFirst = round % 2 == 0;
                    for (int turn = 0; turn < 2; turn++) {
                        boolean isMerge = (turn == 0) == mergeFirst;
                        long cpu = threads.getCurrentThreadCpuTime();
                        run(statement, isMerge ? merge : hash);
                        double millis = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
                        (isMerge ? mergeMillis : hashMillis).add(millis);
                    }
                }
                double mergeMedian = median(mergeMillis);
                double hashMedian = median(hashMillis);
                System.out.println("merge ms " + mergeMillis);
                System.out.println("hash  ms " + hashMillis);
                System.out.printf("%s: merge median %.1f ms, hash median %.1f ms, merge/hash %.2f%n", query[0], mergeMedian,
                        hashMedian, mergeMedian / hashMedian);
            }
        }
    }

    private static boolean exists(Statement statement, String table) {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            return rows.next();
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private static String plan(Statement statement, String sql) throws Exception {
        StringBuilder text = new StringBuilder();
        try (ResultSet rows = statement.executeQuery("EXPLAIN " + sql)) {
            while (rows.next()) {
                text.append(rows.getString(1)).append('\n');
            }
        }
        return text.toString();
    }

    private static String run(Statement statement, String sql) throws Exception {
        StringBuilder answer = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(sql)) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int column = 1; column <= columns; column++) {
                    answer.append(rows.getString(column)).append(' ');
                }
            }
        }
        return answer.toString().trim();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}
