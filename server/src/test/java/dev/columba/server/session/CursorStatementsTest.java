package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.server.session.Command.Fetch.Direction;
import org.junit.jupiter.api.Test;

/** PostgreSQL's cursor statements as {@link Command}s: every spelling of DECLARE, FETCH, MOVE and CLOSE. */
class CursorStatementsTest {

    @Test
    void declareReadsItsOptionsAndKeepsTheQueryAsWritten() {
        assertEquals(new Command.Declare("c", false, false, false, "SELECT * FROM t WHERE a = 'x;y'"),
                Command.of("DECLARE c CURSOR FOR SELECT * FROM t WHERE a = 'x;y';"));
        assertEquals(new Command.Declare("My Cursor", true, false, true, "select $1"),
                Command.of("declare \"My Cursor\" binary insensitive no scroll cursor with hold for select $1"));
        assertEquals(new Command.Declare("c", false, true, false, "VALUES (1)"),
                Command.of("DECLARE C SCROLL CURSOR WITHOUT HOLD FOR VALUES (1)"));
        // psycopg's named cursor, quoted name, no options.
        assertEquals(new Command.Declare("_pg3_x", false, false, false, "SELECT 1"),
                Command.of("DECLARE \"_pg3_x\" CURSOR FOR SELECT 1"));
    }

    @Test
    void tSqlsDeclareOfAVariableIsLeftToColumba() {
        assertInstanceOf(Command.Sql.class, Command.of("DECLARE @x INT = 1"));
    }

    @Test
    void aMalformedDeclareIsASyntaxError() {
        assertState("42601", "DECLARE c FOR SELECT 1");
        assertState("42601", "DECLARE c CURSOR SELECT 1");
        assertState("42601", "DECLARE c CURSOR FOR ");
        assertState("42601", "DECLARE c CURSOR WITH FOR SELECT 1");
        assertState("42601", "DECLARE \"\" CURSOR FOR SELECT 1");
    }

    @Test
    void fetchReadsEveryDirection() {
        assertEquals(fetch("c", Direction.FORWARD, 1), Command.of("FETCH c"));
        assertEquals(fetch("c", Direction.FORWARD, 1), Command.of("FETCH NEXT FROM c"));
        assertEquals(fetch("c", Direction.FORWARD, -1), Command.of("FETCH PRIOR IN c"));
        assertEquals(fetch("c", Direction.ABSOLUTE, 1), Command.of("FETCH FIRST FROM c"));
        assertEquals(fetch("c", Direction.ABSOLUTE, -1), Command.of("FETCH LAST FROM c"));
        assertEquals(fetch("c", Direction.ABSOLUTE, 7), Command.of("FETCH ABSOLUTE 7 FROM c"));
        assertEquals(fetch("c", Direction.RELATIVE, -2), Command.of("FETCH RELATIVE -2 FROM c"));
        assertEquals(fetch("c", Direction.FORWARD, 25), Command.of("FETCH 25 FROM c;"));
        assertEquals(fetch("c", Direction.FORWARD, -3), Command.of("FETCH -3 c"));
        assertEquals(fetch("c", Direction.FORWARD, CursorStatements.ALL), Command.of("fetch all in c"));
        assertEquals(fetch("c", Direction.FORWARD, 100), Command.of("FETCH FORWARD 100 FROM c"));
        assertEquals(fetch("c", Direction.FORWARD, CursorStatements.ALL), Command.of("FETCH FORWARD ALL FROM c"));
        assertEquals(fetch("c", Direction.FORWARD, 1), Command.of("FETCH FORWARD FROM c"));
        assertEquals(fetch("c", Direction.FORWARD, -1), Command.of("FETCH BACKWARD c"));
        assertEquals(fetch("c", Direction.FORWARD, -CursorStatements.ALL), Command.of("FETCH BACKWARD ALL FROM c"));
        // psycopg's spelling of a fetch of its named cursor.
        assertEquals(fetch("big cur", Direction.FORWARD, 100), Command.of("FETCH FORWARD 100 FROM \"big cur\""));
        // A word that is no direction is the cursor's name.
        assertEquals(fetch("forwarded", Direction.FORWARD, 1), Command.of("FETCH forwarded"));
    }

    @Test
    void moveIsAFetchThatSendsNoRows() {
        assertEquals(new Command.Fetch("c", true, Direction.FORWARD, 5), Command.of("MOVE 5 IN c"));
        assertEquals(new Command.Fetch("c", true, Direction.ABSOLUTE, 3), Command.of("MOVE ABSOLUTE 3 FROM \"c\""));
    }

    @Test
    void aMalformedFetchIsASyntaxError() {
        assertState("42601", "FETCH");
        assertState("42601", "FETCH 5 FROM");
        assertState("42601", "FETCH ABSOLUTE FROM c");
        assertState("42601", "FETCH 5 FROM c extra");
        assertState("22003", "FETCH 99999999999999999999 FROM c");
    }

    @Test
    void closeTakesANameOrAll() {
        assertEquals(new Command.CloseCursor("c"), Command.of("CLOSE C"));
        assertEquals(new Command.CloseCursor("C"), Command.of("CLOSE \"C\""));
        assertEquals(new Command.CloseCursor(null), Command.of("CLOSE ALL;"));
        assertState("42601", "CLOSE");
        assertState("42601", "CLOSE a b");
    }

    private static Command.Fetch fetch(String name, Direction direction, long count) {
        return new Command.Fetch(name, false, direction, count);
    }

    private static void assertState(String expected, String sql) {
        WireSqlException failure = assertThrows(WireSqlException.class, () -> Command.of(sql), sql);
        assertEquals(expected, failure.sqlState(), failure.getMessage());
    }
}
