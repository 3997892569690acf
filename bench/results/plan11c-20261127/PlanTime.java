import dev.columba.bench.tpch.TpchText;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * PlanTime <db> <warm repetitions> <query>...: in this (fresh) JVM, the thread CPU and wall of the
 * first EXPLAIN of each query in turn, then each query's EXPLAIN repeated; prints one line per query:
 * first-statement CPU ms, then median CPU of the last half of the repetitions.
 */
public class PlanTime {
    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long startCpu = threads.getCurrentThreadCpuTime();
        String db = args[0];
        int warm = Integer.parseInt(args[1]);
        List<String> queries = Arrays.asList(args).subList(2, args.length);
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + db);
             Statement statement = connection.createStatement()) {
            statement.execute("SET max_dop = 1");
            long connectCpu = threads.getCurrentThreadCpuTime() - startCpu;
            StringBuilder out = new StringBuilder("connect_cpu_ms=" + connectCpu / 1_000_000 + "\n");
            List<String> texts = new ArrayList<>();
            for (String q : queries) {
                texts.add("EXPLAIN " + TpchText.valueOf(q).sql());
            }
            String plan0 = null;
            for (int i = 0; i < queries.size(); i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                String plan = explain(statement, texts.get(i));
                long c1 = threads.getCurrentThreadCpuTime();
                long w1 = System.nanoTime();
                out.append(String.format("first %s cpu_ms=%.1f wall_ms=%.1f planhash=%08x%n", queries.get(i),
                        (c1 - c0) / 1e6, (w1 - w0) / 1e6, plan.hashCode()));
                if (System.getProperty("printplan") != null) {
                    out.append(plan).append('\n');
                }
            }
            for (int i = 0; i < queries.size() && warm > 0; i++) {
                double[] cpu = new double[warm];
                for (int r = 0; r < warm; r++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    explain(statement, texts.get(i));
                    cpu[r] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                }
                double[] last = Arrays.copyOfRange(cpu, warm / 2, warm);
                Arrays.sort(last);
                out.append(String.format("warm %s median_cpu_ms=%.2f second_cpu_ms=%.1f%n", queries.get(i),
                        last[last.length / 2], cpu[0]));
            }
            System.out.print(out);
        }
    }

    private static String explain(Statement statement, String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                plan.append(rows.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }
}
