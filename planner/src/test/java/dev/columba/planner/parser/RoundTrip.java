package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.apache.calcite.sql.SqlNode;

/** Parses a statement, checks that its SQL parses back to the same SQL, and returns the node. */
final class RoundTrip {
    private RoundTrip() {
    }

    static SqlNode parse(String sql) {
        SqlNode node = ColumbaSqlParser.parse(sql);
        String written = ColumbaSqlParser.toSql(node);
        SqlNode reparsed = ColumbaSqlParser.parse(written);
        assertEquals(node.getClass(), reparsed.getClass(), () -> "node class after re-parsing " + written);
        assertEquals(written, ColumbaSqlParser.toSql(reparsed), () -> "SQL of the re-parsed " + written);
        return node;
    }

    static <T extends SqlNode> T parse(String sql, Class<T> type) {
        return assertInstanceOf(type, parse(sql), sql);
    }

    /** The SQL the parser writes for {@code sql}, on one line. */
    static String written(String sql) {
        return ColumbaSqlParser.toSql(parse(sql)).replace('\n', ' ');
    }
}
