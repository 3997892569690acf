import dev.columba.bench.tpch.TpchText;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Open <db> <query>: in a fresh JVM, the thread CPU (ms) of (1) loading the driver class, (2)
 * DriverManager.getConnection, (3) the first statement SET max_dop = 1, (4) EXPLAIN of the query;
 * and the classes loaded after each step. One line: load= connect= set= explain= classes=...
 */
public class Open {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var classes = ManagementFactory.getClassLoadingMXBean();
        long t0 = threads.getCurrentThreadCpuTime();
        Class.forName("dev.columba.jdbc.ColumbaDriver");
        long t1 = threads.getCurrentThreadCpuTime();
        int c1 = classes.getLoadedClassCount();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + args[0])) {
            long t2 = threads.getCurrentThreadCpuTime();
            int c2 = classes.getLoadedClassCount();
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET max_dop = 1");
                long t3 = threads.getCurrentThreadCpuTime();
                int c3 = classes.getLoadedClassCount();
                StringBuilder plan = new StringBuilder();
                try (ResultSet rows = statement.executeQuery("EXPLAIN " + TpchText.valueOf(args[1]).sql())) {
                    while (rows.next()) {
                        plan.append(rows.getString(1)).append('\n');
                    }
                }
                long t4 = threads.getCurrentThreadCpuTime();
                int c4 = classes.getLoadedClassCount();
                System.out.printf("load_ms=%.1f connect_ms=%.1f set_ms=%.1f explain_ms=%.1f classes=%d/%d/%d/%d planhash=%08x%n",
                        (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t4 - t3) / 1e6, c1, c2, c3, c4,
                        plan.toString().hashCode());
            }
        }
    }
}
