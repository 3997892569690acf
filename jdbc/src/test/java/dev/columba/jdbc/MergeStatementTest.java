package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MERGE through the driver: an upsert prepared once and run per key, its update count, a batch of
 * parameter sets (all or nothing), and SQL Server's 21000 as the SQLException's state.
 */
class MergeStatementTest {
    private static final String UPSERT = """
            MERGE INTO t USING (SELECT CAST(? AS INT) AS id, CAST(? AS VARCHAR(20)) AS name) AS s ON t.id = s.id
            WHEN MATCHED THEN UPDATE SET name = s.name, hits = t.hits + 1
            WHEN NOT MATCHED THEN INSERT (id, name, hits) VALUES (s.id, s.name, 1);""";

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory, DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void create(String storage) throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR(10), hits INT"
                + (storage.equals("columnstore") ? ") WITH (storage = columnstore)" : ", PRIMARY KEY (id))"));
    }

    private List<String> rows() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT id, name, hits FROM t ORDER BY id")) {
            while (result.next()) {
                rows.add(result.getInt(1) + " " + result.getString(2) + " " + result.getInt(3));
            }
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void anUpsertPreparedOnceRunsPerKeyAndInABatch(String storage) throws SQLException {
        create(storage);
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            upsert.setInt(1, 1);
            upsert.setString(2, "a");
            assertEquals(1, upsert.executeUpdate());
            upsert.setString(2, "b");
            assertEquals(1, upsert.executeUpdate());
            for (int id : new int[] {1, 2, 3, 2}) {
                upsert.setInt(1, id);
                upsert.setString(2, "x" + id);
                upsert.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1, 1}, upsert.executeBatch());
        }
        assertEquals(List.of("1 x1 3", "2 x2 2", "3 x3 1"), rows());
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aRowMatchedTwiceIsState21000AndABatchIsAllOrNothing(String storage) throws SQLException {
        create(storage);
        statement.execute("INSERT INTO t VALUES (1, 'a', 1)");
        SQLException twice = assertThrows(SQLException.class, () -> statement.executeUpdate(
                "MERGE t USING (VALUES (1), (1)) AS s (id) ON t.id = s.id WHEN MATCHED THEN UPDATE SET hits = 0"));
        assertEquals("21000", twice.getSQLState());
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            upsert.setInt(1, 5);
            upsert.setString(2, "fits");
            upsert.addBatch();
            upsert.setInt(1, 6);
            upsert.setString(2, "much too long");
            upsert.addBatch();
            BatchUpdateException failed = assertThrows(BatchUpdateException.class, upsert::executeBatch);
            assertEquals("22001", failed.getSQLState());
        }
        assertEquals(List.of("1 a 1"), rows());
    }
}
