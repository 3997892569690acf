package dev.columba.planner.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.plan.QueryPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code delayed_durability} setting through SQL (docs/design/storage.md, "Delayed
 * durability"): off by default, on per session with SET or for the database with ALTER
 * SYSTEM SET (kept across a reopen), DDL always full, {@code EXEC sys.sp_flush_log}, and
 * {@code sys.log_stats}, which counts commits by durability. What a crash keeps is tested in
 * storage ({@code DelayedDurabilityTest}, {@code DelayedDurabilityCrashTest}).
 */
class CommitDurabilityTest {
    @TempDir
    Path directory;

    private Engine engine;
    private Session session;

    @BeforeEach
    void open() {
        engine = open(directory);
        session = engine.openSession();
        session.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v INT NOT NULL)");
    }

    @AfterEach
    void close() {
        session.close();
        engine.close();
    }

    private static Engine open(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    /** Full and delayed commits so far, from sys.log_stats. */
    private static List<Long> commits(Session on) {
        List<Object> row = SessionRows.query(on, "SELECT full_commits, delayed_commits FROM sys.log_stats").getFirst();
        return List.of((Long) row.get(0), (Long) row.get(1));
    }

    /** Full and delayed commits since {@code before}. */
    private static List<Long> since(Session on, List<Long> before) {
        List<Long> now = commits(on);
        return List.of(now.get(0) - before.get(0), now.get(1) - before.get(1));
    }

    @Test
    void commitsAreFullByDefaultAndDelayedOnlyInTheSessionThatAsks() {
        List<Long> before = commits(session);
        session.execute("INSERT INTO t VALUES (1, 1)");
        assertEquals(List.of(1L, 0L), since(session, before), "full by default");

        session.execute("SET delayed_durability = on");
        before = commits(session);
        session.execute("INSERT INTO t VALUES (2, 2)");
        session.execute("UPDATE t SET v = 20 WHERE id = 2");
        assertEquals(List.of(0L, 2L), since(session, before));

        try (Session other = engine.openSession()) {
            before = commits(other);
            other.execute("INSERT INTO t VALUES (3, 3)");
            assertEquals(List.of(1L, 0L), since(other, before), "another session keeps the default");
            assertEquals(List.of(List.of(1L, 1), List.of(2L, 20), List.of(3L, 3)),
                    SessionRows.query(other, "SELECT id, v FROM t ORDER BY id"), "a delayed commit is visible at once");
        }

        session.execute("SET delayed_durability = off");
        before = commits(session);
        session.execute("INSERT INTO t VALUES (4, 4)");
        assertEquals(List.of(1L, 0L), since(session, before));
    }

    @Test
    void ddlCommitsFullEvenInADelayedSessionAndAnExplicitTransactionFollowsTheSetting() {
        session.execute("SET delayed_durability = on");
        List<Long> before = commits(session);
        session.execute("CREATE TABLE u (id INT PRIMARY KEY)");
        assertEquals(List.of(1L, 0L), since(session, before), "DDL is never delayed");

        session.setAutoCommit(false);
        before = commits(session);
        session.execute("INSERT INTO t VALUES (10, 10)");
        session.execute("INSERT INTO u VALUES (10)");
        session.commit();
        assertEquals(List.of(0L, 1L), since(session, before), "one delayed commit for the transaction");

        before = commits(session);
        session.execute("INSERT INTO t VALUES (11, 11)");
        session.execute("CREATE TABLE w (id INT PRIMARY KEY)");
        session.commit();
        assertEquals(List.of(1L, 0L), since(session, before), "a transaction that ran DDL commits full");
        session.setAutoCommit(true);
    }

    @Test
    void flushLogMakesEverythingDurable() {
        session.execute("SET delayed_durability = on");
        session.execute("INSERT INTO t VALUES (1, 1)");
        session.execute("EXEC sys.sp_flush_log");
        List<Object> log = SessionRows.query(session, "SELECT end_lsn, durable_lsn FROM sys.log_stats").getFirst();
        assertEquals(log.get(0), log.get(1), "durable up to the end of the log");
        session.execute("EXECUTE sp_flush_log");

        ColumbaException unknown = assertThrows(ColumbaException.class, () -> session.execute("EXEC sys.sp_who"));
        assertEquals(ErrorCode.OBJECT_NOT_FOUND, unknown.errorCode());
        assertEquals("[OBJECT_NOT_FOUND] unknown procedure sys.sp_who; Columba has sys.sp_flush_log",
                unknown.getMessage());
    }

    @Test
    void aBadValueIsRejectedByTheSet() {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> session.execute("SET delayed_durability = sometimes"));
        assertEquals(ErrorCode.INVALID_SETTING_VALUE, error.errorCode());
        assertEquals("[INVALID_SETTING_VALUE] invalid value 'sometimes' for setting delayed_durability: expected ON"
                + " or OFF", error.getMessage());
    }

    @Test
    void theDatabaseDefaultIsStoredAndKeptAcrossAReopen() {
        session.execute("ALTER SYSTEM SET delayed_durability = on");
        try (Session other = engine.openSession()) {
            List<Long> before = commits(other);
            other.execute("INSERT INTO t VALUES (1, 1)");
            assertEquals(List.of(0L, 1L), since(other, before), "the new default applies to every session");
        }
        session.close();
        engine.close();
        engine = open(directory);
        session = engine.openSession();
        List<Long> before = commits(session);
        session.execute("INSERT INTO t VALUES (2, 2)");
        assertEquals(List.of(0L, 1L), since(session, before), "the stored default");
        assertEquals(List.of(List.of(1L), List.of(2L)), SessionRows.query(session, "SELECT id FROM t ORDER BY id"),
                "closing made the delayed commits durable");
        session.execute("ALTER SYSTEM SET delayed_durability = off");
    }
}
