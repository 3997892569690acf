package dev.columba.trino;

import io.airlift.log.Level;
import io.airlift.log.Logging;
import io.trino.Session;
import io.trino.testing.DistributedQueryRunner;
import io.trino.testing.MaterializedResult;
import io.trino.testing.TestingSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Issue 16's benchmark: TPC-H Q1 and Q6 through Trino with 1, 2 and 4 workers in one JVM against
 * Columba embedded (its driver, MAXDOP 1 and the default), over the same database directory. The
 * directory can be open in one place at a time, so Columba runs before and after the clusters and both
 * are reported; every cluster is warmed by one run of each query before its timed runs.
 *
 * <p>Run: {@code java <columba JVM options> --add-modules=jdk.incubator.vector -cp <the launcher's class
 * path> dev.columba.trino.TrinoScalingBench <dir> <schema> <runs>}. Prints a Markdown table of medians.
 */
public final class TrinoScalingBench {
    private static final int[] WORKERS = {1, 2, 4};

    private TrinoScalingBench() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        String schema = args[1];
        int runs = Integer.parseInt(args[2]);
        // Airlift's logging takes System.out over (into its log, quieted here): keep the real one for the table.
        PrintStream out = System.out;
        Logging.initialize().setRootLevel(Level.WARN);
        Map<String, String> queries = new LinkedHashMap<>();
        queries.put("Q1", query(1));
        queries.put("Q6", query(6));
        Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
        medians.put("Columba MAXDOP 1 (before)", columba(directory, queries, runs, "OPTION (MAXDOP 1)"));
        medians.put("Columba MAXDOP 2 (before)", columba(directory, queries, runs, "OPTION (MAXDOP 2)"));
        for (int workers : WORKERS) {
            medians.put("Trino, " + workers + " worker" + (workers == 1 ? "" : "s"), trino(directory, schema, queries, runs, workers));
        }
        medians.put("Columba MAXDOP 1 (after)", columba(directory, queries, runs, "OPTION (MAXDOP 1)"));
        medians.put("Columba MAXDOP 2 (after)", columba(directory, queries, runs, "OPTION (MAXDOP 2)"));
        out.println("| engine | " + String.join(" ms | ", queries.keySet()) + " ms |");
        out.println("|---|" + "---|".repeat(queries.size()));
        for (Map.Entry<String, Map<String, Double>> row : medians.entrySet()) {
            StringBuilder line = new StringBuilder("| " + row.getKey() + " |");
            for (String name : queries.keySet()) {
                line.append(String.format(" %.0f |", row.getValue().get(name)));
            }
            out.println(line);
        }
    }

    private static Map<String, Double> columba(Path directory, Map<String, String> queries, int runs, String hint)
            throws SQLException {
        Map<String, Double> medians = new LinkedHashMap<>();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + directory);
             Statement statement = connection.createStatement()) {
            for (Map.Entry<String, String> query : queries.entrySet()) {
                String sql = query.getValue().strip().replaceAll(";$", "") + " " + hint;
                drain(statement, sql);
                double[] times = new double[runs];
                for (int run = 0; run < runs; run++) {
                    long start = System.nanoTime();
                    drain(statement, sql);
                    times[run] = (System.nanoTime() - start) / 1e6;
                }
                medians.put(query.getKey(), median(times));
            }
        }
        return medians;
    }

    private static Map<String, Double> trino(Path directory, String schema, Map<String, String> queries, int runs, int workers)
            throws Exception {
        Session session = TestingSession.testSessionBuilder().setCatalog("columba").setSchema(schema).build();
        Map<String, Double> medians = new LinkedHashMap<>();
        try (DistributedQueryRunner trino = DistributedQueryRunner.builder(session).setWorkerCount(workers)
                .addCoordinatorProperty("node-scheduler.include-coordinator", "false").build()) {
            trino.installPlugin(new ColumbaPlugin());
            trino.createCatalog("columba", "columba", Map.of(ColumbaConfig.DATABASE_DIRECTORY, directory.toString(),
                    ColumbaConfig.SCHEMA_NAME, schema));
            for (Map.Entry<String, String> query : queries.entrySet()) {
                String sql = query.getValue().strip().replaceAll(";$", "");
                MaterializedResult warm = trino.execute(sql);
                if (warm.getRowCount() == 0) {
                    throw new IllegalStateException(query.getKey() + " answered nothing through Trino");
                }
                double[] times = new double[runs];
                for (int run = 0; run < runs; run++) {
                    long start = System.nanoTime();
                    trino.execute(sql);
                    times[run] = (System.nanoTime() - start) / 1e6;
                }
                medians.put(query.getKey(), median(times));
            }
        }
        return medians;
    }

    private static void drain(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                result.getObject(1);
            }
        }
    }

    private static double median(double[] times) {
        double[] sorted = times.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String query(int number) throws IOException {
        String resource = String.format("/tpch/q%02d.sql", number);
        try (InputStream in = TrinoScalingBench.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
