package dev.columba.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code information_schema.tables}, {@code columns}, {@code schemata} and {@code views} through pgJDBC, with the
 * queries tools send: an ORM's table check with parameters, a column listing, joins and aggregates over the views.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PgJdbcInformationSchemaTest {
    @TempDir
    static Path directory;
    private static PgServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = PgServer.start(ServerConfig.of(directory.resolve("shop")).withPort(0));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE items (id INT NOT NULL PRIMARY KEY, code CHAR(3) NOT NULL, name VARCHAR(40)"
                    + " DEFAULT 'unnamed', price DECIMAL(10,2), weight DOUBLE, stock BIGINT, added DATE,"
                    + " changed TIMESTAMP, active BOOLEAN)");
            statement.execute("CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, item_id INT)");
            statement.execute("CREATE VIEW cheap AS SELECT id, name FROM items WHERE price < 10");
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/shop", "tester", "");
    }

    @Test
    void anOrmsTableCheckWithParameters() throws SQLException {
        String exists = "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_name = ?";
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(exists)) {
            // Past pgJDBC's prepareThreshold (5) the statement is a named server statement: the same answers.
            for (int round = 0; round < 7; round++) {
                statement.setString(1, "public");
                statement.setString(2, "items");
                assertEquals(List.of("items"), rows(statement));
                statement.setString(2, "missing");
                assertEquals(List.of(), rows(statement));
            }
        }
    }

    @Test
    void tablesListsTablesAndViewsOfEachSchema() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertEquals(List.of("shop:public:cheap:VIEW:NO", "shop:public:items:BASE TABLE:YES",
                            "shop:public:orders:BASE TABLE:YES"),
                    rows(statement, "SELECT table_catalog, table_schema, table_name, table_type, is_insertable_into"
                            + " FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"));
            assertEquals(List.of("VIEW"), rows(statement, "SELECT DISTINCT table_type FROM information_schema.tables"
                    + " WHERE table_schema = 'sys'"));
        }
    }

    @Test
    void columnsDescribeEachTypeAsPostgresDoes() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertEquals(List.of(
                            "id:1:NO:integer:null:32:2:0:null:int4:null",
                            "code:2:NO:character:3:null:null:null:null:bpchar:null",
                            "name:3:YES:character varying:40:null:null:null:null:varchar:'unnamed'",
                            "price:4:YES:numeric:null:10:10:2:null:numeric:null",
                            "weight:5:YES:double precision:null:53:2:null:null:float8:null",
                            "stock:6:YES:bigint:null:64:2:0:null:int8:null",
                            "added:7:YES:date:null:null:null:null:0:date:null",
                            "changed:8:YES:timestamp without time zone:null:null:null:null:6:timestamp:null",
                            "active:9:YES:boolean:null:null:null:null:null:bool:null"),
                    rows(statement, "SELECT column_name, ordinal_position, is_nullable, data_type,"
                            + " character_maximum_length, numeric_precision, numeric_precision_radix, numeric_scale,"
                            + " datetime_precision, udt_name, column_default"
                            + " FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'items'"
                            + " ORDER BY ordinal_position"));
        }
    }

    @Test
    void viewsAndSchemataAndJoinsOverThem() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            List<String> views = rows(statement, "SELECT table_name, view_definition FROM information_schema.views"
                    + " WHERE table_schema = 'public'");
            assertEquals(1, views.size(), views.toString());
            assertTrue(views.getFirst().startsWith("cheap:") && views.getFirst().contains("< 10"), views.toString());
            assertEquals(List.of("information_schema", "pg_catalog", "public", "sys"),
                    rows(statement, "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name"));
            assertEquals(List.of("cheap:2", "items:9", "orders:2"), rows(statement,
                    "SELECT t.table_name, COUNT(*) AS columns FROM information_schema.tables AS t"
                            + " JOIN information_schema.columns AS c ON c.table_schema = t.table_schema"
                            + " AND c.table_name = t.table_name WHERE t.table_schema = 'public'"
                            + " GROUP BY t.table_name ORDER BY t.table_name"));
        }
    }

    @Test
    void viewsOtherThanTheseFourAreRefusedByName() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            SQLException refused = assertThrows(SQLException.class,
                    () -> statement.executeQuery("SELECT * FROM information_schema.routines"));
            assertEquals("0A000", refused.getSQLState());
            assertTrue(refused.getMessage().contains("information_schema.routines"), refused.getMessage());
            assertEquals(List.of("1"), rows(statement, "SELECT 1"), "the connection stays usable");
        }
    }

    private static List<String> rows(PreparedStatement statement) throws SQLException {
        try (ResultSet result = statement.executeQuery()) {
            return rows(result);
        }
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            return rows(result);
        }
    }

    private static List<String> rows(ResultSet result) throws SQLException {
        List<String> rows = new ArrayList<>();
        int columns = result.getMetaData().getColumnCount();
        while (result.next()) {
            StringBuilder row = new StringBuilder();
            for (int column = 1; column <= columns; column++) {
                row.append(column > 1 ? ":" : "").append(result.getString(column));
            }
            rows.add(row.toString());
        }
        return rows;
    }
}
