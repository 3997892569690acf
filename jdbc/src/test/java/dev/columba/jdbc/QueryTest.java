package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.stats.IoStats;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** SQL planned by the query planner, end to end through DriverManager, on both storage kinds. */
class QueryTest {
    private static final String EVERY_TYPE_COLUMNS = "(id INT NOT NULL, big BIGINT, ratio DOUBLE, price DECIMAL(12,2),"
            + " name VARCHAR(20), code CHAR(4), flag BOOLEAN, on_day DATE, at_time TIMESTAMP)";

    @TempDir
    Path directory;

    private String url;
    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        url = "jdbc:columba:" + directory;
        connection = DriverManager.getConnection(url, DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    /**
     * Columns of the same name from two tables keep the name the query gives them, as SQL Server
     * and PostgreSQL label them, where Calcite's validator makes the second one {@code id0}: for
     * named columns, for {@code *} and {@code t.*}, on the result set and on the prepared
     * statement's metadata, on a rowstore and a columnstore table. An alias the query writes is
     * kept as written, even one that looks made up ({@code id0}).
     */
    @Test
    void duplicateColumnNamesKeepTheNamesTheQueryGives() throws SQLException {
        statement.execute("CREATE TABLE la (id INT NOT NULL PRIMARY KEY, x VARCHAR(5))");
        statement.execute("CREATE TABLE lb (id INT NOT NULL, y INT) WITH (storage = columnstore)");
        statement.execute("INSERT INTO la VALUES (1, 'a'), (2, 'b')");
        statement.execute("INSERT INTO lb VALUES (2, 20), (3, 30)");
        Map<String, List<String>> expected = new java.util.LinkedHashMap<>();
        expected.put("SELECT la.id, lb.id FROM la FULL JOIN lb ON la.id = lb.id", List.of("id", "id"));
        expected.put("SELECT * FROM la JOIN lb ON la.id = lb.id", List.of("id", "x", "id", "y"));
        expected.put("SELECT lb.*, la.* FROM la JOIN lb ON la.id = lb.id", List.of("id", "y", "id", "x"));
        expected.put("SELECT la.id, lb.id AS id0, lb.id AS [ID], 1 + la.id FROM la JOIN lb ON la.id = lb.id",
                List.of("id", "id0", "ID", "?column?"));
        // Expressions without an alias are labelled as PostgreSQL labels them, not with Calcite's EXPR$n.
        expected.put("SELECT COUNT(*), SUM(la.id), MAX(x), COALESCE(x, 'z'), CAST(la.id AS BIGINT),"
                + " CASE WHEN la.id > 1 THEN 1 ELSE 0 END, la.id * 2, UPPER(x) AS shout FROM la GROUP BY la.id, x",
                List.of("count", "sum", "max", "coalesce", "bigint", "case", "?column?", "shout"));
        expected.put("SELECT la.id, lb.id FROM la JOIN lb ON la.id = lb.id UNION ALL SELECT lb.id, la.id FROM la, lb",
                List.of("id", "id"));
        expected.put("SELECT TOP 1 la.id, lb.id FROM la JOIN lb ON la.id = lb.id ORDER BY lb.id", List.of("id", "id"));
        for (Map.Entry<String, List<String>> query : expected.entrySet()) {
            try (ResultSet rows = statement.executeQuery(query.getKey())) {
                assertEquals(query.getValue(), labels(rows.getMetaData()), query.getKey());
                if (query.getKey().contains("FULL JOIN")) {
                    List<String> seen = new ArrayList<>();
                    while (rows.next()) {
                        seen.add(rows.getString("id") + "/" + rows.getString(2) + "/" + rows.getString("id0"));
                    }
                    seen.sort(null);
                    assertEquals(List.of("1/null/null", "2/2/2", "null/3/3"), seen);
                }
            }
            try (PreparedStatement prepared = connection.prepareStatement(query.getKey())) {
                assertEquals(query.getValue(), labels(prepared.getMetaData()), query.getKey());
            }
        }
    }

    private static List<String> labels(java.sql.ResultSetMetaData metadata) throws SQLException {
        List<String> labels = new ArrayList<>();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            labels.add(metadata.getColumnLabel(column));
            assertEquals(metadata.getColumnLabel(column), metadata.getColumnName(column));
        }
        return labels;
    }

    @Test
    void aPreparedStatementDescribesItsResultAndParametersBeforeItRuns() throws SQLException {
        statement.execute("CREATE TABLE d (id INT NOT NULL, price DECIMAL(12, 2), name VARCHAR(20))");
        try (java.sql.PreparedStatement query = connection.prepareStatement(
                "SELECT name, price * 2 AS doubled FROM d WHERE id = ? AND price > ?")) {
            java.sql.ResultSetMetaData columns = query.getMetaData();
            assertEquals(2, columns.getColumnCount());
            assertEquals("name", columns.getColumnLabel(1));
            assertEquals(java.sql.Types.VARCHAR, columns.getColumnType(1));
            assertEquals("doubled", columns.getColumnLabel(2));
            assertEquals(java.sql.Types.DECIMAL, columns.getColumnType(2));
            java.sql.ParameterMetaData parameters = query.getParameterMetaData();
            assertEquals(2, parameters.getParameterCount());
            assertEquals(java.sql.Types.INTEGER, parameters.getParameterType(1));
            assertEquals(java.sql.Types.DECIMAL, parameters.getParameterType(2));
            assertEquals(2, parameters.getScale(2));
            query.setInt(1, 1);
            query.setBigDecimal(2, java.math.BigDecimal.ONE);
            try (ResultSet rows = query.executeQuery()) {
                assertEquals(2, rows.getMetaData().getColumnCount(), "the run answers with the described columns");
            }
        }
        try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO d VALUES (?, ?, ?)")) {
            assertNull(insert.getMetaData(), "an INSERT returns a count, not rows");
            assertEquals(java.sql.Types.VARCHAR, insert.getParameterMetaData().getParameterType(3));
        }
        try (java.sql.PreparedStatement ddl = connection.prepareStatement("CREATE TABLE e (id INT)")) {
            assertNull(ddl.getMetaData(), "DDL is not planned");
            assertEquals(0, ddl.getParameterMetaData().getParameterCount());
        }
        try (java.sql.PreparedStatement wrong = connection.prepareStatement("SELECT nothing FROM d WHERE id = ?")) {
            SQLException error = assertThrows(SQLException.class, wrong::getMetaData);
            assertEquals("42703", error.getSQLState(), "describing reports what running would");
        }
    }

    @Test
    void anInsertReturnsTheIdentityValuesItHandedOut() throws SQLException {
        statement.execute("CREATE TABLE g (id BIGINT IDENTITY(10, 5) PRIMARY KEY, name VARCHAR(10))");
        assertTrue(connection.getMetaData().supportsGetGeneratedKeys());
        assertEquals(2, statement.executeUpdate("INSERT INTO g (name) VALUES ('a'), ('b')", Statement.RETURN_GENERATED_KEYS));
        try (ResultSet keys = statement.getGeneratedKeys()) {
            assertEquals("id", keys.getMetaData().getColumnLabel(1));
            assertEquals(java.sql.Types.BIGINT, keys.getMetaData().getColumnType(1));
            assertTrue(keys.next());
            assertEquals(10L, keys.getLong(1));
            assertTrue(keys.next());
            assertEquals(15L, keys.getLong("id"));
            assertFalse(keys.next());
        }
        try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO g (name) VALUES (?)",
                new String[] {"id"})) {
            insert.setString(1, "c");
            assertEquals(1, insert.executeUpdate());
            try (ResultSet keys = insert.getGeneratedKeys()) {
                assertTrue(keys.next());
                assertEquals(20L, keys.getLong(1), "the next value after 15, as the table stored it");
                assertFalse(keys.next());
            }
        }
        try (ResultSet stored = statement.executeQuery("SELECT id FROM g WHERE name = 'c'")) {
            assertTrue(stored.next());
            assertEquals(20L, stored.getLong(1), "the key returned is the key stored");
        }
        statement.executeUpdate("UPDATE g SET name = 'd' WHERE id = 10");
        try (ResultSet keys = statement.getGeneratedKeys()) {
            assertFalse(keys.next(), "an UPDATE hands out no identity values");
        }
        statement.execute("CREATE TABLE plain (id INT, name VARCHAR(10))");
        statement.executeUpdate("INSERT INTO plain VALUES (1, 'x')", Statement.RETURN_GENERATED_KEYS);
        try (ResultSet keys = statement.getGeneratedKeys()) {
            assertFalse(keys.next(), "a table without an identity column has no generated keys");
        }
    }

    /**
     * {@code executeBatch} keeps the identity values of every insert of the batch, in the order they
     * were handed out, for a PreparedStatement (a batch of one-row inserts runs as one insert; one
     * of several rows per set runs once per set) and a plain Statement (each statement its own run;
     * an UPDATE in between hands out none). Each is checked against the row stored with it.
     */
    @Test
    void aBatchReturnsTheIdentityValuesOfEveryInsertInOrder() throws SQLException {
        statement.execute("CREATE TABLE g (id BIGINT IDENTITY(10, 5) PRIMARY KEY, name VARCHAR(10))");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO g (name) VALUES (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (String name : List.of("a", "b", "c")) {
                insert.setString(1, name);
                insert.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, insert.executeBatch());
            assertEquals(List.of(10L, 15L, 20L), keys(insert));
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO g (name) VALUES (?), (?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (String name : List.of("d", "e")) {
                insert.setString(1, name);
                insert.setString(2, name + "2");
                insert.addBatch();
            }
            assertArrayEquals(new int[] {2, 2}, insert.executeBatch());
            assertEquals(List.of(25L, 30L, 35L, 40L), keys(insert));
        }
        statement.addBatch("INSERT INTO g (name) VALUES ('f')");
        statement.addBatch("UPDATE g SET name = 'a1' WHERE name = 'a'");
        statement.addBatch("INSERT INTO g (name) VALUES ('g'), ('h')");
        assertArrayEquals(new int[] {1, 1, 2}, statement.executeBatch());
        assertEquals(List.of(45L, 50L, 55L), keys(statement));
        List<Object> stored = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("SELECT id FROM g ORDER BY name")) {
            while (rows.next()) {
                stored.add(rows.getLong(1));
            }
        }
        // Names a1, b, c, d, d2, e, e2, f, g, h: each key returned is the key stored with its row.
        assertEquals(List.of(10L, 15L, 20L, 25L, 30L, 35L, 40L, 45L, 50L, 55L), stored);

        statement.addBatch("INSERT INTO g (name) VALUES ('i')");
        statement.addBatch("INSERT INTO nope VALUES (1)");
        assertThrows(java.sql.BatchUpdateException.class, statement::executeBatch);
        assertEquals(List.of(60L), keys(statement), "the statement that ran before the failure handed out 60");
        try (PreparedStatement update = connection.prepareStatement("UPDATE g SET name = ? WHERE id = 60")) {
            update.setString(1, "j");
            update.addBatch();
            update.executeBatch();
            assertEquals(List.of(), keys(update), "an UPDATE batch hands out no identity values");
        }
    }

    private static List<Long> keys(Statement statement) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (ResultSet generated = statement.getGeneratedKeys()) {
            while (generated.next()) {
                keys.add(generated.getLong(1));
            }
        }
        return keys;
    }

    /**
     * {@code setObject} of the java.time classes without a Columba type of their own, and a UUID,
     * stored and read back through the engine: an Instant or OffsetDateTime is the TIMESTAMP it is
     * in the JVM's default zone (read back as the same instant), a UUID its text (looked up by a
     * UUID parameter and read back as a UUID); a time of day is an error that says why (bytes
     * bind as a binary string: BinaryTypesJdbcTest).
     */
    @Test
    void setObjectStoresInstantsOffsetTimesAndUuidsAndRefusesTimesOfDay() throws SQLException {
        statement.execute("CREATE TABLE e (id VARCHAR(36) PRIMARY KEY, at_time TIMESTAMP)");
        java.util.UUID first = java.util.UUID.fromString("0b9e3f0a-6c1d-4a57-9a5e-2f1c3d4e5f60");
        java.util.UUID second = java.util.UUID.fromString("f0000000-0000-4000-8000-000000000001");
        java.time.Instant instant = java.time.Instant.parse("2024-03-01T20:30:00.123456Z");
        java.time.OffsetDateTime offset = java.time.OffsetDateTime.parse("2024-03-02T05:30:00+09:00");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO e VALUES (?, ?)")) {
            insert.setObject(1, first);
            insert.setObject(2, instant);
            insert.executeUpdate();
            insert.setObject(1, second);
            insert.setObject(2, offset);
            insert.executeUpdate();
        }
        LocalDateTime local = LocalDateTime.ofInstant(instant, java.time.ZoneId.systemDefault());
        try (PreparedStatement select = connection.prepareStatement("SELECT id, at_time FROM e WHERE id = ?")) {
            select.setObject(1, first);
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next());
                assertEquals(first.toString(), row.getString(1), "a UUID is stored as its canonical text");
                assertEquals(first, row.getObject(1, java.util.UUID.class));
                assertEquals(local, row.getObject(2, LocalDateTime.class), "the instant in the JVM's zone");
                assertEquals(instant, row.getObject(2, java.time.Instant.class));
                assertEquals(instant, row.getTimestamp(2).toInstant(), "as setTimestamp(Timestamp.from(instant)) stores it");
                assertFalse(row.next());
            }
            select.setObject(1, second);
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next());
                assertEquals(offset.toInstant(), row.getObject(2, java.time.Instant.class), "the offset's instant");
                assertEquals(offset.toInstant(), row.getObject(2, java.time.OffsetDateTime.class).toInstant());
            }
        }
        try (ResultSet ordered = statement.executeQuery("SELECT id FROM e ORDER BY id")) {
            assertTrue(ordered.next());
            assertEquals(first, ordered.getObject(1, java.util.UUID.class), "text order is the UUIDs' byte order");
        }
        try (ResultSet bad = statement.executeQuery("SELECT 'not-a-uuid' FROM e")) {
            assertTrue(bad.next());
            assertEquals("22018", assertThrows(SQLException.class, () -> bad.getObject(1, java.util.UUID.class))
                    .getSQLState());
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO e VALUES ('x', ?)")) {
            SQLException time = assertThrows(SQLException.class, () -> insert.setObject(1, java.time.LocalTime.NOON));
            assertEquals("42804", time.getSQLState());
            assertTrue(time.getMessage().contains("no TIME type"), time.getMessage());
        }
    }

    /**
     * {@code isAutoIncrement} is true for a table's IDENTITY column selected as stored (through a
     * scan, a filter, a hash join, a point lookup and a prepared statement's metadata) and false for
     * anything computed from it and for other columns.
     */
    @Test
    void isAutoIncrementIsTrueForAnIdentityColumnSelectedAsStored() throws SQLException {
        statement.execute("CREATE TABLE g (id BIGINT IDENTITY PRIMARY KEY, name VARCHAR(10))");
        statement.execute("CREATE TABLE h (id INT IDENTITY(1, 1) NOT NULL, g_name VARCHAR(10)) WITH (storage = columnstore)");
        statement.execute("CREATE TABLE plain (id INT PRIMARY KEY, name VARCHAR(10))");
        statement.execute("INSERT INTO g (name) VALUES ('a'), ('b')");
        statement.execute("INSERT INTO h (g_name) VALUES ('a'), ('b')");
        statement.execute("INSERT INTO plain VALUES (1, 'x')");
        assertEquals(List.of(true, false, false, false), autoIncrement(
                "SELECT id, name, id + 1 AS next_id, CAST(id AS VARCHAR(20)) AS text_id FROM g WHERE name <> 'z'"));
        assertEquals(List.of(true, false), autoIncrement("SELECT id, name FROM g WHERE id = 1"), "a point lookup");
        // A hash join (on a column no index has); an index nested loop join's inner columns are not
        // traced (the planner's column origins do not look into it), so they would read false.
        assertEquals(List.of(false, true, true, false), autoIncrement(
                "SELECT g.name, g.id, h.id AS h_id, h.g_name FROM g JOIN h ON h.g_name = g.name"));
        assertEquals(List.of(false, false), autoIncrement("SELECT id, name FROM plain"));
        try (PreparedStatement prepared = connection.prepareStatement("SELECT name, id FROM g WHERE id > ?")) {
            ResultSetMetaData described = prepared.getMetaData();
            assertFalse(described.isAutoIncrement(1));
            assertTrue(described.isAutoIncrement(2), "described before running");
        }
    }

    private List<Boolean> autoIncrement(String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            ResultSetMetaData metadata = rows.getMetaData();
            List<Boolean> flags = new ArrayList<>();
            for (int column = 1; column <= metadata.getColumnCount(); column++) {
                flags.add(metadata.isAutoIncrement(column));
            }
            while (rows.next()) {
                // Read to the end: the flags hold for the rows too.
            }
            return flags;
        }
    }

    private static List<String> messages(SQLWarning chain) {
        List<String> messages = new ArrayList<>();
        for (SQLWarning warning = chain; warning != null; warning = warning.getNextWarning()) {
            messages.add(warning.getMessage());
        }
        return messages;
    }

    @Test
    void anAutocommitBatchIsOneTransaction() throws SQLException {
        statement.execute("CREATE TABLE batched (id BIGINT PRIMARY KEY, name VARCHAR(10))");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO batched VALUES (?, ?)")) {
            for (long id = 1; id <= 50; id++) {
                insert.setLong(1, id);
                insert.setString(2, "n" + id);
                insert.addBatch();
            }
            int[] counts = insert.executeBatch();
            assertEquals(50, counts.length);
            assertTrue(java.util.Arrays.stream(counts).allMatch(count -> count == 1));
            assertEquals(50, count("batched"));
            assertTrue(connection.getAutoCommit(), "autocommit is on again after the batch");

            for (long id : new long[] {51, 52, 7, 53}) {
                insert.setLong(1, id);
                insert.setString(2, "m" + id);
                insert.addBatch();
            }
            java.sql.BatchUpdateException failure = assertThrows(java.sql.BatchUpdateException.class, insert::executeBatch);
            assertEquals("23505", failure.getSQLState());
            assertArrayEquals(new long[] {Statement.EXECUTE_FAILED, Statement.EXECUTE_FAILED, Statement.EXECUTE_FAILED,
                    Statement.EXECUTE_FAILED}, failure.getLargeUpdateCounts(), "the whole batch was rolled back");
            assertEquals(50, count("batched"));
            assertTrue(connection.getAutoCommit());
        }
    }

    private long count(String table) throws SQLException {
        try (Statement counting = connection.createStatement();
             ResultSet result = counting.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertTrue(result.next());
            return result.getLong(1);
        }
    }

    /**
     * Values too large for a leaf cell live on overflow pages; a rowstore scan decodes its pages into
     * vectors and must follow them, for a clustered table and a heap, beside NULLs and short values.
     */
    @ParameterizedTest
    @ValueSource(strings = {"id INT PRIMARY KEY", "id INT NOT NULL"})
    void outOfRowValuesComeBackWhole(String idColumn) throws SQLException {
        statement.execute("CREATE TABLE documents (" + idColumn + ", body VARCHAR(8000), note VARCHAR(10))");
        List<String> bodies = new ArrayList<>();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO documents VALUES (?, ?, ?)")) {
            for (int id = 0; id < 40; id++) {
                String body = id % 5 == 4 ? null : ("ü" + id + "-").repeat(id % 3 == 0 ? 1_500 : 2);
                bodies.add(body);
                insert.setInt(1, id);
                insert.setString(2, body);
                insert.setString(3, "n" + id);
                insert.executeUpdate();
            }
        }
        try (ResultSet result = statement.executeQuery("SELECT id, body, note FROM documents")) {
            int rows = 0;
            while (result.next()) {
                int id = result.getInt(1);
                assertEquals(bodies.get(id), result.getString(2), "body of row " + id);
                assertEquals("n" + id, result.getString(3), "note of row " + id);
                rows++;
            }
            assertEquals(40, rows);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " WITH (storage = columnstore)"})
    void everyTypeRoundTripsThroughParametersAndGetters(String storage) throws SQLException {
        statement.execute("CREATE TABLE every_type " + EVERY_TYPE_COLUMNS + storage);
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO every_type VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setInt(1, 1);
            insert.setLong(2, 9_000_000_000L);
            insert.setDouble(3, 0.5);
            insert.setBigDecimal(4, new BigDecimal("1234.50"));
            insert.setString(5, "Ada");
            insert.setString(6, "AB");
            insert.setBoolean(7, true);
            insert.setDate(8, Date.valueOf("2024-02-29"));
            insert.setTimestamp(9, Timestamp.valueOf("2024-02-29 13:45:30.123456"));
            assertEquals(1, insert.executeUpdate());
            insert.setInt(1, 2);
            for (int parameter = 2; parameter <= 9; parameter++) {
                insert.setNull(parameter, Types.NULL);
            }
            assertEquals(1, insert.executeUpdate());
        }
        try (ResultSet result = statement.executeQuery("SELECT * FROM every_type ORDER BY id")) {
            ResultSetMetaData metaData = result.getMetaData();
            assertEquals(Types.INTEGER, metaData.getColumnType(1));
            assertEquals(Types.DECIMAL, metaData.getColumnType(4));
            assertEquals(2, metaData.getScale(4));
            assertEquals(Types.TIMESTAMP, metaData.getColumnType(9));
            assertTrue(result.next());
            assertEquals(1, result.getInt("id"));
            assertEquals(9_000_000_000L, result.getLong("big"));
            assertEquals(0.5, result.getDouble("ratio"));
            assertEquals(new BigDecimal("1234.50"), result.getBigDecimal("price"));
            assertEquals("Ada", result.getString("name"));
            assertEquals("AB  ", result.getString("code"));
            assertTrue(result.getBoolean("flag"));
            assertEquals(Date.valueOf("2024-02-29"), result.getDate("on_day"));
            assertEquals(LocalDate.of(2024, 2, 29), result.getObject("on_day", LocalDate.class));
            assertEquals(LocalDateTime.of(2024, 2, 29, 13, 45, 30, 123_456_000),
                    result.getObject("at_time", LocalDateTime.class));
            assertEquals(Timestamp.valueOf("2024-02-29 13:45:30.123456"), result.getObject("at_time"));
            assertTrue(result.next());
            assertEquals(2, result.getInt(1));
            for (int column = 2; column <= 9; column++) {
                assertNull(result.getObject(column));
                assertTrue(result.wasNull());
            }
            assertFalse(result.next());
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT name FROM every_type WHERE id = ? AND on_day = ?")) {
            select.setInt(1, 1);
            select.setObject(2, LocalDate.of(2024, 2, 29));
            try (ResultSet result = select.executeQuery()) {
                assertTrue(result.next());
                assertEquals("Ada", result.getString(1));
                assertFalse(result.next());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " WITH (storage = columnstore)"})
    void statisticsIoLinesAreWarningsAfterTheLastRow(String storage) throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL, name VARCHAR(20))" + storage);
        assertEquals(3, statement.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')"));
        statement.execute("SET STATISTICS IO ON");
        ColumbaStatement typed = statement.unwrap(ColumbaStatement.class);
        try (ResultSet result = statement.executeQuery("SELECT * FROM t")) {
            assertNull(result.getWarnings());
            int rows = 0;
            while (result.next()) {
                rows++;
            }
            assertEquals(3, rows);
            List<String> messages = messages(statement.getWarnings());
            assertEquals(messages, messages(result.getWarnings()));
            assertTrue(messages.getFirst().matches("Table 't'\\. Scan count \\d+, logical reads \\d+, physical reads \\d+,"
                    + " read-ahead reads \\d+, lob logical reads \\d+, lob physical reads \\d+, lob read-ahead reads \\d+\\."),
                    messages.getFirst());
            IoStats io = typed.statistics().tables().get("t");
            assertEquals(messages.getFirst(), io.statisticsIoLine("t"), "the warning is the typed statistics' line");
            assertTrue(io.logicalReads() + io.lobLogicalReads() > 0, io::toString);
            assertTrue(io.readAheadUsed() + io.readAheadWasted() <= io.readAheadReads() + io.lobReadAheadReads(), io::toString);
        }
    }

    @Test
    void rollbackUndoesDmlAndCommitPublishesIt() throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY)");
        connection.setAutoCommit(false);
        statement.executeUpdate("INSERT INTO t VALUES (1), (2)");
        assertEquals(2, count("t"), "the transaction reads its own rows");
        try (Connection other = DriverManager.getConnection(url);
             ResultSet result = other.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(result.next());
            assertEquals(0, result.getLong(1), "others read committed rows only");
        }
        connection.rollback();
        assertEquals(0, count("t"));
        statement.executeUpdate("INSERT INTO t VALUES (3)");
        connection.commit();
        try (Connection other = DriverManager.getConnection(url);
             ResultSet result = other.createStatement().executeQuery("SELECT id FROM t")) {
            assertTrue(result.next());
            assertEquals(3, result.getInt(1));
        }
    }

    @Test
    void updatingRowsWhileReadingThemDoesNotWaitForItself() throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, seen INT)");
        statement.executeUpdate("INSERT INTO t VALUES (1, 0), (2, 0), (3, 0)");
        try (ResultSet rows = statement.executeQuery("SELECT id FROM t ORDER BY id");
             PreparedStatement mark = connection.prepareStatement("UPDATE t SET seen = 1 WHERE id = ?")) {
            while (rows.next()) {
                mark.setInt(1, rows.getInt(1));
                assertEquals(1, mark.executeUpdate());
            }
        }
        assertEquals(3, count("t WHERE seen = 1"));
    }

    @Test
    void errorsCarryTheirSqlState() throws SQLException {
        SQLException unknownTable = assertThrows(SQLException.class, () -> statement.executeQuery("SELECT * FROM nothing"));
        assertInstanceOf(SQLSyntaxErrorException.class, unknownTable);
        assertEquals("42P01", unknownTable.getSQLState());
        assertTrue(unknownTable.getMessage().contains("line 1, column 15"), unknownTable.getMessage());

        statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(5) NOT NULL)");
        assertEquals("42703", assertThrows(SQLException.class, () -> statement.executeQuery("SELECT nope FROM t"))
                .getSQLState());
        statement.executeUpdate("INSERT INTO t VALUES (1, 'a')");
        SQLException duplicate = assertThrows(SQLException.class, () -> statement.executeUpdate("INSERT INTO t VALUES (1, 'b')"));
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, duplicate);
        assertEquals("23505", duplicate.getSQLState());
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            insert.setInt(1, 2);
            insert.setNull(2, Types.VARCHAR);
            assertEquals("23502", assertThrows(SQLException.class, insert::executeUpdate).getSQLState());
        }
        SQLException division = assertThrows(SQLException.class, () -> {
            try (ResultSet result = statement.executeQuery("SELECT id / 0 FROM t")) {
                result.next();
            }
        });
        assertEquals("22012", division.getSQLState());
        assertEquals(1, count("t"), "failed statements changed nothing");
    }

    @Test
    void maxRowsAndSystemViews() throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY)");
        statement.executeUpdate("INSERT INTO t VALUES (1), (2), (3), (4), (5)");
        statement.setMaxRows(2);
        try (ResultSet result = statement.executeQuery("SELECT id FROM t ORDER BY id")) {
            assertTrue(result.next());
            assertTrue(result.next());
            assertFalse(result.next());
        }
        statement.setMaxRows(0);
        try (ResultSet result = statement.executeQuery("SELECT table_name, row_count FROM sys.tables")) {
            assertTrue(result.next());
            assertEquals("t", result.getString("table_name"));
            assertEquals(5, result.getLong("row_count"));
        }
    }
}
