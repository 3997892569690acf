package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.util.CancelFlag;
import org.junit.jupiter.api.Test;

/**
 * What bounds a parse (issue 15): the text's length, a cancel, and a lookahead that does not go
 * back to the start of the statement for every token it looks at.
 */
class ParseLimitsTest {
    private static String rowOfNumbers(int count) {
        StringBuilder sql = new StringBuilder("SELECT (0");
        for (int number = 1; number < count; number++) {
            sql.append(", ").append(number);
        }
        return sql.append(") FROM t").toString();
    }

    @Test
    void aLongParenthesisedListParsesToAllItsItems() {
        // 64,000 items took 28 s when the SELECT ... INTO lookahead asked getToken(i) for each token.
        SqlSelect select = (SqlSelect) ColumbaSqlParser.parse(rowOfNumbers(64_000));
        SqlBasicCall row = (SqlBasicCall) select.getSelectList().get(0);
        assertEquals(64_000, row.operandCount());
        assertEquals("63999", row.operand(63_999).toString());
    }

    @Test
    void selectIntoIsStillToldFromAQueryAfterALongSelectList() {
        StringBuilder columns = new StringBuilder("c0");
        for (int column = 1; column < 5_000; column++) {
            columns.append(", c").append(column);
        }
        SqlNode into = ColumbaSqlParser.parse("SELECT " + columns + " INTO copy FROM t");
        assertInstanceOf(SqlCreateTable.class, into, "SELECT ... INTO parses to CREATE TABLE AS");
        SqlNode query = ColumbaSqlParser.parse("SELECT " + columns + " FROM t WHERE (c0) IN (SELECT x FROM u)");
        assertInstanceOf(SqlSelect.class, query);
    }

    @Test
    void aCancelledParseStopsWithQueryCancelled() {
        CancelFlag cancel = new CancelFlag(new AtomicBoolean());
        cancel.requestCancel();
        ColumbaException cancelled = assertThrows(ColumbaException.class,
                () -> ColumbaSqlParser.parse(rowOfNumbers(10_000), cancel));
        assertEquals(ErrorCode.QUERY_CANCELLED, cancelled.errorCode());
        assertTrue(cancelled.getMessage().contains("cancelled while it was parsed"), cancelled.getMessage());

        CancelFlag notCancelled = new CancelFlag(new AtomicBoolean());
        assertInstanceOf(SqlSelect.class, ColumbaSqlParser.parse(rowOfNumbers(10_000), notCancelled));
    }

    @Test
    void textLongerThanTheLimitIsRefusedBeforeParsing() {
        String tooLong = "PRINT '" + "x".repeat(ColumbaSqlParser.MAX_STATEMENT_LENGTH) + "'";
        ColumbaException refused = assertThrows(ColumbaException.class, () -> ColumbaSqlParser.parse(tooLong));
        assertEquals(ErrorCode.STATEMENT_TOO_LARGE, refused.errorCode());
        assertEquals("54000", refused.errorCode().sqlState());
        assertTrue(refused.getMessage().contains(tooLong.length() + " characters long"), refused.getMessage());
        assertThrows(ColumbaException.class, () -> ColumbaSqlParser.parseStatements(tooLong));
    }
}
