package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlExplainFormat;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOption;
import org.junit.jupiter.api.Test;

/** Session and system commands, COPY, PRINT and EXPLAIN parse to statements with the right parts. */
class SessionCommandParserTest {

    @Test
    void setStatistics() {
        SqlSetStatistics io = RoundTrip.parse("SET STATISTICS IO ON", SqlSetStatistics.class);
        assertEquals(Set.of(SqlSetStatistics.Kind.IO), io.kinds());
        assertTrue(io.on());
        SqlSetStatistics time = RoundTrip.parse("set statistics time off", SqlSetStatistics.class);
        assertEquals(Set.of(SqlSetStatistics.Kind.TIME), time.kinds());
        assertFalse(time.on());
        SqlSetStatistics both = RoundTrip.parse("SET STATISTICS TIME, IO ON", SqlSetStatistics.class);
        assertEquals(Set.of(SqlSetStatistics.Kind.IO, SqlSetStatistics.Kind.TIME), both.kinds());
        assertEquals("SET STATISTICS IO, TIME ON", RoundTrip.written("SET STATISTICS TIME, IO ON"));
    }

    @Test
    void setSettingWithOrWithoutEquals() {
        SqlSetOption off = RoundTrip.parse("SET read_ahead OFF", SqlSetOption.class);
        assertNull(off.getScope());
        assertEquals("read_ahead", off.getName().getSimple());
        assertEquals("OFF", ((SqlIdentifier) off.getValue()).getSimple());

        SqlSetOption on = RoundTrip.parse("SET prefetch = ON", SqlSetOption.class);
        assertEquals("ON", ((SqlIdentifier) on.getValue()).getSimple());

        SqlSetOption number = RoundTrip.parse("SET batch_size 4096", SqlSetOption.class);
        assertEquals("4096", ((SqlLiteral) number.getValue()).toValue());
        SqlSetOption text = RoundTrip.parse("SET memory_limit = '2GB'", SqlSetOption.class);
        assertEquals("2GB", ((SqlLiteral) text.getValue()).toValue());
    }

    @Test
    void alterSystemSetAndReset() {
        SqlSetOption system = RoundTrip.parse("ALTER SYSTEM SET read_ahead_depth = 1000", SqlSetOption.class);
        assertEquals("SYSTEM", system.getScope());
        assertEquals("read_ahead_depth", system.getName().getSimple());
        assertEquals("1000", ((SqlLiteral) system.getValue()).toValue());
        assertEquals("ALTER SYSTEM SET [read_ahead_depth] = 1000",
                RoundTrip.written("ALTER SYSTEM SET read_ahead_depth = 1000"));

        SqlSetOption reset = RoundTrip.parse("RESET prefetch", SqlSetOption.class);
        assertEquals("prefetch", reset.getName().getSimple());
        assertNull(reset.getValue());
        assertEquals("ALL", RoundTrip.parse("ALTER SESSION RESET ALL", SqlSetOption.class).getName().getSimple());
    }

    @Test
    void checkpointAndDbcc() {
        RoundTrip.parse("CHECKPOINT", SqlCheckpoint.class);
        SqlDbcc drop = RoundTrip.parse("dbcc dropcleanbuffers", SqlDbcc.class);
        assertEquals(SqlDbcc.Command.DROPCLEANBUFFERS, drop.command());
        assertTrue(drop.traceFlags().isEmpty());

        SqlDbcc on = RoundTrip.parse("DBCC TRACEON(652, 8744, -1)", SqlDbcc.class);
        assertEquals(SqlDbcc.Command.TRACEON, on.command());
        assertEquals(List.of(652, 8744), on.traceFlags());
        assertTrue(on.global());
        assertEquals("DBCC TRACEON (652, 8744, -1)", RoundTrip.written("DBCC TRACEON(652, 8744, -1)"));

        SqlDbcc off = RoundTrip.parse("DBCC TRACEOFF (8744)", SqlDbcc.class);
        assertEquals(SqlDbcc.Command.TRACEOFF, off.command());
        assertEquals(List.of(8744), off.traceFlags());
        assertFalse(off.global());
    }

    @Test
    void callIsCalcitesProcedureCall() {
        SqlBasicCall call = RoundTrip.parse("CALL drop_clean_buffers()", SqlBasicCall.class);
        assertEquals(SqlKind.PROCEDURE_CALL, call.getKind());
        assertEquals("drop_clean_buffers", ((SqlBasicCall) call.operand(0)).getOperator().getName());
    }

    @Test
    void copyFromCsv() {
        SqlCopy copy = RoundTrip.parse(
                "COPY lineitem FROM '/data/lineitem.csv' WITH (HEADER, DELIMITER = '|')", SqlCopy.class);
        assertEquals("lineitem", copy.table().getSimple());
        assertEquals("/data/lineitem.csv", copy.file());
        assertTrue(copy.columns().isEmpty());
        assertEquals(Optional.empty(), copy.option("header").orElseThrow().valueText());
        assertEquals(Optional.of("|"), copy.option("delimiter").orElseThrow().valueText());

        SqlCopy withColumns = RoundTrip.parse(
                "COPY t (a, b) FROM 'x.csv' WITH (HEADER = true, DELIMITER ',')", SqlCopy.class);
        assertEquals(List.of("a", "b"), withColumns.columns().stream().map(SqlIdentifier::getSimple).toList());
        assertEquals(Optional.of("true"), withColumns.option("header").orElseThrow().valueText());
        assertEquals(Optional.of(","), withColumns.option("delimiter").orElseThrow().valueText());
        assertEquals("COPY [t] ([a], [b]) FROM 'x.csv' WITH ([HEADER] = TRUE, [DELIMITER] = ',')",
                RoundTrip.written("COPY t (a, b) FROM 'x.csv' WITH (HEADER = true, DELIMITER ',')"));
    }

    @Test
    void copyToAFileAndPostgresOptionNames() {
        SqlCopy table = RoundTrip.parse("COPY t (a) TO '/tmp/t.csv' (NULL '\\N', ESCAPE '\\')", SqlCopy.class);
        assertFalse(table.isFrom());
        assertEquals("t", table.table().getSimple());
        assertEquals(Optional.of("\\N"), table.option("null").orElseThrow().valueText());
        assertEquals(Optional.of("\\"), table.option("escape").orElseThrow().valueText());
        SqlCopy query = RoundTrip.parse("COPY (SELECT a FROM t WHERE a > 1) TO 'q.csv' WITH (HEADER)", SqlCopy.class);
        assertFalse(query.isFrom());
        assertTrue(query.query().isPresent());
        assertEquals(null, query.table());
        assertTrue(RoundTrip.parse("COPY t FROM 'x.csv' (FORMAT csv)", SqlCopy.class).isFrom());
    }

    @Test
    void print() {
        SqlPrint print = RoundTrip.parse("PRINT 'prefetching enable'", SqlPrint.class);
        assertEquals("prefetching enable", ((SqlLiteral) print.message()).toValue());
    }

    @Test
    void explainPlainAndCalcitesForm() {
        SqlExplain plain = RoundTrip.parse("EXPLAIN SELECT * FROM t WHERE a < 27", SqlExplain.class);
        assertInstanceOf(SqlSelect.class, plain.getExplicandum());
        assertEquals(SqlExplainFormat.TEXT, plain.getFormat());
        assertTrue(plain.withImplementation());

        SqlExplain hinted = RoundTrip.parse(
                "EXPLAIN SELECT * FROM t1 WHERE x IN (SELECT x FROM t2) OPTION (LOOP JOIN)", SqlExplain.class);
        SqlQueryOption option = assertInstanceOf(SqlQueryOption.class, hinted.getExplicandum());
        assertTrue(option.has(SqlQueryHint.Kind.LOOP_JOIN));

        SqlExplain calcite = RoundTrip.parse(
                "EXPLAIN PLAN WITHOUT IMPLEMENTATION AS JSON FOR SELECT 1", SqlExplain.class);
        assertFalse(calcite.withImplementation());
        assertEquals(SqlExplainFormat.JSON, calcite.getFormat());

        SqlExplain dml = RoundTrip.parse("EXPLAIN INSERT INTO t VALUES (1)", SqlExplain.class);
        assertInstanceOf(SqlInsert.class, dml.getExplicandum());
    }
}
