package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import dev.columba.core.error.ErrorCode;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;

/** Malformed SQL becomes a ColumbaParseException naming the problem and where it is. */
class ParseErrorTest {

    private static ColumbaParseException parseError(String sql) {
        return assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse(sql));
    }

    private static void assertAt(int line, int column, ColumbaParseException error) {
        assertEquals(line, error.line(), error::getMessage);
        assertEquals(column, error.column(), error::getMessage);
    }

    @Test
    void unexpectedTokenReportsLineAndColumn() {
        ColumbaParseException keyword = parseError("SELECT a,\n  FROM t");
        assertAt(2, 3, keyword);
        assertEquals(2, keyword.endLine());
        assertEquals(6, keyword.endColumn());
        assertEquals(ErrorCode.SYNTAX_ERROR, keyword.errorCode());
        assertTrue(keyword.getMessage().startsWith(
                "[SYNTAX_ERROR] Incorrect syntax near the keyword 'FROM' at line 2, column 3."),
                keyword.getMessage());

        // Calcite reports the sequence that went wrong from its first token: "= =" at the first "=".
        ColumbaParseException doubled = parseError("SELECT *\nFROM t\nWHERE a = = 1");
        assertAt(3, 9, doubled);
        assertTrue(doubled.getMessage().contains("Encountered \"= =\" at line 3, column 9."),
                doubled.getMessage());
    }

    @Test
    void aPasswordInAStatementThatDoesNotParseIsNotEchoed() {
        for (String sql : List.of("CREATE LOGIN a WITH PASSWORD 'hunter2'",
                "CREATE LOGIN a WITH PASSWORD = 'hunter2' garbage",
                "ALTER LOGIN a WITH PASSWORD = 'hunter2' OLD_PASSWORD = 'swordfish'",
                "CREATE USER b WITH PASSWORD 'it''s' = 1",
                "SELECT 1; CREATE LOGIN c WITH PASSWORD 'hunter2' 'hunter2'")) {
            ColumbaParseException error = parseError(sql);
            for (String secret : List.of("hunter2", "swordfish", "it's", "it''s", "it\\'s")) {
                assertTrue(!error.getMessage().contains(secret), error.getMessage());
            }
            assertEquals(null, error.getCause(), "the parser's exception quotes the token too");
        }
        ColumbaParseException quoted = parseError("CREATE LOGIN a WITH PASSWORD 'hunter2'");
        assertEquals("[SYNTAX_ERROR] Encountered \"\\'***\\'\" at line 1, column 30. Was expecting one of: \"=\".",
                quoted.getMessage());
        // Without a password, a literal in an error is shown as it is.
        String plain = parseError("SELECT a FROM t WHERE a = 1 'hunter2'").getMessage();
        assertTrue(plain.contains("hunter2"), plain);
    }

    @Test
    void shortListsOfExpectedTokensAreNamed() {
        ColumbaParseException error = parseError("DBCC TRACEON 652");
        assertAt(1, 14, error);
        assertEquals("[SYNTAX_ERROR] Encountered \"652\" at line 1, column 14. Was expecting one of: \"(\".",
                error.getMessage());
    }

    @Test
    void unknownDbccCommand() {
        ColumbaParseException error = parseError("DBCC FREEPROCCACHE");
        assertAt(1, 6, error);
        assertEquals("[SYNTAX_ERROR] Unknown DBCC command FREEPROCCACHE; Columba has DROPCLEANBUFFERS, "
                + "TRACEON and TRACEOFF", error.getMessage());
    }

    @Test
    void lexicalErrorsHaveAPositionToo() {
        ColumbaParseException error = parseError("SELECT 1\nFROM t WHERE b = `x");
        assertAt(2, 18, error);
        assertTrue(error.getMessage().contains("Lexical error at line 2, column 18."), error.getMessage());
    }

    @Test
    void selectIntoTakesNoSetOperation() {
        ColumbaParseException error = parseError("SELECT a INTO t2 FROM t UNION SELECT b FROM u");
        assertAt(1, 25, error);
        assertTrue(error.getMessage().startsWith("[SYNTAX_ERROR] Incorrect syntax near the keyword 'UNION'"),
                error.getMessage());
    }

    /**
     * Calcite's parser recurses once per parenthesis; past its stack it fails with a
     * StackOverflowError, which has no message (and toColumbaException once threw a
     * NullPointerException on it). The parse runs on a thread with a small stack, so the depth
     * needed does not depend on the JVM's default stack size.
     */
    @Test
    void aStatementNestedTooDeeplyIsASyntaxErrorNotACrash() throws InterruptedException {
        int depth = 20_000;
        String sql = "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth);
        Throwable[] thrown = new Throwable[1];
        Thread parser = new Thread(null, () -> {
            try {
                ColumbaSqlParser.parse(sql);
            } catch (Throwable e) {
                thrown[0] = e;
            }
        }, "deep-parse", 512 * 1024);
        parser.start();
        parser.join();
        ColumbaParseException error = assertInstanceOf(ColumbaParseException.class, thrown[0]);
        assertEquals(ErrorCode.SYNTAX_ERROR, error.errorCode());
        assertEquals("42601", error.errorCode().sqlState());
        assertEquals("[SYNTAX_ERROR] Some part of the statement is nested too deeply. Rewrite the statement or "
                + "break it up into smaller statements.", error.getMessage());
        assertAt(0, 0, error);
    }

    @Test
    void scriptErrorsArePositionedInTheWholeScript() {
        ColumbaParseException error = assertThrows(ColumbaParseException.class,
                () -> ColumbaSqlParser.parseStatements("SET STATISTICS IO ON;\nSELECT 1;\nSELECT FROM;"));
        assertAt(3, 8, error);
    }

    @Test
    void parseWantsExactlyOneStatement() {
        assertEquals(1, ColumbaSqlParser.parseStatements("SELECT 1;").size());
        ColumbaSqlParser.parse("SELECT 1;");
        ColumbaParseException two = parseError("SELECT 1;\n  SELECT 2");
        assertAt(2, 3, two);
        assertEquals("[SYNTAX_ERROR] Expected one statement, found 2; the second starts at line 2, column 3",
                two.getMessage());
        parseError("  ");
    }

    @Test
    void columbasOwnChecks() {
        ColumbaParseException twoKeys = parseError(
                "CREATE TABLE t (a INT PRIMARY KEY,\n b INT, PRIMARY KEY (b))");
        assertAt(2, 9, twoKeys);
        assertTrue(twoKeys.getMessage().contains("Table [t] has more than one PRIMARY KEY")
                || twoKeys.getMessage().contains("Table t has more than one PRIMARY KEY"), twoKeys.getMessage());

        ColumbaParseException duplicate = parseError("CREATE TABLE t (a INT) WITH (storage = rowstore, STORAGE = columnstore)");
        assertAt(1, 50, duplicate);
        assertTrue(duplicate.getMessage().contains("Option STORAGE is given twice"), duplicate.getMessage());

        // CREATE INDEX takes DESC key columns; a PRIMARY KEY's stay ascending.
        ColumbaParseException descending = parseError("CREATE TABLE t (a INT, PRIMARY KEY (a DESC))");
        assertAt(1, 39, descending);
        assertTrue(descending.getMessage().contains("DESC"), descending.getMessage());

        assertAt(1, 36, parseError("CREATE TABLE t (a INT IDENTITY (1, 0))"));
        assertAt(1, 14, parseError("DBCC TRACEON(-2)"));
        assertTrue(parseError("CREATE UNIQUE COLUMNSTORE INDEX c ON t").getMessage().contains("cannot be UNIQUE"));
    }

    @Test
    void identifiersAreAtMostSqlServersSysnameLong() {
        String longest = "c".repeat(ColumbaSqlParser.IDENTIFIER_MAX_LENGTH);
        ColumbaSqlParser.parse("SELECT " + longest + " FROM t");
        ColumbaParseException error = parseError("SELECT " + longest + "c FROM t");
        assertAt(1, 8, error);
        assertTrue(error.getMessage().contains("must be less than or equal to 128 characters"), error.getMessage());
    }

    @Test
    void optionNeedsAKnownHint() {
        ColumbaParseException error = parseError("SELECT * FROM t OPTION (FAST 10)");
        assertAt(1, 25, error);
    }

    @Test
    void emptyStatementsInAScriptAreSkipped() {
        List<SqlNode> statements = ColumbaSqlParser.parseStatements("CHECKPOINT;;\n;CHECKPOINT;");
        assertEquals(2, statements.size());
    }
}
