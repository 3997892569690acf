package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session keeps its last statement's allocator, empty, for the next statement: the next one
 * takes it (same limit) or replaces it (another {@code query_memory_limit}); two statements open
 * at once each have their own; an engine closed before its sessions closes what they kept (Arrow's
 * check at the memory's close would throw otherwise).
 */
class KeptStatementAllocatorTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    private static final String POINT = "SELECT v FROM t WHERE id = ?";

    @BeforeEach
    void open() {
        engine = SessionRows.open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT)");
        session.execute("INSERT INTO t SELECT generate_series, CAST(generate_series * 2 AS INT) FROM generate_series(1, 500)");
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void theNextStatementTakesTheKeptAllocator() {
        assertEquals(List.of(List.of(14)), SessionRows.queryWith(session, POINT, 7L));
        BufferAllocator kept = session.keptStatementAllocator();
        assertNotNull(kept, "kept after the statement");
        assertEquals(0, kept.getAllocatedMemory());
        for (long id = 8; id < 20; id++) {
            assertEquals(List.of(List.of((int) id * 2)), SessionRows.queryWith(session, POINT, id));
            assertSame(kept, session.keptStatementAllocator(), "taken and kept again");
        }
        assertEquals(500, SessionRows.query(session, "SELECT v FROM t").size());
        assertSame(kept, session.keptStatementAllocator(), "a scan of every row releases all it allocated too");
    }

    @Test
    void anotherMemoryLimitMakesAnotherAllocator() {
        SessionRows.queryWith(session, POINT, 7L);
        BufferAllocator first = session.keptStatementAllocator();
        assertEquals(2L << 30, first.getLimit());
        session.execute("SET query_memory_limit = '64MB'");
        assertEquals(List.of(List.of(16)), SessionRows.queryWith(session, POINT, 8L));
        BufferAllocator second = session.keptStatementAllocator();
        assertNotSame(first, second);
        assertEquals(64L << 20, second.getLimit());
    }

    @Test
    void twoOpenStatementsHaveTheirOwnAllocators() {
        SessionRows.queryWith(session, POINT, 7L);
        try (StatementResult.Rows first = (StatementResult.Rows) session.execute(POINT, List.of(41L));
             StatementResult.Rows second = (StatementResult.Rows) session.execute(POINT, List.of(43L))) {
            // A point lookup takes an allocator only when its row is read as a batch; an operator tree when it opens.
            assertEquals(1, first.next().selectedCount());
            assertNull(session.keptStatementAllocator(), "the first open statement took it");
            assertEquals(1, second.next().selectedCount());
        }
        assertNotNull(session.keptStatementAllocator(), "one of them kept, the other closed");
    }

    @Test
    void anEngineClosedBeforeItsSessionsClosesTheirAllocators() {
        Session other = engine.openSession();
        SessionRows.queryWith(other, POINT, 9L);
        SessionRows.queryWith(session, POINT, 10L);
        assertNotNull(other.keptStatementAllocator());
        engine.close();
        engine = null;
        other.close();
        session.close();
        session = null;
    }
}
