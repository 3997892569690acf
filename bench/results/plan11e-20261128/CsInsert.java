import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Arrays;

/**
 * CsInsert <rounds> <per round>: a fresh database with a columnstore table cs and a rowstore table t
 * (1,000 rows); per round, <per round> prepared one-row INSERTs into cs, each followed by a prepared
 * point select on t, autocommit, delayed durability (the sync left out); prints the thread CPU per
 * insert+select pair (µs) of each round.
 */
public class CsInsert {
    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int perRound = Integer.parseInt(args[1]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Path dir = Files.createTempDirectory("csinsert");
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + dir);
             Statement statement = connection.createStatement()) {
            statement.execute("SET delayed_durability = on");
            statement.execute("CREATE TABLE cs (id BIGINT, v INT) WITH (storage = columnstore)");
            statement.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT)");
            statement.execute("INSERT INTO t SELECT generate_series, 1 FROM generate_series(1, 1000)");
            double[] perPair = new double[rounds];
            long id = 0;
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO cs VALUES (?, ?)");
                 PreparedStatement point = connection.prepareStatement("SELECT v FROM t WHERE id = ?")) {
                for (int round = 0; round < rounds; round++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    for (int i = 0; i < perRound; i++) {
                        id++;
                        insert.setLong(1, id);
                        insert.setInt(2, (int) id);
                        insert.executeUpdate();
                        point.setLong(1, 1 + id % 1000);
                        try (var rows = point.executeQuery()) {
                            rows.next();
                        }
                    }
                    perPair[round] = (threads.getCurrentThreadCpuTime() - c0) / 1e3 / perRound;
                }
            }
            System.out.println("cpu_us_per_pair " + Arrays.toString(Arrays.stream(perPair).map(v -> Math.round(v)).toArray()));
        }
    }
}
