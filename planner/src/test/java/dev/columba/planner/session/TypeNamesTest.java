package dev.columba.planner.session;

import static dev.columba.planner.session.SessionRows.query;
import static dev.columba.planner.session.SessionRows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The type names of SQL Server, PostgreSQL and DuckDB, each spelling stored as the Columba type it
 * means, usable in CAST too; the ones Columba has no storage for fail with 42804 (the binary and
 * UUID spellings: BinaryTypesTest).
 */
class TypeNamesTest {
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

    private SqlType storedType(String table) {
        CatalogEntry.Table entry = (CatalogEntry.Table) engine.database().catalog()
                .byName(engine.database().bufferPool(), table, new IoCounters()).orElseThrow();
        return entry.schema().column(0).type();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "TEXT | VARCHAR",
            "text | VARCHAR",
            "NTEXT | VARCHAR",
            "STRING | VARCHAR",
            "VARCHAR | VARCHAR",
            "VARCHAR(MAX) | VARCHAR",
            "NVARCHAR(MAX) | VARCHAR",
            "FLOAT | DOUBLE",
            "FLOAT(24) | DOUBLE",
            "FLOAT(53) | DOUBLE",
            "REAL | DOUBLE",
            "DOUBLE | DOUBLE",
            "DOUBLE PRECISION | DOUBLE",
            "FLOAT4 | DOUBLE",
            "FLOAT8 | DOUBLE",
            "BOOLEAN | BOOLEAN",
            "BOOL | BOOLEAN",
            "BIT | BOOLEAN",
            "INT2 | INT",
            "INT4 | INT",
            "INT8 | BIGINT",
            "SMALLINT | INT"})
    void aSpellingIsStoredAsTheTypeItMeans(String spelling, String stored) {
        session.execute("CREATE TABLE t (c " + spelling + ")");
        SqlType type = storedType("t");
        assertTrue(type.sqlName().startsWith(stored), spelling + " stored as " + type.sqlName());
        if (stored.equals("VARCHAR")) {
            assertEquals(SqlType.varchar(SqlType.VarcharType.MAX_LENGTH), type, "no declared length, as VARCHAR");
        }
    }

    @Test
    void textColumnsHoldLongStringsAndNulls() {
        session.execute("CREATE TABLE notes (id INT PRIMARY KEY, body TEXT, title STRING NOT NULL)");
        String body = "x".repeat(20_000);
        update(session, "INSERT INTO notes VALUES (1, '" + body + "', 'long'), (2, NULL, 'none')");
        assertEquals(List.of(List.of(1, 20_000), Arrays.asList(2, null)),
                query(session, "SELECT id, CHAR_LENGTH(body) FROM notes ORDER BY id"));
        ColumbaException notNull = assertThrows(ColumbaException.class,
                () -> update(session, "INSERT INTO notes VALUES (3, 'b', NULL)"));
        assertEquals("23502", notNull.errorCode().sqlState(), notNull.getMessage());
    }

    @Test
    void castTakesTheSpellingsToo() {
        assertEquals(List.of(Arrays.asList("12", 2.5, 2.5, true, 7L, null)), query(session,
                "SELECT CAST(12 AS TEXT), CAST('2.5' AS FLOAT8), CAST('2.5' AS FLOAT(24)), CAST(1 AS BOOL),"
                        + " CAST(7 AS INT8), CAST(NULL AS STRING)"));
    }

    @Test
    void floatColumnsKeepDoubles() {
        session.execute("CREATE TABLE f (id INT PRIMARY KEY, a FLOAT, b REAL, c DOUBLE PRECISION, d FLOAT4)");
        update(session, "INSERT INTO f VALUES (1, 0.5, 1.25, -2.5e10, NULL)");
        assertEquals(List.of(Arrays.asList(0.5, 1.25, -2.5e10, null)), query(session, "SELECT a, b, c, d FROM f"));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 54})
    void aFloatPrecisionOutside1To53IsRefused(int bits) {
        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> session.execute("CREATE TABLE t (c FLOAT(" + bits + "))"));
        assertEquals(ErrorCode.SYNTAX_ERROR, refused.errorCode(), refused.getMessage());
        assertTrue(refused.getMessage().contains("FLOAT precision must be from 1 to 53, was " + bits), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"TIME", "TIME(3)"})
    void typesWithoutStorageAreRefusedWith42804(String spelling) {
        ColumbaException refused = assertThrows(ColumbaException.class,
                () -> session.execute("CREATE TABLE t (c " + spelling + ")"));
        assertEquals(ErrorCode.WRONG_TYPE, refused.errorCode(), refused.getMessage());
        assertEquals("42804", refused.errorCode().sqlState());
    }

    @Test
    void theNewTypeNamesStayUsableAsColumnNames() {
        session.execute("CREATE TABLE words (text INT, string INT, bool INT, float8 INT, ntext INT, bytea INT,"
                + " uniqueidentifier INT)");
        update(session, "INSERT INTO words VALUES (1, 2, 3, 4, 5, 6, 7)");
        assertEquals(List.of(List.of(1, 2, 3, 4, 5, 6, 7)),
                query(session, "SELECT text, string, bool, float8, ntext, bytea, uniqueidentifier FROM words"));
    }
}
