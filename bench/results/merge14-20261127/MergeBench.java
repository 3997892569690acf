import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * An upsert by MERGE: a table of TARGET rows (primary key id), a source of SOURCE rows of which half
 * match (update two columns) and half do not (insert). Columba (rowstore with a primary key, or
 * columnstore) against H2 (MVStore, primary key) in the same JVM, through JDBC, alternating which
 * runs first; the target is rebuilt from a base copy before each run, outside the timing. Prints
 * wall and thread-CPU milliseconds per run and the per-round ratio Columba / H2.
 */
public class MergeBench {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        String storage = args[0];
        int rounds = Integer.parseInt(args[1]);
        int targetRows = Integer.parseInt(args[2]);
        int sourceRows = targetRows / 2;
        Path dir = Files.createTempDirectory(Path.of("/tmp/merge14"), "bench-");
        try (Connection columba = DriverManager.getConnection("jdbc:columba:" + dir);
             Connection h2 = DriverManager.getConnection("jdbc:h2:mem:bench")) {
            String options = storage.equals("columnstore") ? " WITH (storage = columnstore)" : "";
            String key = storage.equals("columnstore") ? "" : ", PRIMARY KEY (id)";
            setUp(columba, targetRows, sourceRows, key, options);
            setUp(h2, targetRows, sourceRows, ", PRIMARY KEY (id)", "");
            String merge = """
                    MERGE INTO t USING s ON t.id = s.id
                    WHEN MATCHED THEN UPDATE SET name = s.name, n = t.n + s.n
                    WHEN NOT MATCHED THEN INSERT (id, name, n) VALUES (s.id, s.name, s.n)""";
            List<Double> ratios = new ArrayList<>();
            List<Double> cpuRatios = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                long[] c = null;
                long[] h = null;
                for (int turn = 0; turn < 2; turn++) {
                    boolean columbaTurn = (round + turn) % 2 == 0;
                    Connection connection = columbaTurn ? columba : h2;
                    reset(connection, columbaTurn ? key : ", PRIMARY KEY (id)", columbaTurn ? options : "");
                    long[] measured = run(connection, merge, sourceRows);
                    if (columbaTurn) {
                        c = measured;
                    } else {
                        h = measured;
                    }
                }
                check(columba, h2);
                double ratio = (double) c[0] / h[0];
                double cpuRatio = (double) c[1] / h[1];
                ratios.add(ratio);
                cpuRatios.add(cpuRatio);
                System.out.printf("round %d: columba %d ms wall %d ms cpu, h2 %d ms wall %d ms cpu, ratio wall %.2f cpu %.2f%n",
                        round, c[0], c[1], h[0], h[1], ratio, cpuRatio);
            }
            ratios.sort(null);
            cpuRatios.sort(null);
            System.out.printf("%s %d target rows, %d source rows: median ratio columba/h2 wall %.2f, thread cpu %.2f%n",
                    storage, targetRows, sourceRows, ratios.get(ratios.size() / 2), cpuRatios.get(cpuRatios.size() / 2));
        }
    }

    static void setUp(Connection connection, int targetRows, int sourceRows, String key, String options) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE base (id INT NOT NULL, name VARCHAR(20), n INT" + key + ")");
            statement.execute("CREATE TABLE s (id INT NOT NULL, name VARCHAR(20), n INT, PRIMARY KEY (id))");
            statement.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR(20), n INT" + key + ")" + options);
        }
        load(connection, "base", 0, targetRows);
        load(connection, "s", targetRows - sourceRows / 2, sourceRows);
    }

    static void load(Connection connection, String table, int first, int count) throws Exception {
        connection.setAutoCommit(false);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?)")) {
            for (int id = first; id < first + count; id++) {
                insert.setInt(1, id);
                insert.setString(2, "name " + (id % 1000));
                insert.setInt(3, id % 97);
                insert.addBatch();
                if ((id - first) % 10_000 == 9_999) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
        connection.commit();
        connection.setAutoCommit(true);
    }

    static void reset(Connection connection, String key, String options) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE t");
            statement.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR(20), n INT" + key + ")" + options);
            statement.execute("INSERT INTO t SELECT id, name, n FROM base");
        }
    }

    static long[] run(Connection connection, String merge, int expected) throws Exception {
        long cpu = THREADS.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        int count;
        try (Statement statement = connection.createStatement()) {
            count = statement.executeUpdate(merge);
        }
        long wall = (System.nanoTime() - start) / 1_000_000;
        cpu = (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000;
        if (count != expected) {
            throw new IllegalStateException("MERGE changed " + count + " rows, expected " + expected);
        }
        return new long[] {wall, cpu};
    }

    static void check(Connection columba, Connection h2) throws Exception {
        String sql = "SELECT COUNT(*), SUM(CAST(n AS BIGINT)), SUM(CAST(id AS BIGINT)) FROM t";
        String a = summary(columba, sql);
        String b = summary(h2, sql);
        if (!a.equals(b)) {
            throw new IllegalStateException("tables differ: columba " + a + ", h2 " + b);
        }
    }

    static String summary(Connection connection, String sql) throws Exception {
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getLong(1) + "/" + result.getLong(2) + "/" + result.getLong(3);
        }
    }
}
