package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.util.SqlShuttle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Calcite's queries and DML still parse, with OPTION (...) hints, SQL Server quoting and case. */
class QueryParserTest {

    @Test
    void optionHints() {
        SqlQueryOption option = RoundTrip.parse(
                "SELECT * FROM t OPTION (HASH JOIN, MERGE JOIN, LOOP JOIN, MAXDOP 4, RECOMPILE, FORCE ORDER)",
                SqlQueryOption.class);
        assertEquals(List.of(SqlQueryHint.Kind.HASH_JOIN, SqlQueryHint.Kind.MERGE_JOIN,
                SqlQueryHint.Kind.LOOP_JOIN, SqlQueryHint.Kind.MAXDOP, SqlQueryHint.Kind.RECOMPILE,
                SqlQueryHint.Kind.FORCE_ORDER), option.hints().stream().map(SqlQueryHint::kind).toList());
        assertEquals(OptionalInt.of(4), option.maxDegreeOfParallelism());
        assertEquals(OptionalInt.empty(), option.hint(SqlQueryHint.Kind.LOOP_JOIN).orElseThrow().argument());
        assertInstanceOf(SqlSelect.class, option.query());
        assertEquals("SELECT * FROM [t] OPTION (HASH JOIN, MERGE JOIN, LOOP JOIN, MAXDOP 4, RECOMPILE, FORCE ORDER)",
                RoundTrip.written("SELECT * FROM t option (hash join, merge join, loop join, maxdop 4, recompile, force order)"));
    }

    @Test
    void optionFollowsOrderByAndSetOperations() {
        SqlQueryOption ordered = RoundTrip.parse(
                "SELECT a FROM t ORDER BY a FETCH FIRST 10 ROWS ONLY OPTION (MAXDOP 1)", SqlQueryOption.class);
        assertInstanceOf(SqlOrderBy.class, ordered.query());
        SqlQueryOption union = RoundTrip.parse(
                "SELECT a FROM t UNION ALL SELECT a FROM u OPTION (HASH JOIN)", SqlQueryOption.class);
        assertEquals(SqlKind.UNION, union.query().getKind());
        assertFalse(union.maxDegreeOfParallelism().isPresent());
    }

    @Test
    void queryWithoutOptionIsCalcitesNode() {
        assertInstanceOf(SqlSelect.class, RoundTrip.parse("SELECT 1"));
    }

    @Test
    void shuttleCopiesAQueryOption() {
        SqlQueryOption option = RoundTrip.parse("SELECT a FROM t OPTION (LOOP JOIN)", SqlQueryOption.class);
        SqlNode renamed = option.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                return identifier.names.equals(List.of("t")) ? new SqlIdentifier("u", identifier.getParserPosition()) : identifier;
            }
        });
        SqlQueryOption copy = assertInstanceOf(SqlQueryOption.class, renamed);
        assertEquals("SELECT [a] FROM [u] OPTION (LOOP JOIN)", ColumbaSqlParser.toSql(copy).replace('\n', ' '));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT a, b FROM t WHERE a > 1 AND b IS NOT NULL",
        "SELECT * FROM t1 INNER JOIN t2 ON t1.a = t2.a LEFT JOIN t3 ON t3.b = t2.b",
        "SELECT * FROM t WHERE a IN (SELECT a FROM u WHERE u.b = t.b)",
        "SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u)",
        "SELECT a, COUNT(*), SUM(b), COUNT(DISTINCT c) FROM t GROUP BY a HAVING COUNT(*) > 1",
        "SELECT a FROM t ORDER BY a DESC LIMIT 10 OFFSET 5",
        "SELECT a FROM t ORDER BY a OFFSET 5 LIMIT 10",
        "SELECT a FROM t ORDER BY a OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY",
        "WITH x AS (SELECT a FROM t) SELECT * FROM x",
        "SELECT a FROM t UNION SELECT a FROM u INTERSECT SELECT a FROM v",
        "VALUES (1, 'a'), (2, 'b')",
        "SELECT * FROM generate_series(1, 1000000)",
        "SELECT * FROM TABLE(generate_series(1, 10)) AS g (x)",
        "SELECT CASE WHEN a % 2 = 0 THEN 'even' ELSE 'odd' END FROM t WHERE a != 3",
        "SELECT CAST(a AS VARCHAR(10)), SUBSTRING(b FROM 1 FOR 3), UPPER(c) || 'x' FROM t",
        "SELECT EXTRACT(YEAR FROM d), d + INTERVAL '1' DAY FROM t",
        "SELECT * FROM t CROSS APPLY u",
        "SELECT * FROM master.dbo.spt_values",
        "SELECT [a b], [c]]d] FROM [dbo].[My Table]",
        "SELECT \"a b\" FROM \"My Table\"",
    })
    void calciteQueriesStillParse(String sql) {
        RoundTrip.parse(sql);
    }

    @Test
    void dml() {
        SqlInsert insert = RoundTrip.parse("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')", SqlInsert.class);
        assertEquals(2, insert.getTargetColumnList().size());
        RoundTrip.parse("INSERT INTO t SELECT * FROM u", SqlInsert.class);
        SqlUpdate update = RoundTrip.parse("UPDATE t SET a = a + 1 WHERE b = 'x'", SqlUpdate.class);
        assertEquals("a", update.getTargetColumnList().get(0).toString());
        RoundTrip.parse("DELETE FROM t WHERE a < 10", SqlDelete.class);
    }

    @Test
    void bracketsAndDoubleQuotesBothQuoteIdentifiersAndKeepCase() {
        SqlSelect select = RoundTrip.parse(
                "SELECT [Order Id], \"Unit\"\"Price\", Quantity FROM [Sales].\"Order Lines\"", SqlSelect.class);
        assertEquals(List.of("Order Id", "Unit\"Price", "Quantity"),
                select.getSelectList().stream().map(node -> ((SqlIdentifier) node).getSimple()).toList());
        assertEquals(List.of("Sales", "Order Lines"), ((SqlIdentifier) select.getFrom()).names);
    }

    @Test
    void unquotedIdentifiersKeepTheirCase() {
        SqlSelect select = RoundTrip.parse("SELECT IDvarchar FROM Testtable2", SqlSelect.class);
        assertEquals("IDvarchar", ((SqlIdentifier) select.getSelectList().get(0)).getSimple());
        assertEquals("Testtable2", ((SqlIdentifier) select.getFrom()).getSimple());
        assertFalse(ColumbaSqlParser.config().caseSensitive());
    }

    @Test
    void columbasKeywordsAreStillNames() {
        SqlSelect select = RoundTrip.parse("""
                SELECT name, age, text, score, index, hash, loop, io, statistics, off, if, copy,
                    print, dbcc, checkpoint, force, maxdop, recompile, clustered, nonclustered,
                    columnstore, persisted, reorganize, rebuild, dropcleanbuffers, traceon, traceoff,
                    nvarchar, datetime2
                FROM t AS copy""", SqlSelect.class);
        assertEquals(29, select.getSelectList().size());
        assertEquals("copy", ((SqlIdentifier) ((SqlBasicCall) select.getFrom()).operand(1)).getSimple());
        RoundTrip.parse("CREATE TABLE index (name VARCHAR(10), text VARCHAR(10), hash INT, io INT)");
    }

    @Test
    void optionIsReservedSoItIsNeverAnAlias() {
        assertInstanceOf(SqlQueryOption.class, RoundTrip.parse("SELECT * FROM t OPTION (MAXDOP 1)"));
        assertInstanceOf(SqlQueryOption.class, RoundTrip.parse("SELECT 1 OPTION (RECOMPILE)"));
        assertInstanceOf(SqlSelect.class, RoundTrip.parse("SELECT [option] FROM t"));
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("SELECT option FROM t"));
    }

    @Test
    void joinsStayJoins() {
        SqlSelect select = RoundTrip.parse("SELECT * FROM a JOIN b ON a.x = b.x", SqlSelect.class);
        assertTrue(select.getFrom() instanceof SqlJoin);
        assertInstanceOf(SqlWith.class, RoundTrip.parse("WITH q AS (SELECT 1 AS c) SELECT c FROM q"));
    }
}
