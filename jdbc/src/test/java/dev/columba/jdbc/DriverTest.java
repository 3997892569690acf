package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.planner.session.Engine;
import dev.columba.planner.session.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** URLs, registration, properties, and the one shared, reference-counted engine per database. */
class DriverTest {
    @TempDir
    Path directory;

    static Properties small() {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return properties;
    }

    private String url() {
        return "jdbc:columba:" + directory.resolve("db");
    }

    @Test
    void serviceLoaderAndDriverManagerFindTheDriver() throws SQLException {
        assertTrue(ServiceLoader.load(Driver.class).stream().anyMatch(provider -> provider.type() == ColumbaDriver.class));
        Driver driver = DriverManager.getDriver(url());
        assertInstanceOf(ColumbaDriver.class, driver);
        assertTrue(driver.acceptsURL("jdbc:columba:mem:x"));
        assertFalse(driver.acceptsURL("jdbc:h2:mem:x"));
        assertNull(driver.connect("jdbc:h2:mem:x", new Properties()), "other drivers' URLs are not ours");
        assertEquals(Version.CURRENT.major(), driver.getMajorVersion());
        assertFalse(driver.jdbcCompliant());
        DriverPropertyInfo[] properties = driver.getPropertyInfo(url(), small());
        assertEquals(StandardSettings.ALL.size(), properties.length);
        DriverPropertyInfo bufferPool = Arrays.stream(properties).filter(p -> p.name.equals("buffer_pool_size")).findFirst()
                .orElseThrow();
        assertEquals("16MB", bufferPool.value);
        DriverPropertyInfo batchSize = Arrays.stream(properties).filter(p -> p.name.equals("batch_size")).findFirst()
                .orElseThrow();
        assertEquals("4096", batchSize.value);
    }

    @Test
    void aDirectoryDatabaseIsCreatedOnFirstOpenAndKeepsItsTables() throws SQLException {
        Properties properties = small();
        properties.setProperty("user", "sa");
        properties.setProperty("password", "ignored");
        try (Connection connection = DriverManager.getConnection(url(), properties);
             Statement statement = connection.createStatement()) {
            assertTrue(Files.isDirectory(directory.resolve("db")));
            assertEquals(16L << 20, connection.unwrap(Engine.class).globalSettings().get(StandardSettings.BUFFER_POOL_SIZE));
            assertFalse(statement.execute("CREATE TABLE kept (id INT NOT NULL PRIMARY KEY)"));
        }
        try (Connection connection = DriverManager.getConnection(url(), small());
             ResultSet tables = connection.getMetaData().getTables(null, null, "kept", null)) {
            assertTrue(tables.next());
            assertEquals("kept", tables.getString("TABLE_NAME"));
        }
    }

    @Test
    void connectionsToOneDatabaseShareItsEngineAndTheLastOneClosesIt() throws SQLException {
        DatabaseLocation location = DatabaseLocation.parse(url());
        Connection first = DriverManager.getConnection(url(), small());
        Connection second = DriverManager.getConnection(url());
        Engine engine = first.unwrap(Engine.class);
        assertSame(engine, second.unwrap(Engine.class));
        assertEquals(2, engine.openSessions());
        assertEquals(2, EngineRegistry.INSTANCE.connections(location));
        assertNotSame(first.unwrap(Session.class), second.unwrap(Session.class));

        first.createStatement().execute("CREATE TABLE shared (id INT)");
        try (ResultSet tables = second.getMetaData().getTables(null, null, "SHARED", null)) {
            assertTrue(tables.next(), "the second connection sees the first one's committed table");
        }

        first.close();
        assertTrue(first.isClosed());
        assertEquals(1, engine.openSessions());
        assertTrue(second.isValid(0));
        second.createStatement().execute("DROP TABLE shared");
        second.close();
        assertEquals(0, EngineRegistry.INSTANCE.connections(location));
        ColumbaException closed = assertThrows(ColumbaException.class, () -> engine.database().begin());
        assertEquals(ErrorCode.DATABASE_CLOSED, closed.errorCode());

        try (Connection reopened = DriverManager.getConnection(url(), small())) {
            assertNotSame(engine, reopened.unwrap(Engine.class), "closing the last connection closed the engine");
            assertFalse(reopened.getMetaData().getTables(null, null, "shared", null).next());
        }
    }

    @Test
    void memoryDatabasesAreSharedByNameAndDeletedWithTheLastConnection() throws SQLException {
        String name = "jdbc:columba:mem:shared-" + System.nanoTime();
        Connection first = DriverManager.getConnection(name, small());
        Connection second = DriverManager.getConnection(name, small());
        Connection other = DriverManager.getConnection(name + "-other", small());
        Engine engine = first.unwrap(Engine.class);
        assertSame(engine, second.unwrap(Engine.class));
        assertNotSame(engine, other.unwrap(Engine.class));
        Path files = engine.database().directory();
        assertTrue(Files.isDirectory(files));

        first.createStatement().execute("CREATE TABLE t (id INT)");
        assertTrue(second.getMetaData().getTables(null, null, "t", null).next());
        assertFalse(other.getMetaData().getTables(null, null, "t", null).next());
        other.close();
        first.close();
        assertTrue(Files.isDirectory(files), "one connection still uses it");
        second.close();
        assertFalse(Files.exists(files), "the temporary database is deleted with its last connection");

        try (Connection fresh = DriverManager.getConnection(name, small())) {
            assertFalse(fresh.getMetaData().getTables(null, null, "t", null).next(), "a new temporary database is empty");
        }
    }

    @Test
    void propertiesMustBeSettingsWithValidValues() {
        Properties unknown = small();
        unknown.setProperty("bogus", "1");
        SQLException unknownSetting = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(), unknown));
        assertEquals("42704", unknownSetting.getSQLState());
        assertEquals(ErrorCode.UNKNOWN_SETTING.code(), unknownSetting.getErrorCode());
        assertTrue(unknownSetting.getMessage().contains("bogus"), unknownSetting.getMessage());

        Properties bad = small();
        bad.setProperty("batch_size", "many");
        SQLException badValue = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(), bad));
        assertEquals("22023", badValue.getSQLState());
        assertTrue(badValue.getMessage().contains("'many'"), badValue.getMessage());
        assertFalse(Files.exists(directory.resolve("db")), "nothing was opened for bad properties");
    }

    @Test
    void aJoiningConnectionGetsItsSessionSettingsButCannotChangeStartupOnes() throws SQLException {
        try (Connection first = DriverManager.getConnection(url(), small())) {
            Properties readAheadOff = new Properties();
            readAheadOff.setProperty("read_ahead", "off");
            try (Connection second = DriverManager.getConnection(url(), readAheadOff)) {
                assertEquals(false, second.unwrap(Session.class).settings().get(StandardSettings.READ_AHEAD));
                assertEquals(true, first.unwrap(Session.class).settings().get(StandardSettings.READ_AHEAD));
            }
            Properties biggerPool = new Properties();
            biggerPool.setProperty("buffer_pool_size", "32MB");
            SQLException startup = assertThrows(SQLException.class, () -> DriverManager.getConnection(url(), biggerPool));
            assertEquals("55P02", startup.getSQLState());
            assertTrue(startup.getMessage().contains("buffer_pool_size = 16MB"), startup.getMessage());
            assertEquals(1, first.unwrap(Engine.class).openSessions(), "the refused connection left nothing open");
            try (Connection same = DriverManager.getConnection(url(), small())) {
                assertTrue(same.isValid(1), "the same startup value is fine");
            }
        }
    }

    @Test
    void badUrlsAreConnectionErrors() {
        for (String url : new String[] {"jdbc:columba:", "jdbc:columba:mem:", "jdbc:columba:mem:  "}) {
            SQLException error = assertThrows(SQLException.class, () -> DriverManager.getConnection(url), url);
            assertEquals("08001", error.getSQLState(), url);
        }
    }

    @Test
    void createFalseMakesAMissingDatabaseAnErrorAndCreatesNothing() throws SQLException {
        for (String url : new String[] {url() + ";create=false", "jdbc:columba:mem:nobody;create=false"}) {
            SQLException missing = assertThrows(SQLException.class, () -> DriverManager.getConnection(url, small()), url);
            assertEquals("08001", missing.getSQLState(), url);
            assertTrue(missing.getMessage().contains("create=false"), missing.getMessage());
        }
        Properties notCreating = small();
        notCreating.setProperty("create", "false");
        assertThrows(SQLException.class, () -> DriverManager.getConnection(url(), notCreating));
        assertFalse(Files.exists(directory.resolve("db")), "create=false left no directory behind");

        try (Connection created = DriverManager.getConnection(url(), small())) {
            assertTrue(created.isValid(1));
        }
        try (Connection existing = DriverManager.getConnection(url() + ";create=false", small())) {
            assertTrue(existing.isValid(1), "an existing database opens with create=false");
        }
        SQLException badValue = assertThrows(SQLException.class, () -> DriverManager.getConnection(url() + ";create=maybe"));
        assertEquals("08001", badValue.getSQLState());
    }

    @Test
    void urlPropertiesAreSettingsLikeConnectionProperties() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url() + ";buffer_pool_size=16MB;READ_AHEAD=off")) {
            assertEquals(false, connection.unwrap(Session.class).settings().get(StandardSettings.READ_AHEAD));
            assertEquals(16L << 20, connection.unwrap(Session.class).settings().get(StandardSettings.BUFFER_POOL_SIZE));
        }
        SQLException unknown = assertThrows(SQLException.class, () -> DriverManager.getConnection(url() + ";bogus=1"));
        assertEquals("42704", unknown.getSQLState());
        Properties other = new Properties();
        other.setProperty("read_ahead", "on");
        SQLException twice = assertThrows(SQLException.class, () -> DriverManager.getConnection(url() + ";read_ahead=off", other));
        assertEquals("08001", twice.getSQLState());
        assertTrue(twice.getMessage().contains("read_ahead is off in the URL and on in the properties"), twice.getMessage());
        SQLException noValue = assertThrows(SQLException.class, () -> DriverManager.getConnection(url() + ";read_ahead"));
        assertEquals("08001", noValue.getSQLState());
    }

    @Test
    void aDataSourceOpensConnectionsLikeTheDriver() throws SQLException {
        ColumbaDataSource source = new ColumbaDataSource();
        assertEquals("08001", assertThrows(SQLException.class, source::getConnection).getSQLState());
        source.setUrl(url());
        source.setProperty("buffer_pool_size", "16MB");
        source.setProperty("max_dop", "1");
        try (Connection first = source.getConnection(); Connection second = source.getConnection("anyone", "anything");
             Statement statement = first.createStatement()) {
            statement.execute("CREATE TABLE t (id INT)");
            statement.execute("INSERT INTO t VALUES (1), (2)");
            try (ResultSet rows = second.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
            }
            assertSame(first.unwrap(Engine.class), second.unwrap(Engine.class), "one engine per database");
            assertEquals(1, first.unwrap(Session.class).settings().get(StandardSettings.MAX_DOP));
        }
        assertTrue(source.isWrapperFor(javax.sql.DataSource.class));
    }
}
