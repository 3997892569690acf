package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./columba trino}: the launcher's cluster answers through the connector, and refuses what it cannot read. */
class LocalTrinoTest {

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new LocalTrino());
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        int exitCode = command.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    @Test
    void runsStatementsOnAClusterOverTheDatabaseUntilOneFails(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("Sales");
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + database);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE orders (id BIGINT, region VARCHAR(10), amount DECIMAL(10,2))"
                    + " WITH (storage = columnstore, rowgroup_max_rows = 1024, bulk_min_rows = 1024)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO orders VALUES (?, ?, ?)")) {
                for (long id = 1; id <= 3000; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, id % 2 == 0 ? "east" : "west");
                    insert.setBigDecimal(3, BigDecimal.valueOf(id * 25, 2));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }

        Run run = run(database.toString(), "--workers", "1",
                "-c", "SELECT region, count(*), sum(amount) FROM orders GROUP BY region ORDER BY region",
                "-c", "SHOW TABLES",
                "-c", "SELECT nope FROM orders",
                "-c", "SELECT 'not reached'");

        // A failing statement ends the run with its text and Trino's message; the ones before it printed their rows.
        assertEquals(1, run.exitCode(), run.err());
        assertTrue(run.err().contains("SELECT nope FROM orders: ") && run.err().contains("'nope' cannot be resolved"), run.err());
        // The default schema is the directory's name in lower case, so the table is found unqualified.
        assertEquals(String.join("\n",
                "region\t_col1\t_col2",
                "east\t1500\t562875.00",
                "west\t1500\t562500.00",
                "Table",
                "orders", ""), run.out().replace("\r", ""));
    }

    @Test
    void versionNamesColumbaAndTheTrinoItRunsWithoutStartingACluster() {
        Run run = run("--version");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().matches("columba \\S+ with Trino 483 \\(Java \\S+\\)\\R"), run.out());
    }

    @Test
    void refusesADirectoryWithoutADatabaseBeforeStartingACluster(@TempDir Path directory) throws Exception {
        Path empty = Files.createDirectory(directory.resolve("empty"));

        Run missing = run(directory.resolve("nowhere").toString(), "-c", "SELECT 1");
        Run notADatabase = run(empty.toString(), "-c", "SELECT 1");

        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("is not a Columba database directory"), missing.err());
        assertEquals(2, notADatabase.exitCode());
        assertTrue(notADatabase.err().contains(empty + " is not a Columba database directory"), notADatabase.err());
        assertEquals("", notADatabase.out());
    }
}
