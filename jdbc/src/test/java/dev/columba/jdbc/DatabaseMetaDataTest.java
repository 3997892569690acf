package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tables, views, columns, keys and indexes as a SQL tool reads them, from tables created through SQL. */
class DatabaseMetaDataTest {
    private static Connection connection;
    private static DatabaseMetaData metaData;

    @BeforeAll
    static void createTables() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:mem:metadata-" + System.nanoTime(), DriverTest.small());
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE Orders (id INT NOT NULL PRIMARY KEY, customer VARCHAR(40),"
                    + " amount DECIMAL(12,2) NOT NULL, placed DATE, updated TIMESTAMP, paid BOOLEAN, score DOUBLE,"
                    + " quantity BIGINT, code CHAR(3))");
            statement.execute("CREATE INDEX ix_customer ON Orders (customer, placed DESC)");
            statement.execute("CREATE TABLE events (id INT IDENTITY (1, 1) NOT NULL,"
                    + " label AS CAST(id AS VARCHAR(20)) PERSISTED, note VARCHAR(100))");
            statement.execute("CREATE TABLE facts (id INT, v DOUBLE, tag VARCHAR(10)) WITH (storage = columnstore)");
            statement.execute("CREATE TABLE pairs (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY NONCLUSTERED (b, a))");
            statement.execute("CREATE TABLE log_2024 (line VARCHAR(200))");
            statement.execute("CREATE VIEW big_orders AS SELECT id, amount FROM Orders WHERE amount > 100");
        }
        metaData = connection.getMetaData();
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    /** The rows of a metadata result as text, the named columns joined by '|'. */
    private static List<String> rows(ResultSet result, String... columns) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (result) {
            while (result.next()) {
                StringBuilder row = new StringBuilder();
                for (String column : columns) {
                    if (!row.isEmpty()) {
                        row.append('|');
                    }
                    row.append(result.getString(column));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    @Test
    void tablesMatchPatternsIgnoringCase() throws SQLException {
        assertEquals(List.of("events|TABLE|rowstore heap", "facts|TABLE|columnstore", "log_2024|TABLE|rowstore heap",
                        "Orders|TABLE|rowstore, clustered B+tree", "pairs|TABLE|rowstore heap", "big_orders|VIEW|null"),
                rows(metaData.getTables(null, "", "%", null), "TABLE_NAME", "TABLE_TYPE", "REMARKS"));
        // The system views are the schema sys, listed first (JDBC orders by TABLE_TYPE) when no schema is asked for.
        List<String> all = rows(metaData.getTables(null, null, "%", null), "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE");
        assertTrue(all.containsAll(List.of("sys|tables|SYSTEM VIEW", "sys|event_log|SYSTEM VIEW", "null|Orders|TABLE",
                "null|big_orders|VIEW")), all.toString());
        assertEquals("sys|check_constraints|SYSTEM VIEW", all.getFirst(), "by name: " + all);
        assertEquals(all.size() - 6, rows(metaData.getTables(null, "sys", "%", new String[] {"SYSTEM VIEW"}),
                "TABLE_NAME").size());
        assertEquals(List.of("event_time|TIMESTAMP|1", "level|VARCHAR|2", "source|VARCHAR|3", "message|VARCHAR|4"),
                rows(metaData.getColumns(null, "SYS", "EVENT_LOG", "%"), "COLUMN_NAME", "TYPE_NAME", "ORDINAL_POSITION"));
        assertEquals(List.of(), rows(metaData.getColumns(null, "", "event_log", "%"), "COLUMN_NAME"));
        assertEquals(List.of("Orders"), rows(metaData.getTables(null, null, "ORD%", new String[] {"TABLE"}), "TABLE_NAME"));
        assertEquals(List.of("log_2024"), rows(metaData.getTables(null, null, "log\\_2024", null), "TABLE_NAME"));
        assertEquals(List.of("log_2024"), rows(metaData.getTables(null, null, "log_20_4", null), "TABLE_NAME"));
        assertEquals(List.of("big_orders"), rows(metaData.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"));
        assertEquals(List.of("big_orders"), rows(metaData.getTables(null, null, "BIG%", new String[] {"TABLE", "VIEW"}),
                "TABLE_NAME"));
        assertEquals(List.of(), rows(metaData.getTables("somewhere", null, "%", null), "TABLE_NAME"));
        assertEquals(List.of(), rows(metaData.getTables(null, "dbo", "%", null), "TABLE_NAME"));
        assertEquals(6, rows(metaData.getTables(null, "", "%", null), "TABLE_NAME").size());
        assertEquals(List.of("SYSTEM VIEW", "TABLE", "VIEW"), rows(metaData.getTableTypes(), "TABLE_TYPE"));
        assertEquals(List.of("sys"), rows(metaData.getSchemas(), "TABLE_SCHEM"));
        assertEquals(List.of(), rows(metaData.getSchemas(null, "dbo"), "TABLE_SCHEM"));
        assertEquals(List.of(), rows(metaData.getCatalogs(), "TABLE_CAT"));
    }

    @Test
    void columnsCarryTypesSizesAndNullability() throws SQLException {
        assertEquals(List.of(
                        "id|4|INT|10|0|10|0|NO|1",
                        "customer|12|VARCHAR|40|null|null|1|YES|2",
                        "amount|3|DECIMAL|12|2|10|0|NO|3",
                        "placed|91|DATE|10|null|null|1|YES|4",
                        "updated|93|TIMESTAMP|26|6|null|1|YES|5",
                        "paid|16|BOOLEAN|1|null|null|1|YES|6",
                        "score|8|DOUBLE|17|0|10|1|YES|7",
                        "quantity|-5|BIGINT|19|0|10|1|YES|8",
                        "code|1|CHAR|3|null|null|1|YES|9"),
                rows(metaData.getColumns(null, null, "orders", null), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
                        "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "IS_NULLABLE", "ORDINAL_POSITION"));
        try (ResultSet columns = metaData.getColumns(null, null, "orders", "cust%")) {
            assertTrue(columns.next());
            assertEquals(Types.VARCHAR, columns.getInt("DATA_TYPE"));
            assertEquals(160, columns.getInt("CHAR_OCTET_LENGTH"));
            assertEquals("Orders", columns.getString("TABLE_NAME"));
            assertNull(columns.getString("TABLE_SCHEM"));
            assertFalse(columns.next());
        }
        assertEquals(List.of("id|YES|NO|null", "label|NO|YES|computed: CAST([id] AS VARCHAR(20))", "note|NO|NO|null"),
                rows(metaData.getColumns(null, null, "events", "%"), "COLUMN_NAME", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN",
                        "REMARKS"));
    }

    @Test
    void primaryKeysAreTheUniqueClusteredKeyOrThePkIndex() throws SQLException {
        assertEquals(List.of("Orders|id|1|Orders"),
                rows(metaData.getPrimaryKeys(null, null, "orders"), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
        assertEquals(List.of("a|2|PK_pairs", "b|1|PK_pairs"),
                rows(metaData.getPrimaryKeys(null, null, "pairs"), "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
        assertEquals(List.of(), rows(metaData.getPrimaryKeys(null, null, "events"), "COLUMN_NAME"));
        assertEquals(List.of(), rows(metaData.getPrimaryKeys(null, null, "facts"), "COLUMN_NAME"));
        assertEquals(List.of(), rows(metaData.getPrimaryKeys(null, null, "ord%"), "COLUMN_NAME"), "a name, not a pattern");
    }

    @Test
    void indexesListTheirColumnsInOrder() throws SQLException {
        assertEquals(List.of("FALSE|1|Orders|1|id|A", "TRUE|3|ix_customer|1|customer|A", "TRUE|3|ix_customer|2|placed|D"),
                rows(metaData.getIndexInfo(null, null, "Orders", false, true), "NON_UNIQUE", "TYPE", "INDEX_NAME",
                        "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC"));
        assertEquals(List.of("Orders"), rows(metaData.getIndexInfo(null, null, "Orders", true, true), "INDEX_NAME"));
        assertEquals(List.of("TRUE|3|facts|1|id", "TRUE|3|facts|2|v", "TRUE|3|facts|3|tag"),
                rows(metaData.getIndexInfo(null, null, "facts", false, true), "NON_UNIQUE", "TYPE", "INDEX_NAME",
                        "ORDINAL_POSITION", "COLUMN_NAME"));
        assertEquals(List.of("PK_pairs|b", "PK_pairs|a"),
                rows(metaData.getIndexInfo(null, null, "pairs", false, true), "INDEX_NAME", "COLUMN_NAME"));
        assertEquals(List.of(), rows(metaData.getIndexInfo(null, null, "log_2024", false, true), "INDEX_NAME"));
    }

    @Test
    void uniqueConstraintsAreUniqueIndexesAndDefaultsAreColumnDefaults() throws SQLException {
        try (Connection own = DriverManager.getConnection("jdbc:columba:mem:constraints-" + System.nanoTime(),
                DriverTest.small()); Statement statement = own.createStatement()) {
            statement.execute("CREATE TABLE members (id INT NOT NULL PRIMARY KEY, email VARCHAR(80) CONSTRAINT uq_email UNIQUE,"
                    + " first VARCHAR(20), last VARCHAR(20), level INT DEFAULT 5 CHECK (level BETWEEN 1 AND 9),"
                    + " UNIQUE (last, first))");
            DatabaseMetaData ownMetaData = own.getMetaData();
            assertEquals(List.of("members|FALSE|1|id", "members_last_first_key|FALSE|1|last",
                            "members_last_first_key|FALSE|2|first", "uq_email|FALSE|1|email"),
                    rows(ownMetaData.getIndexInfo(null, null, "members", true, true), "INDEX_NAME", "NON_UNIQUE",
                            "ORDINAL_POSITION", "COLUMN_NAME"));
            assertEquals(List.of("id|null", "email|null", "first|null", "last|null", "level|5"),
                    rows(ownMetaData.getColumns(null, null, "members", null), "COLUMN_NAME", "COLUMN_DEF"));
            try (ResultSet checks = statement.executeQuery("SELECT constraint_name, definition FROM sys.check_constraints")) {
                assertTrue(checks.next());
                assertEquals("members_level_check", checks.getString(1));
                assertTrue(checks.getString(2).contains("BETWEEN"), checks.getString(2));
                assertFalse(checks.next());
            }
            // The primary key is listed under the clustered index that enforces it, named as the table.
            assertEquals(List.of("members|PK|id", "members_last_first_key|UQ|last, first", "uq_email|UQ|email"),
                    rows(statement.executeQuery("SELECT constraint_name, type, key_columns FROM sys.key_constraints"
                            + " ORDER BY constraint_name"), "constraint_name", "type", "key_columns"));
            statement.execute("DROP TABLE members");
            assertEquals(List.of(), rows(statement.executeQuery("SELECT constraint_name FROM sys.key_constraints"),
                    "constraint_name"));
        }
    }

    @Test
    void typeInfoListsEveryTypeByJdbcCode() throws SQLException {
        assertEquals(List.of("BIGINT|-5|19", "VARBINARY|-3|1073741824", "BINARY|-2|8000", "CHAR|1|8000", "DECIMAL|3|38",
                        "INT|4|10", "DOUBLE|8|17", "VARCHAR|12|1073741824", "BOOLEAN|16|1", "DATE|91|10", "TIMESTAMP|93|26",
                        "UUID|1111|36"),
                rows(metaData.getTypeInfo(), "TYPE_NAME", "DATA_TYPE", "PRECISION"));
    }

    @Test
    void metadataResultSetsDescribeTheirColumns() throws SQLException {
        try (ResultSet columns = metaData.getColumns(null, null, "pairs", null)) {
            assertEquals(24, columns.getMetaData().getColumnCount());
            assertEquals("ORDINAL_POSITION", columns.getMetaData().getColumnName(17));
            assertEquals(Types.INTEGER, columns.getMetaData().getColumnType(17));
            assertNull(columns.getStatement());
        }
        for (ResultSet empty : List.of(metaData.getProcedures(null, null, "%"), metaData.getImportedKeys(null, null, "x"),
                metaData.getExportedKeys(null, null, "x"), metaData.getFunctions(null, null, "%"),
                metaData.getUDTs(null, null, "%", null), metaData.getTablePrivileges(null, null, "%"),
                metaData.getClientInfoProperties(), metaData.getBestRowIdentifier(null, null, "x", 0, true))) {
            try (empty) {
                assertFalse(empty.next());
            }
        }
    }

    @Test
    void productAndSqlAnswers() throws SQLException {
        assertEquals("Columba", metaData.getDatabaseProductName());
        assertEquals(Version.CURRENT.text(), metaData.getDatabaseProductVersion());
        assertEquals(ColumbaDriver.NAME, metaData.getDriverName());
        assertEquals("\"", metaData.getIdentifierQuoteString());
        assertEquals("\\", metaData.getSearchStringEscape());
        assertTrue(metaData.getURL().startsWith("jdbc:columba:mem:metadata-"));
        assertTrue(metaData.storesMixedCaseIdentifiers());
        assertFalse(metaData.supportsMixedCaseIdentifiers());
        assertTrue(metaData.supportsTransactions());
        assertTrue(metaData.supportsDataDefinitionAndDataManipulationTransactions());
        assertTrue(metaData.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY));
        assertFalse(metaData.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE));
        assertTrue(metaData.nullsAreSortedHigh());
        assertTrue(metaData.getNumericFunctions().contains("ROUND"));
        assertTrue(metaData.getStringFunctions().contains("SUBSTRING"));
        assertTrue(metaData.getStringFunctions().contains("LENGTH"));
        assertEquals(4, metaData.getJDBCMajorVersion());
    }
}
