package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlTextTest {

    @Test
    void splitsAtTopLevelSemicolonsOnly() {
        assertEquals(List.of("SELECT 1", "SELECT 'a;b'", "SELECT \"x;y\" FROM t", "/* ; */ SELECT 2 -- c;d"),
                SqlText.split("SELECT 1; SELECT 'a;b';SELECT \"x;y\" FROM t;; /* ; */ SELECT 2 -- c;d\n"));
        assertEquals(List.of(), SqlText.split(" ; ;"));
        assertEquals(List.of("SELECT 'it''s;'"), SqlText.split("SELECT 'it''s;';"));
    }

    @Test
    void dollarParametersBecomeMarkersInOrderOfAppearance() {
        SqlText.JdbcSql jdbc = SqlText.toJdbc("SELECT $2, '$1', $1 + $10 FROM t WHERE a$1 = $1;");
        assertEquals("SELECT ?, '$1', ? + ? FROM t WHERE a$1 = ?", jdbc.sql());
        assertArrayEquals(new int[] {2, 1, 10, 1}, jdbc.parameterNumbers());
        assertEquals(10, jdbc.parameterCount());
    }

    @Test
    void classifiesDeallocate() {
        assertEquals(new Command.Deallocate("_pg3_0"), Command.of("DEALLOCATE _pg3_0"));
        assertEquals(new Command.Deallocate("s_1"), Command.of("deallocate prepare S_1;"));
        assertEquals(new Command.Deallocate("Mixed \"Case\""), Command.of("DEALLOCATE \"Mixed \"\"Case\"\"\""));
        assertEquals(new Command.Deallocate(null), Command.of("DEALLOCATE ALL"));
        assertEquals(new Command.Deallocate(null), Command.of("DEALLOCATE PREPARE all"));
        assertInstanceOf(Command.Sql.class, Command.of("DEALLOCATE"));
        assertInstanceOf(Command.Sql.class, Command.of("DEALLOCATE a b"));
    }

    @Test
    void classifiesTransactionControlAndIgnoredSettings() {
        assertInstanceOf(Command.Begin.class, Command.of("begin"));
        assertInstanceOf(Command.Begin.class, Command.of("START TRANSACTION ISOLATION LEVEL READ COMMITTED"));
        assertInstanceOf(Command.Commit.class, Command.of("END;"));
        assertInstanceOf(Command.Rollback.class, Command.of("ABORT"));
        assertInstanceOf(Command.Sql.class, Command.of("ROLLBACK TO SAVEPOINT s"));
        assertEquals(new Command.IgnoredSetting("extra_float_digits", "3"), Command.of("SET extra_float_digits = 3"));
        assertEquals(new Command.IgnoredSetting("application_name", "'PostgreSQL JDBC Driver'"),
                Command.of("SET application_name = 'PostgreSQL JDBC Driver'"));
        assertEquals(new Command.IgnoredSetting("timezone", "'UTC'"), Command.of("SET TIME ZONE 'UTC'"));
        assertEquals(new Command.IgnoredSetting("datestyle", "ISO"), Command.of("SET SESSION DateStyle TO ISO"));
        assertInstanceOf(Command.Sql.class, Command.of("SET read_ahead = OFF"));
        assertInstanceOf(Command.Empty.class, Command.of(" -- nothing\n"));
    }

    @Test
    void commandTagsFollowPostgres() {
        assertEquals("INSERT 0 3", CommandTags.update("insert into t values (1), (2), (3)", 3));
        assertEquals("UPDATE 2", CommandTags.update("UPDATE t SET a = 1", 2));
        assertEquals("DELETE 0", CommandTags.update("DELETE FROM t", 0));
        assertEquals("CREATE TABLE", CommandTags.update("CREATE TABLE t (a INT)", 0));
        assertEquals("CREATE INDEX", CommandTags.update("CREATE CLUSTERED COLUMNSTORE INDEX c ON t", 0));
        assertEquals("DROP TABLE", CommandTags.update("DROP TABLE IF EXISTS t", 0));
        assertEquals("CHECKPOINT", CommandTags.update("CHECKPOINT", 0));
        assertEquals("SELECT 5", CommandTags.rows(5));
    }
}
