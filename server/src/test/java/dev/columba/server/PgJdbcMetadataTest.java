package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgJDBC's {@code DatabaseMetaData} against the server: its {@code pg_catalog} queries are answered from Columba's
 * catalog, so tools see the tables, columns with their JDBC types, and primary keys.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PgJdbcMetadataTest {
    @TempDir
    static Path directory;
    private static PgServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = PgServer.start(ServerConfig.of(directory.resolve("db")).withPort(0));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE customer (id INT NOT NULL, region CHAR(2) NOT NULL, name VARCHAR(40) DEFAULT 'anon',"
                    + " balance DECIMAL(12, 2), since DATE, seen TIMESTAMP, vip BOOLEAN, score DOUBLE, visits BIGINT,"
                    + " PRIMARY KEY (region, id))");
            statement.execute("CREATE INDEX customer_name ON customer (name)");
            statement.execute("CREATE TABLE item (sku INT IDENTITY(1, 1) PRIMARY KEY, label VARCHAR(10))");
            statement.execute("CREATE TABLE notes (text VARCHAR(200))");
            statement.execute("CREATE VIEW rich AS SELECT id, balance FROM customer WHERE balance > 1000");
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/shop", "tester", "");
    }

    private static List<String> strings(ResultSet rows, String... columns) throws SQLException {
        List<String> values = new ArrayList<>();
        try (rows) {
            while (rows.next()) {
                List<String> row = new ArrayList<>();
                for (String column : columns) {
                    row.add(rows.getString(column));
                }
                values.add(String.join("|", row));
            }
        }
        return values;
    }

    @Test
    void getTablesListsTablesAndViewsOfPublic() throws SQLException {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertEquals(List.of("shop|public|customer|TABLE", "shop|public|item|TABLE", "shop|public|notes|TABLE",
                            "shop|public|rich|VIEW"),
                    strings(metadata.getTables(null, "public", "%", new String[] {"TABLE", "VIEW"}),
                            "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
            assertEquals(List.of("customer|TABLE"),
                    strings(metadata.getTables(null, null, "cust%", new String[] {"TABLE"}), "TABLE_NAME", "TABLE_TYPE"));
            assertEquals(List.of("rich"), strings(metadata.getTables(null, "public", "%", new String[] {"VIEW"}), "TABLE_NAME"));
            assertEquals(List.of(), strings(metadata.getTables(null, null, "no_such%", null), "TABLE_NAME"));
            List<String> system = strings(metadata.getTables(null, "sys", "%", null), "TABLE_NAME", "TABLE_TYPE");
            assertTrue(system.contains("tables|VIEW"), system.toString());
        }
    }

    @Test
    void getColumnsGivesTypesSizesNullabilityDefaultsAndIdentity() throws SQLException {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertEquals(List.of(
                            "id|4|int4|10|0|1|null|NO",
                            "region|1|bpchar|2|0|2|null|NO",
                            "name|12|varchar|40|1|3|'anon'|NO",
                            "balance|2|numeric|12|1|4|null|NO",
                            "since|91|date|13|1|5|null|NO",
                            "seen|93|timestamp|29|1|6|null|NO",
                            "vip|-7|bool|1|1|7|null|NO",
                            "score|8|float8|17|1|8|null|NO",
                            "visits|-5|int8|19|1|9|null|NO"),
                    strings(metadata.getColumns(null, "public", "customer", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
                            "COLUMN_SIZE", "NULLABLE", "ORDINAL_POSITION", "COLUMN_DEF", "IS_AUTOINCREMENT"));
            try (ResultSet balance = metadata.getColumns(null, null, "customer", "balance")) {
                assertTrue(balance.next());
                assertEquals(Types.NUMERIC, balance.getInt("DATA_TYPE"));
                assertEquals(2, balance.getInt("DECIMAL_DIGITS"));
                assertFalse(balance.next());
            }
            assertEquals(List.of("sku|YES", "label|NO"),
                    strings(metadata.getColumns(null, null, "item", null), "COLUMN_NAME", "IS_AUTOINCREMENT"));
            assertEquals(List.of("rich|id|int4", "rich|balance|numeric"),
                    strings(metadata.getColumns(null, null, "rich", "%"), "TABLE_NAME", "COLUMN_NAME", "TYPE_NAME"));
        }
    }

    @Test
    void getPrimaryKeysGivesKeyColumnsInKeyOrder() throws SQLException {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertEquals(List.of("customer|region|1|customer_pkey", "customer|id|2|customer_pkey"),
                    strings(metadata.getPrimaryKeys(null, "public", "customer"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
                            "PK_NAME"));
            assertEquals(List.of("item|sku|1"),
                    strings(metadata.getPrimaryKeys(null, null, "item"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ"));
            assertEquals(List.of(), strings(metadata.getPrimaryKeys(null, null, "notes"), "COLUMN_NAME"));
        }
    }

    @Test
    void getIndexInfoGivesTheKeyAndTheSecondaryIndex() throws SQLException {
        try (Connection connection = connect()) {
            // NON_UNIQUE is a boolean column; pgJDBC gives its text form, as for PostgreSQL.
            assertEquals(List.of("customer_pkey|f|1|region", "customer_pkey|f|2|id", "customer_name|t|1|name"),
                    strings(connection.getMetaData().getIndexInfo(null, null, "customer", false, false),
                            "INDEX_NAME", "NON_UNIQUE", "ORDINAL_POSITION", "COLUMN_NAME"));
        }
    }

    @Test
    void getSchemasAndTheCatalogName() throws SQLException {
        try (Connection connection = connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertEquals(List.of("pg_catalog", "public", "sys"), strings(metadata.getSchemas(), "TABLE_SCHEM"));
            assertEquals(List.of("public"), strings(metadata.getSchemas(null, "pub%"), "TABLE_SCHEM"));
            assertEquals("shop", connection.getCatalog());
        }
    }

    @Test
    void catalogQueriesWorkThroughNamedStatementsAndInsideATransaction() throws SQLException {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            DatabaseMetaData metadata = connection.getMetaData();
            // Past prepareThreshold pgJDBC names the statement and stops sending Parse and Describe.
            for (int round = 0; round < 7; round++) {
                assertEquals(List.of("customer|region|1", "customer|id|2"),
                        strings(metadata.getPrimaryKeys(null, null, "customer"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ"));
            }
            connection.rollback();
        }
    }
}
