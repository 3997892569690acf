package dev.columba.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Parameter markers are counted where the lexer would see them, not inside text, names or comments. */
class ParameterMarkersTest {
    @Test
    void countsMarkersOutsideLiteralsIdentifiersAndComments() {
        assertEquals(0, ParameterMarkers.count("SELECT 1"));
        assertEquals(2, ParameterMarkers.count("SELECT * FROM t WHERE a = ? AND b IN (?)"));
        assertEquals(1, ParameterMarkers.count("SELECT '?', 'it''s ?', \"odd?name\", [what?] FROM t WHERE x = ?"));
        assertEquals(1, ParameterMarkers.count("SELECT ? -- a comment?\n FROM t /* and ? here */"));
        assertEquals(3, ParameterMarkers.count("SELECT ?-? FROM t WHERE a = 1/?"));
        assertEquals(0, ParameterMarkers.count("SELECT 'unterminated ?"));
        assertEquals(1, ParameterMarkers.count("SELECT [a]]?] FROM t WHERE x = ?"));
    }
}
