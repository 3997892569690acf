package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The whole seed 000 script (test resource seed000.sql) splits into its statements and parses. */
class Seed000ScriptTest {
    private static List<SqlNode> statements;

    @BeforeAll
    static void parseScript() throws IOException {
        try (InputStream in = Seed000ScriptTest.class.getResourceAsStream("seed000.sql")) {
            statements = ColumbaSqlParser.parseStatements(
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyStatementParsesToTheRightNodeInOrder() {
        List<String> expected = List.of(
                "SqlCreateTable", "SqlInsert", "SqlUpdate", "SqlAlterTableAlterColumn",
                "SqlCreateIndex", "SqlDbcc", "SqlSetStatistics", "SqlSelect", "SqlSetStatistics",
                "SqlSelect", "SqlSelect", "SqlCreateTable", "SqlCreateIndex", "SqlCreateIndex",
                "SqlDbcc", "SqlSetStatistics", "SqlQueryOption", "SqlDbcc", "SqlSetStatistics",
                "SqlQueryOption", "SqlSetStatistics", "SqlSetStatistics", "SqlDbcc", "SqlDbcc",
                "SqlSelect", "SqlPrint", "SqlDbcc", "SqlDbcc", "SqlSelect", "SqlPrint",
                "SqlSetStatistics", "SqlDbcc", "SqlDbcc", "SqlQueryOption", "SqlPrint", "SqlDbcc",
                "SqlDbcc", "SqlQueryOption", "SqlPrint");
        assertEquals(expected, statements.stream().map(node -> node.getClass().getSimpleName()).toList());
    }

    @Test
    void createTableHasIdentityAndAPersistedComputedColumn() {
        SqlCreateTable create = (SqlCreateTable) statements.get(0);
        assertEquals(List.of("DBO", "TestTable"), create.name().names);
        assertEquals(List.of("ID", "IDvarchar", "intcolumn", "NAME", "Age", "Randomvalue"),
                create.columns().stream().map(column -> column.name().getSimple()).toList());

        SqlColumnDefinition id = create.columns().get(0);
        assertEquals(new SqlColumnDefinition.Identity(1, 1), id.identity().orElseThrow());
        assertEquals(Nullability.NOT_NULL, id.nullability());
        assertEquals("INTEGER", id.dataType().orElseThrow().getTypeName().getSimple());

        SqlColumnDefinition idVarchar = create.columns().get(1);
        assertTrue(idVarchar.isComputed());
        assertTrue(idVarchar.persisted());
        assertEquals(Nullability.NOT_NULL, idVarchar.nullability());
        assertEquals(SqlKind.CAST, idVarchar.computedExpression().orElseThrow().getKind());

        assertEquals(Nullability.UNSPECIFIED, create.columns().get(2).nullability());
        assertEquals("BIGINT", create.columns().get(5).dataType().orElseThrow().getTypeName().getSimple());
        assertTrue(create.primaryKey().isEmpty());
        assertTrue(create.options().isEmpty());
    }

    @Test
    void insertSelectsFromACrossJoinOfThreePartNames() {
        SqlInsert insert = (SqlInsert) statements.get(1);
        assertEquals("[intcolumn], [NAME], [AGE]", ColumbaSqlParser.toSql(insert.getTargetColumnList()));
        SqlSelect select = (SqlSelect) insert.getSource();
        SqlJoin join = (SqlJoin) select.getFrom();
        assertEquals(JoinType.CROSS, join.getJoinType());
        SqlCall s1 = (SqlCall) join.getLeft();
        assertEquals(SqlKind.AS, s1.getKind());
        assertEquals(List.of("master", "dbo", "spt_values"), ((SqlIdentifier) s1.operand(0)).names);
        assertEquals("s1", s1.operand(1).toString());
        assertEquals("s2", ((SqlCall) join.getRight()).operand(1).toString());
        assertEquals("[s1].[number] % 10 + 25", ColumbaSqlParser.toSql(select.getSelectList().get(2)));
    }

    @Test
    void updateAndAlterColumn() {
        SqlUpdate update = (SqlUpdate) statements.get(2);
        assertEquals("Randomvalue", update.getTargetColumnList().get(0).toString());

        SqlAlterTableAlterColumn alter = (SqlAlterTableAlterColumn) statements.get(3);
        assertEquals("TestTable", alter.table().getSimple());
        assertEquals("Randomvalue", alter.column().getSimple());
        assertEquals("INTEGER", alter.dataType().getTypeName().getSimple());
        assertEquals(Nullability.NOT_NULL, alter.nullability());
    }

    @Test
    void uniqueClusteredIndex() {
        SqlCreateIndex index = (SqlCreateIndex) statements.get(4);
        assertTrue(index.unique());
        assertEquals(Clustering.CLUSTERED, index.clustering());
        assertEquals("CI_TestTable_ID", index.name().getSimple());
        assertEquals(List.of("DBO", "TestTable"), index.table().names);
        assertEquals(List.of("ID"), index.columns().stream().map(SqlNode::toString).toList());

        SqlCreateIndex unique = (SqlCreateIndex) statements.get(13);
        assertTrue(unique.unique());
        assertEquals(Clustering.UNSPECIFIED, unique.clustering());
    }

    @Test
    void sessionCommands() {
        SqlDbcc drop = (SqlDbcc) statements.get(5);
        assertEquals(SqlDbcc.Command.DROPCLEANBUFFERS, drop.command());
        SqlSetStatistics io = (SqlSetStatistics) statements.get(6);
        assertEquals(Set.of(SqlSetStatistics.Kind.IO), io.kinds());
        assertTrue(io.on());
        SqlSetStatistics ioOff = (SqlSetStatistics) statements.get(20);
        assertFalse(ioOff.on());
        assertEquals(Set.of(SqlSetStatistics.Kind.TIME), ((SqlSetStatistics) statements.get(21)).kinds());

        SqlDbcc traceOn = (SqlDbcc) statements.get(23);
        assertEquals(SqlDbcc.Command.TRACEON, traceOn.command());
        assertEquals(List.of(652), traceOn.traceFlags());
        assertFalse(traceOn.global());
        SqlDbcc traceOff = (SqlDbcc) statements.get(35);
        assertEquals(SqlDbcc.Command.TRACEOFF, traceOff.command());
        assertEquals(List.of(8744), traceOff.traceFlags());

        assertEquals("' RAR disable'", ColumbaSqlParser.toSql(((SqlPrint) statements.get(25)).message()));
    }

    @Test
    void rangeQuery() {
        SqlSelect select = (SqlSelect) statements.get(7);
        assertEquals("SELECT *\nFROM [TestTable]\nWHERE [ID] < 300", ColumbaSqlParser.toSql(select));
    }

    @Test
    void createTableAsSelect() {
        SqlCreateTable create = (SqlCreateTable) statements.get(11);
        assertEquals("Testtable2", create.name().getSimple());
        assertTrue(create.columns().isEmpty());
        assertInstanceOf(SqlSelect.class, create.query().orElseThrow());
    }

    @Test
    void loopJoinQueriesKeepTheirHintsAndTheInSubquery() {
        SqlQueryOption loop27 = (SqlQueryOption) statements.get(16);
        assertEquals(List.of(SqlQueryHint.Kind.LOOP_JOIN),
                loop27.hints().stream().map(SqlQueryHint::kind).toList());
        SqlSelect select = (SqlSelect) loop27.query();
        SqlCall where = (SqlCall) select.getWhere();
        assertEquals(SqlKind.AND, where.getKind());
        SqlBasicCall in = (SqlBasicCall) where.operand(0);
        assertEquals(SqlKind.IN, in.getKind());
        assertInstanceOf(SqlSelect.class, in.operand(1));
        assertEquals("[ID] < 27", ColumbaSqlParser.toSql(where.operand(1)));

        SqlQueryOption maxdop = (SqlQueryOption) statements.get(33);
        assertEquals(List.of(SqlQueryHint.Kind.RECOMPILE, SqlQueryHint.Kind.LOOP_JOIN,
                SqlQueryHint.Kind.MAXDOP), maxdop.hints().stream().map(SqlQueryHint::kind).toList());
        assertEquals(1, maxdop.maxDegreeOfParallelism().orElseThrow());
        assertTrue(maxdop.has(SqlQueryHint.Kind.RECOMPILE));
    }
}
