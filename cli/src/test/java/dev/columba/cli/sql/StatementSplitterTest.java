package dev.columba.cli.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {
    private static List<String> split(String script) {
        StatementSplitter splitter = new StatementSplitter();
        List<String> statements = new ArrayList<>();
        script.lines().forEach(line -> statements.addAll(splitter.add(line)));
        statements.addAll(splitter.finish());
        return statements;
    }

    @Test
    void semicolonsEndStatementsOutsideLiteralsIdentifiersAndComments() {
        assertEquals(List.of("SELECT 'a;b', \"c;d\", [e;f] FROM t", "SELECT 2"),
                split("SELECT 'a;b', \"c;d\", [e;f] FROM t; SELECT 2;"));
        assertEquals(List.of("SELECT 'it''s; fine'"), split("SELECT 'it''s; fine';"));
        assertEquals(List.of("SELECT 1 -- no; end here\nFROM t"), split("SELECT 1 -- no; end here\nFROM t;"));
        assertEquals(List.of("SELECT /* a; b */ 1"), split("SELECT /* a; b */ 1;"));
        assertEquals(List.of("SELECT 'multi\nline; literal'"), split("SELECT 'multi\nline; literal';"));
    }

    @Test
    void aGoLineEndsABatchAndTheTailIsTheLastStatement() {
        assertEquals(List.of("CREATE TABLE t (id INT)", "SELECT * FROM t"),
                split("CREATE TABLE t (id INT)\ngo\nSELECT * FROM t"));
        assertEquals(List.of("SELECT 'GO'"), split("SELECT 'GO'\n"));
        assertEquals(List.of(), split("-- only a comment\n/* and another */;\n;"));
    }

    @Test
    void anUnfinishedStatementIsReportedForTheContinuationPrompt() {
        StatementSplitter splitter = new StatementSplitter();
        assertFalse(splitter.inStatement());
        assertEquals(List.of(), splitter.add("SELECT *"));
        assertTrue(splitter.inStatement());
        assertEquals(List.of("SELECT *\nFROM t"), splitter.add("FROM t;"));
        assertFalse(splitter.inStatement());
    }
}
