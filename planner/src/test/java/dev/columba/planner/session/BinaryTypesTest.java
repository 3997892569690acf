package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.queryWith;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * VARBINARY, BINARY and UUID through SQL on each storage kind: the spellings, literals, CAST to and
 * from text, comparison and order (unsigned bytes), GROUP BY, DISTINCT, joins, LENGTH, NULLs, keys,
 * and the 22001 a value too long for its column raises as a string's does.
 */
class BinaryTypesTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String FIRST = "00000000-0000-0000-0000-000000000001";
    private static final String HIGH = "ffffffff-0000-0000-0000-000000000000";

    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private SqlType storedType(String table, int column) {
        CatalogEntry.Table entry = (CatalogEntry.Table) engine.database().catalog()
                .byName(engine.database().bufferPool(), table, new IoCounters()).orElseThrow();
        return entry.schema().column(column).type();
    }

    private static String suffix(String kind) {
        return kind.equals("columnstore") ? " WITH (storage = columnstore)" : "";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "VARBINARY(8) | VARBINARY(8)",
            "VARBINARY | VARBINARY(1073741824)",
            "VARBINARY(MAX) | VARBINARY(1073741824)",
            "BINARY VARYING(3) | VARBINARY(3)",
            "BYTEA | VARBINARY(1073741824)",
            "BINARY(4) | BINARY(4)",
            "BINARY | BINARY(1)",
            "UUID | UUID",
            "UNIQUEIDENTIFIER | UUID",
            "uniqueidentifier | UUID"})
    void aSpellingIsStoredAsTheTypeItMeans(String spelling, String stored) {
        session.execute("CREATE TABLE t (c " + spelling + ")");
        assertEquals(stored, storedType("t", 0).sqlName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"heap", "clustered", "columnstore"})
    void valuesRoundTripCompareAndSortAsUnsignedBytes(String kind) {
        session.execute("CREATE TABLE t (id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", b VARBINARY(4), f BINARY(3), u UUID)" + suffix(kind));
        update(session, "INSERT INTO t VALUES (1, X'00', X'01', '" + FIRST + "'), (2, X'ff', 0xff, '" + HIGH + "'),"
                + " (3, X'', X'0102', '{" + FIRST.toUpperCase() + "}'), (4, NULL, NULL, NULL), (5, 0x7F00, 0x1, '"
                + FIRST.replace("-", "") + "'), (6, X'0000', X'', '" + HIGH + "')");
        assertEquals(List.of(
                        List.of(3, "", "010200", FIRST),
                        List.of(1, "00", "010000", FIRST),
                        List.of(6, "0000", "000000", HIGH),
                        List.of(5, "7f00", "010000", FIRST),
                        List.of(2, "ff", "ff0000", HIGH)),
                query(session, "SELECT id, CAST(b AS VARCHAR(20)), CAST(f AS VARCHAR(20)), CAST(u AS VARCHAR(36))"
                        + " FROM t WHERE b IS NOT NULL ORDER BY b"));
        // Unsigned: 0xff sorts after 0x7f00; a prefix before its extensions; BINARY padded with zeros.
        assertEquals(List.of(List.of(2), List.of(5)), query(session, "SELECT id FROM t WHERE b > X'7e' ORDER BY id"));
        // A BINARY(3) column holds its values padded: X'01' is stored as X'010000' and compares so (as in H2).
        assertEquals(List.of(List.of(1), List.of(5)), query(session, "SELECT id FROM t WHERE f = X'010000' ORDER BY id"));
        assertEquals(List.of(), query(session, "SELECT id FROM t WHERE f = X'01'"));
        assertEquals(List.of(List.of(2), List.of(6)), query(session, "SELECT id FROM t WHERE u = UUID '" + HIGH + "' ORDER BY id"));
        assertEquals(List.of(List.of(4)), query(session, "SELECT id FROM t WHERE b IS NULL"));
        assertEquals(List.of(List.of(FIRST, 3L), List.of(HIGH, 2L)),
                query(session, "SELECT CAST(u AS VARCHAR(36)), COUNT(*) FROM t WHERE u IS NOT NULL GROUP BY u ORDER BY u"));
        assertEquals(List.of(List.of(2L)), query(session, "SELECT COUNT(*) FROM (SELECT DISTINCT u FROM t WHERE u IS NOT NULL) d"));
        assertEquals(List.of(List.of(4L)), query(session, "SELECT COUNT(DISTINCT f) FROM t"));
        Object[] maxima = query(session, "SELECT MIN(b), MAX(b), MAX(u) FROM t").getFirst().toArray();
        assertArrayEquals(new byte[0], (byte[]) maxima[0]);
        assertArrayEquals(new byte[] {(byte) 0xff}, (byte[]) maxima[1]);
        assertEquals(UUID.fromString(HIGH), maxima[2]);
        assertEquals(List.of(List.of(1, 3), List.of(1, 5), List.of(3, 1), List.of(3, 5), List.of(5, 1), List.of(5, 3)),
                query(session, "SELECT x.id, y.id FROM t x JOIN t y ON x.u = y.u AND x.id <> y.id AND x.u < UUID '" + HIGH
                        + "' ORDER BY 1, 2"));
        // A binary string's length is its bytes, BINARY's padding included.
        List<List<Object>> lengths = query(session, "SELECT id, OCTET_LENGTH(b), OCTET_LENGTH(f)"
                + " FROM t WHERE id IN (3, 4, 5) ORDER BY id");
        assertEquals(List.of(List.of(3, 0, 3), java.util.Arrays.asList(4, null, null), List.of(5, 2, 3)), lengths);
    }

    @ParameterizedTest
    @ValueSource(strings = {"heap", "clustered", "columnstore"})
    void aValueTooLongForItsColumnIs22001(String kind) {
        session.execute("CREATE TABLE t (id INT NOT NULL" + (kind.equals("clustered") ? " PRIMARY KEY" : "")
                + ", b VARBINARY(2), f BINARY(2))" + suffix(kind));
        ColumbaException varbinary = assertThrows(ColumbaException.class,
                () -> session.execute("INSERT INTO t VALUES (1, X'010203', NULL)"));
        assertEquals(ErrorCode.STRING_TOO_LONG, varbinary.errorCode());
        ColumbaException binary = assertThrows(ColumbaException.class,
                () -> session.execute("INSERT INTO t VALUES (1, NULL, 0x010203)"));
        assertEquals(ErrorCode.STRING_TOO_LONG, binary.errorCode());
        ColumbaException parameter = assertThrows(ColumbaException.class,
                () -> queryWith(session, "INSERT INTO t (id, b) VALUES (1, ?) RETURNING id", (Object) new byte[3]));
        assertEquals(ErrorCode.STRING_TOO_LONG, parameter.errorCode());
        assertEquals(List.of(List.of(0L)), query(session, "SELECT COUNT(*) FROM t"));
        update(session, "INSERT INTO t VALUES (1, X'0102', X'01')");
        assertEquals(List.of(List.of("0102", "0100")), query(session, "SELECT CAST(b AS VARCHAR(8)), CAST(f AS VARCHAR(8)) FROM t"));
    }

    @Test
    void castsReadAndWriteHexadecimalAndUuidText() {
        assertEquals(List.of(List.of("0aff", "0aff", "0aff", "00ff")),
                query(session, "SELECT CAST(CAST('0AFF' AS VARBINARY(4)) AS VARCHAR(8)), CAST(CAST('0x0aff' AS VARBINARY) AS VARCHAR(8)),"
                        + " CAST(CAST('\\x0aff' AS VARBINARY) AS VARCHAR(8)), CAST(0x0ff AS VARCHAR(8))"));
        assertEquals(List.of(List.of(UUID.fromString(FIRST), FIRST)),
                query(session, "SELECT CAST('" + FIRST.toUpperCase() + "' AS UUID), CAST(UUID '" + FIRST + "' AS VARCHAR(36))"));
        assertEquals(List.of(List.of(UUID.fromString(FIRST), "00000000000000000000000000000001")),
                query(session, "SELECT CAST(X'00000000000000000000000000000001' AS UUID),"
                        + " CAST(CAST(UUID '" + FIRST + "' AS VARBINARY(16)) AS VARCHAR(32))"));
        ColumbaException notHex = assertThrows(ColumbaException.class,
                () -> query(session, "SELECT CAST('0xZZ' AS VARBINARY(4))"));
        assertEquals(ErrorCode.INVALID_CAST, notHex.errorCode());
        ColumbaException notUuid = assertThrows(ColumbaException.class,
                () -> query(session, "SELECT CAST('1-2-3-4-5' AS UUID)"));
        assertEquals(ErrorCode.INVALID_CAST, notUuid.errorCode());
        ColumbaException shortBytes = assertThrows(ColumbaException.class,
                () -> query(session, "SELECT CAST(X'0102' AS UUID)"));
        assertEquals(ErrorCode.INVALID_CAST, shortBytes.errorCode());
    }

    @Test
    void parametersBindBytesAndUuids() {
        session.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, b VARBINARY(8), u UUID)");
        UUID uuid = UUID.randomUUID();
        byte[] bytes = HEX.parseHex("00ff10");
        queryWith(session, "INSERT INTO t VALUES (?, ?, ?) RETURNING id", 1, bytes, uuid);
        queryWith(session, "INSERT INTO t VALUES (?, ?, ?) RETURNING id", 2, "0a0b", uuid.toString());
        List<List<Object>> rows = queryWith(session, "SELECT id, b FROM t WHERE u = ? ORDER BY id", uuid);
        assertEquals(2, rows.size());
        assertArrayEquals(bytes, (byte[]) rows.get(0).get(1));
        assertArrayEquals(HEX.parseHex("0a0b"), (byte[]) rows.get(1).get(1));
        assertEquals(List.of(List.of(1)), queryWith(session, "SELECT id FROM t WHERE b = ?", (Object) bytes));
    }

    @ParameterizedTest
    @ValueSource(strings = {"VARBINARY(8)", "BINARY(4)", "UUID"})
    void keysOfTheseTypesSeekAndStayUnique(String type) {
        session.execute("CREATE TABLE k (c " + type + " NOT NULL PRIMARY KEY, v INT)");
        session.execute("CREATE INDEX kv ON k (v)");
        String[] keys = type.equals("UUID")
                ? new String[] {"UUID '" + FIRST + "'", "UUID '" + HIGH + "'", "UUID '00000000-0000-0000-0000-000000000000'"}
                : type.equals("BINARY(4)") ? new String[] {"X'01000000'", "X'ff000000'", "X'00010000'"}
                : new String[] {"X'01'", "X'ff'", "X'0001'"};
        for (int index = 0; index < keys.length; index++) {
            update(session, "INSERT INTO k VALUES (" + keys[index] + ", " + index + ")");
        }
        ColumbaException duplicate = assertThrows(ColumbaException.class,
                () -> session.execute("INSERT INTO k VALUES (" + keys[1] + ", 9)"));
        assertEquals(ErrorCode.DUPLICATE_KEY, duplicate.errorCode());
        assertEquals(List.of(List.of(1)), query(session, "SELECT v FROM k WHERE c = " + keys[1]));
        assertEquals(List.of(List.of(2), List.of(0), List.of(1)), query(session, "SELECT v FROM k ORDER BY c"));
        assertEquals(List.of(List.of(0), List.of(1)), query(session, "SELECT v FROM k WHERE c > " + keys[2] + " ORDER BY c"));
    }
}
