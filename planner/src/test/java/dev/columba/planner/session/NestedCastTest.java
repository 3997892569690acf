package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cast of an approximate number to a bounded string keeps its truncation inside further casts (Calcite's
 * simplifier took it for lossless and dropped it: the fuzzing campaign's silently wrong answer).
 */
class NestedCastTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE t (f DOUBLE, r REAL, i INT)");
        SessionRows.update(session, "INSERT INTO t VALUES (1e10, 25.5, 123)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    @Test
    void aTruncatingCastOfADoubleToTextSurvivesAnOuterCast() {
        assertEquals(List.of(List.of("1")), SessionRows.query(session, "SELECT CAST(f AS VARCHAR(1)) FROM t"));
        assertEquals(List.of(List.of(new BigDecimal("1.00"))),
                SessionRows.query(session, "SELECT CAST(CAST(f AS VARCHAR(1)) AS DECIMAL(20, 2)) FROM t"));
        assertEquals(List.of(List.of(1.0)), SessionRows.query(session, "SELECT CAST(CAST(f AS VARCHAR(1)) AS DOUBLE) FROM t"));
        assertEquals(List.of(List.of("1.0")),
                SessionRows.query(session, "SELECT CAST(CAST(f AS VARCHAR(3)) AS VARCHAR(10)) FROM t"));
        assertEquals(List.of(List.of("25")), SessionRows.query(session, "SELECT CAST(CAST(r AS CHAR(2)) AS VARCHAR(5)) FROM t"));
        // Casts the simplifier handles rightly are as before.
        assertEquals(List.of(List.of(1)), SessionRows.query(session, "SELECT CAST(CAST(i AS VARCHAR(1)) AS INT) FROM t"));
        assertEquals(List.of(List.of("1.0E10")), SessionRows.query(session, "SELECT CAST(f AS VARCHAR(20)) FROM t"));
        assertEquals(List.of(List.of(1L)), SessionRows.query(session, "SELECT COUNT(*) FROM t WHERE CAST(f AS VARCHAR(1)) = '1'"));
    }
}
