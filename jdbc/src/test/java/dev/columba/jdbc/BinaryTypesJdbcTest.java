package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * VARBINARY, BINARY and UUID through JDBC: setBytes/getBytes and binary streams, UUID objects both
 * ways, the metadata of the columns, and COPY of hexadecimal and UUID text, on a rowstore and a
 * columnstore table.
 */
class BinaryTypesJdbcTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final UUID FIRST = UUID.fromString("0b9e3f0a-6c1d-4a57-9a5e-2f1c3d4e5f60");
    private static final UUID SECOND = UUID.fromString("f0000000-0000-4000-8000-000000000001");

    @TempDir
    Path directory;

    private Connection connection;
    private Statement statement;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:columba:" + directory.resolve("db"), DriverTest.small());
        statement = connection.createStatement();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void createTable(String storage) throws SQLException {
        statement.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, b VARBINARY(8), f BINARY(4), u UUID)"
                + (storage.equals("columnstore") ? " WITH (storage = columnstore)" : ""));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void bytesAndUuidsRoundTrip(String storage) throws SQLException {
        createTable(storage);
        byte[] bytes = HEX.parseHex("00ff10");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?)")) {
            insert.setInt(1, 1);
            insert.setBytes(2, bytes);
            insert.setBytes(3, new byte[] {7});
            insert.setObject(4, FIRST);
            insert.executeUpdate();
            insert.setInt(1, 2);
            insert.setBinaryStream(2, new ByteArrayInputStream(HEX.parseHex("0102")));
            insert.setObject(3, HEX.parseHex("01020304"), Types.BINARY);
            insert.setObject(4, SECOND.toString());
            insert.executeUpdate();
            insert.setInt(1, 3);
            insert.setNull(2, Types.VARBINARY);
            insert.setNull(3, Types.BINARY);
            insert.setNull(4, Types.OTHER);
            insert.executeUpdate();
        }
        bytes[0] = 42; // the driver bound a copy
        try (PreparedStatement select = connection.prepareStatement("SELECT id, b, f, u FROM t WHERE u = ? OR b = ? ORDER BY id")) {
            select.setObject(1, FIRST);
            select.setBytes(2, HEX.parseHex("0102"));
            try (ResultSet rows = select.executeQuery()) {
                assertTrue(rows.next());
                assertArrayEquals(HEX.parseHex("00ff10"), rows.getBytes(2));
                assertArrayEquals(HEX.parseHex("07000000"), rows.getBytes(3), "BINARY(4) pads with zero bytes");
                assertEquals(FIRST, rows.getObject(4));
                assertEquals(FIRST, rows.getObject(4, UUID.class));
                assertEquals(FIRST.toString(), rows.getString(4));
                assertEquals("00ff10", rows.getString(2), "a binary string's text is its hexadecimal digits");
                assertArrayEquals(HEX.parseHex("00ff10"), rows.getObject(2, byte[].class));
                assertArrayEquals(HEX.parseHex("00ff10"), rows.getBinaryStream(2).readAllBytes());
                assertTrue(rows.next());
                assertEquals(2, rows.getInt(1));
                assertArrayEquals(HEX.parseHex("01020304"), (byte[]) rows.getObject(3));
                assertArrayEquals(Values16.of(SECOND), rows.getBytes(4), "a UUID's bytes, most significant first");
                assertFalse(rows.next());
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        try (ResultSet nulls = statement.executeQuery("SELECT b, f, u FROM t WHERE id = 3")) {
            assertTrue(nulls.next());
            assertNull(nulls.getBytes(1));
            assertNull(nulls.getBytes(2));
            assertNull(nulls.getObject(3, UUID.class));
            assertTrue(nulls.wasNull());
        }
        try (PreparedStatement tooLong = connection.prepareStatement("INSERT INTO t (id, b) VALUES (4, ?)")) {
            tooLong.setBytes(1, new byte[9]);
            assertEquals("22001", assertThrows(SQLException.class, tooLong::executeUpdate).getSQLState());
        }
    }

    @Test
    void metadataNamesTheTypes() throws SQLException {
        createTable("rowstore");
        try (ResultSet rows = statement.executeQuery("SELECT b, f, u FROM t")) {
            ResultSetMetaData metadata = rows.getMetaData();
            assertEquals(Types.VARBINARY, metadata.getColumnType(1));
            assertEquals("VARBINARY", metadata.getColumnTypeName(1));
            assertEquals(8, metadata.getPrecision(1));
            assertEquals(byte[].class.getName(), metadata.getColumnClassName(1));
            assertEquals(Types.BINARY, metadata.getColumnType(2));
            assertEquals(4, metadata.getPrecision(2));
            assertEquals(Types.OTHER, metadata.getColumnType(3));
            assertEquals("UUID", metadata.getColumnTypeName(3));
            assertEquals(UUID.class.getName(), metadata.getColumnClassName(3));
        }
        try (ResultSet columns = connection.getMetaData().getColumns(null, null, "T", "U")) {
            assertTrue(columns.next());
            assertEquals(Types.OTHER, columns.getInt("DATA_TYPE"));
            assertEquals("UUID", columns.getString("TYPE_NAME"));
        }
        boolean varbinary = false;
        try (ResultSet types = connection.getMetaData().getTypeInfo()) {
            while (types.next()) {
                varbinary |= types.getInt("DATA_TYPE") == Types.VARBINARY && "X'".equals(types.getString("LITERAL_PREFIX"));
            }
        }
        assertTrue(varbinary, "getTypeInfo lists VARBINARY with its X'' literal");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void copyReadsHexadecimalAndUuidText(String storage) throws Exception {
        createTable(storage);
        Path file = Files.writeString(directory.resolve("binary.csv"),
                "1,0aff,\\x01,{" + FIRST.toString().toUpperCase() + "}\n2,,0x0102,\n3,00,,"
                        + SECOND.toString().replace("-", "") + "\n", StandardCharsets.UTF_8);
        assertEquals(3, statement.executeUpdate("COPY t FROM '" + file + "' (FORMAT csv)"));
        try (ResultSet rows = statement.executeQuery("SELECT b, f, u FROM t ORDER BY id")) {
            assertTrue(rows.next());
            assertArrayEquals(HEX.parseHex("0aff"), rows.getBytes(1));
            assertArrayEquals(HEX.parseHex("01000000"), rows.getBytes(2));
            assertEquals(FIRST, rows.getObject(3));
            assertTrue(rows.next());
            assertNull(rows.getBytes(1), "an empty unquoted field is NULL");
            assertArrayEquals(HEX.parseHex("01020000"), rows.getBytes(2));
            assertNull(rows.getObject(3));
            assertTrue(rows.next());
            assertEquals(SECOND, rows.getObject(3));
        }
        Path tooLong = Files.writeString(directory.resolve("long.csv"), "9,000102030405060708,,\n", StandardCharsets.UTF_8);
        assertEquals("22001", assertThrows(SQLException.class,
                () -> statement.executeUpdate("COPY t FROM '" + tooLong + "' (FORMAT csv)")).getSQLState());
        Path notHex = Files.writeString(directory.resolve("bad.csv"), "9,xyz,,\n", StandardCharsets.UTF_8);
        assertEquals("22018", assertThrows(SQLException.class,
                () -> statement.executeUpdate("COPY t FROM '" + notHex + "' (FORMAT csv)")).getSQLState());
    }

    /** A UUID's 16 bytes as the test expects them, written apart from the driver. */
    private static final class Values16 {
        static byte[] of(UUID uuid) {
            return java.nio.ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                    .putLong(uuid.getLeastSignificantBits()).array();
        }
    }
}
