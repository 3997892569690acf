package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.parser.SqlMergeStatement;
import dev.columba.planner.parser.SqlMergeStatement.Action;
import dev.columba.planner.parser.SqlMergeStatement.Clause;
import dev.columba.planner.parser.SqlMergeStatement.Match;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.GeneratedColumns;
import dev.columba.planner.schema.TableConstraints;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * MERGE as one query whose rows say what to do, for a {@code TableModify} of operation MERGE
 * ({@code TableModifyOperator.Kind.MERGE}). Calcite's converter cannot take SQL Server's MERGE
 * (several WHEN clauses with conditions, DELETE, BY SOURCE), and the join that decides which
 * rows match is an ordinary join, so the statement is written as a query the planner already
 * plans and parallelizes:
 * <pre>
 * SELECT "$o0" .. "$o{n-1}",                                      -- the target row (NULLs when not matched by target)
 *        CASE "$clause" WHEN k THEN value_k_j ... ELSE "$o{j}" END  -- per column j: the row written
 *        CASE "$clause" WHEN k THEN 1 (UPDATE) | 2 (DELETE) | 3 (INSERT) END
 * FROM (SELECT t.c0 AS "$o0", ...,
 *              CASE WHEN match_1 AND cond_1 THEN 1 WHEN match_2 AND cond_2 THEN 2 ... ELSE 0 END AS "$clause",
 *                   -- match_k: "$mt" IS NOT NULL AND "$ms" IS NOT NULL (MATCHED),
 *                   --          "$mt" IS NULL (NOT MATCHED BY TARGET), "$ms" IS NULL (BY SOURCE)
 *              value_k_i AS "$v{k}_{i}", ...                      -- every value of every clause, once
 *       FROM (SELECT TRUE AS "$mt", c0, .. FROM target) AS t
 *            INNER | LEFT | RIGHT | FULL JOIN (SELECT TRUE AS "$ms", s.* FROM source) AS s ON condition)
 * WHERE "$clause" > 0
 * </pre>
 * The join is INNER when only WHEN MATCHED clauses exist, keeps the source's unmatched rows for
 * NOT MATCHED [BY TARGET] and the target's for NOT MATCHED BY SOURCE. The markers {@code $mt}
 * and {@code $ms} are NULL exactly on the side an outer join filled in. Each written expression
 * (conditions, values) occurs once in the query, so a {@code ?} is one parameter, as written;
 * since the query's text order is not the statement's, the planner orders parameter types by
 * their index (see {@link QueryPlanner}). The first clause whose condition holds is the row's
 * clause, as in SQL Server; a row no clause takes is left alone.
 */
final class MergeRewrite {
    /** Action codes of the query's last column, which {@code TableModifyOperator} reads. */
    static final int UPDATE = 1;
    static final int DELETE = 2;
    static final int INSERT = 3;

    private static final SqlParserPos POS = SqlParserPos.ZERO;

    /** The query, and the table the MERGE writes. */
    record Rewritten(SqlNode query, ColumbaTable table) {
    }

    private MergeRewrite() {
    }

    static Rewritten apply(SqlMergeStatement merge, PlannerCatalog catalog) {
        if (merge.target().names.size() > 1 && !merge.target().names.getFirst().equalsIgnoreCase("dbo")) {
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "Object '" + merge.target() + "' not found: MERGE"
                    + " writes a user table");
        }
        String tableName = merge.target().names.getLast();
        ColumbaTable table = catalog.table(tableName).orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND,
                "Object '" + tableName + "' not found (the target of the MERGE, at line "
                        + merge.target().getParserPosition().getLineNum() + ", column "
                        + merge.target().getParserPosition().getColumnNum() + ")"));
        TableSchema schema = table.schema();
        int columns = schema.size();
        RelDataType rowType = table.getRowType(new ColumbaTypeFactory());
        String targetName = merge.targetName();
        String sourceName = sourceName(merge.source());

        List<SqlNode> innerItems = new ArrayList<>();
        for (int column = 0; column < columns; column++) {
            innerItems.add(as(new SqlIdentifier(List.of(targetName, schema.column(column).name()), POS), "$o" + column));
        }
        // Per clause, per table column: the value written (null: the column's old value, or NULL
        // for a row not matched by target, which is "$o{j}" of that row).
        List<SqlNode[]> written = new ArrayList<>();
        List<SqlNode> innerValues = new ArrayList<>();
        Set<Match> matches = EnumSet.noneOf(Match.class);
        for (int clauseIndex = 0; clauseIndex < merge.clauses().size(); clauseIndex++) {
            Clause clause = merge.clauses().get(clauseIndex);
            matches.add(clause.match());
            written.add(values(clause, clauseIndex + 1, table, rowType, innerValues));
        }
        innerItems.add(as(clauseNumber(merge, targetName, sourceName), "$clause"));
        innerItems.addAll(innerValues);

        SqlNode join = new SqlJoin(POS, targetSide(table, merge, targetName),
                SqlLiteral.createBoolean(false, POS), joinType(matches).symbol(POS),
                sourceSide(merge.source(), sourceName), JoinConditionType.ON.symbol(POS), merge.condition());
        SqlSelect inner = select(innerItems, join, null);

        List<SqlNode> outerItems = new ArrayList<>();
        for (int column = 0; column < columns; column++) {
            outerItems.add(name("$o" + column));
        }
        for (int column = 0; column < columns; column++) {
            SqlNodeList whens = new SqlNodeList(POS);
            SqlNodeList thens = new SqlNodeList(POS);
            for (int clauseIndex = 0; clauseIndex < written.size(); clauseIndex++) {
                SqlNode value = written.get(clauseIndex)[column];
                if (value != null) {
                    whens.add(number(clauseIndex + 1));
                    thens.add(value);
                }
            }
            SqlNode old = name("$o" + column);
            outerItems.add(as(whens.isEmpty() ? old : SqlCase.createSwitched(POS, name("$clause"), whens, thens, old),
                    "$n" + column));
        }
        SqlNodeList whens = new SqlNodeList(POS);
        SqlNodeList thens = new SqlNodeList(POS);
        for (int clauseIndex = 0; clauseIndex < merge.clauses().size(); clauseIndex++) {
            whens.add(number(clauseIndex + 1));
            thens.add(number(switch (merge.clauses().get(clauseIndex).action()) {
                case UPDATE -> UPDATE;
                case DELETE -> DELETE;
                case INSERT -> INSERT;
            }));
        }
        outerItems.add(as(SqlCase.createSwitched(POS, name("$clause"), whens, thens, number(0)), "$action"));
        SqlNode where = SqlStdOperatorTable.GREATER_THAN.createCall(POS, name("$clause"), number(0));
        SqlSelect outer = select(outerItems, as(inner, "$merge"), where);
        return new Rewritten(outer, table);
    }

    /**
     * The values {@code clause} writes, per table column (null where it writes none); each value
     * that is an expression becomes an item {@code "$v{k}_{i}"} of the inner query, a DEFAULT the
     * column's default expression (or NULL) directly.
     */
    private static SqlNode[] values(Clause clause, int clauseNumber, ColumbaTable table, RelDataType rowType,
                                    List<SqlNode> innerValues) {
        TableSchema schema = table.schema();
        GeneratedColumns generated = table.generated();
        TableConstraints constraints = table.constraints();
        SqlNode[] values = new SqlNode[schema.size()];
        if (clause.action() == Action.DELETE) {
            return values;
        }
        List<SqlIdentifier> columns = clause.columns();
        String statement = clause.action() == Action.UPDATE ? "update" : "insert an explicit value into";
        if (clause.action() == Action.INSERT && columns.isEmpty() && !clause.values().isEmpty()) {
            List<SqlIdentifier> all = new ArrayList<>();
            for (int column = 0; column < schema.size(); column++) {
                if (!generated.isGenerated(column)) {
                    all.add(new SqlIdentifier(schema.column(column).name(), POS));
                }
            }
            columns = all;
        }
        if (clause.action() == Action.INSERT && columns.size() != clause.values().size()) {
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "the INSERT of a MERGE (at line "
                    + clause.position().getLineNum() + ", column " + clause.position().getColumnNum() + ") gives "
                    + clause.values().size() + " values for " + columns.size() + " columns (Column name or number of"
                    + " supplied values does not match table definition)");
        }
        boolean[] given = new boolean[schema.size()];
        for (int index = 0; index < columns.size(); index++) {
            SqlIdentifier name = columns.get(index);
            int column = schema.indexOf(name.names.getLast());
            if (column < 0) {
                throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "Column '" + name.names.getLast() + "' not found"
                        + " in table '" + table.name() + "' (the target of the MERGE, at line "
                        + name.getParserPosition().getLineNum() + ", column " + name.getParserPosition().getColumnNum() + ")");
            }
            if (given[column]) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "The column name '" + name.names.getLast()
                        + "' is specified more than once in a clause of the MERGE (at line "
                        + name.getParserPosition().getLineNum() + ", column " + name.getParserPosition().getColumnNum() + ")");
            }
            given[column] = true;
            GeneratedColumnRewrite.checkNotGenerated(table, name, statement);
            SqlNode value = clause.values().get(index);
            if (value.getKind() == SqlKind.DEFAULT) {
                values[column] = defaultOf(table, constraints, column);
                continue;
            }
            if (value instanceof SqlDynamicParam) {
                // A bare parameter has no type of its own here (an UPDATE's SET gives it the column's).
                value = SqlStdOperatorTable.CAST.createCall(POS, value,
                        SqlTypeUtil.convertTypeToSpec(rowType.getFieldList().get(column).getType()));
            }
            String item = "$v" + clauseNumber + "_" + index;
            innerValues.add(as(value, item));
            values[column] = name(item);
        }
        if (clause.action() == Action.INSERT) {
            // Columns not written take their defaults; identity and computed ones the operator fills.
            for (int column = 0; column < schema.size(); column++) {
                if (!given[column] && !generated.isGenerated(column)) {
                    values[column] = defaultOf(table, constraints, column);
                }
            }
        }
        return values;
    }

    private static SqlNode defaultOf(ColumbaTable table, TableConstraints constraints, int column) {
        String sql = constraints.defaults().get(column);
        return sql == null ? SqlLiteral.createNull(POS)
                : TableConstraints.expression(sql, "DEFAULT of column " + table.schema().column(column).name(), table.name());
    }

    /**
     * The number of the first clause (from 1) whose match and condition the joined row satisfies,
     * or 0: one CASE whose WHENs are {@code <match> AND <condition>}, in the clauses' order (the
     * three matches exclude each other). One CASE, not one per match nested in another, because
     * Calcite types a nested CASE's conditions before it infers a {@code ?}'s type from them.
     */
    private static SqlNode clauseNumber(SqlMergeStatement merge, String targetName, String sourceName) {
        SqlNodeList whens = new SqlNodeList(POS);
        SqlNodeList thens = new SqlNodeList(POS);
        for (int clauseIndex = 0; clauseIndex < merge.clauses().size(); clauseIndex++) {
            Clause clause = merge.clauses().get(clauseIndex);
            SqlNode targetMarker = new SqlIdentifier(List.of(targetName, "$mt"), POS);
            SqlNode sourceMarker = new SqlIdentifier(List.of(sourceName, "$ms"), POS);
            SqlNode match = switch (clause.match()) {
                case MATCHED -> SqlStdOperatorTable.AND.createCall(POS,
                        SqlStdOperatorTable.IS_NOT_NULL.createCall(POS, targetMarker),
                        SqlStdOperatorTable.IS_NOT_NULL.createCall(POS, sourceMarker));
                case NOT_MATCHED_BY_TARGET -> SqlStdOperatorTable.IS_NULL.createCall(POS, targetMarker);
                case NOT_MATCHED_BY_SOURCE -> SqlStdOperatorTable.IS_NULL.createCall(POS, sourceMarker);
            };
            whens.add(clause.condition() == null ? match
                    : SqlStdOperatorTable.AND.createCall(POS, match, clause.condition()));
            thens.add(number(clauseIndex + 1));
        }
        return new SqlCase(POS, null, whens, thens, number(0));
    }

    private static JoinType joinType(Set<Match> matches) {
        boolean keepSource = matches.contains(Match.NOT_MATCHED_BY_TARGET);
        boolean keepTarget = matches.contains(Match.NOT_MATCHED_BY_SOURCE);
        return keepSource && keepTarget ? JoinType.FULL : keepSource ? JoinType.RIGHT : keepTarget ? JoinType.LEFT
                : JoinType.INNER;
    }

    /** {@code (SELECT TRUE AS "$mt", t.c0, ... FROM target AS t) AS t}. */
    private static SqlNode targetSide(ColumbaTable table, SqlMergeStatement merge, String targetName) {
        List<SqlNode> items = new ArrayList<>();
        items.add(as(SqlLiteral.createBoolean(true, POS), "$mt"));
        for (int column = 0; column < table.schema().size(); column++) {
            items.add(new SqlIdentifier(List.of(targetName, table.schema().column(column).name()), POS));
        }
        return as(select(items, as(merge.target(), targetName), null), targetName);
    }

    /** {@code (SELECT TRUE AS "$ms", s.* FROM source) AS s}, the source as written inside. */
    private static SqlNode sourceSide(SqlNode source, String sourceName) {
        List<SqlNode> items = new ArrayList<>();
        items.add(as(SqlLiteral.createBoolean(true, POS), "$ms"));
        items.add(SqlIdentifier.star(List.of(sourceName, ""), POS, List.of(POS, POS)));
        return as(select(items, source, null), sourceName);
    }

    /** The name the source is known by: its alias, else its table's name. */
    private static String sourceName(SqlNode source) {
        if (source instanceof SqlIdentifier identifier) {
            return identifier.names.getLast();
        }
        if (source.getKind() == SqlKind.AS && ((SqlCall) source).operand(1) instanceof SqlIdentifier alias) {
            return alias.getSimple();
        }
        throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "the source of a MERGE needs an alias: USING (...) AS"
                + " s (at line " + source.getParserPosition().getLineNum() + ", column "
                + source.getParserPosition().getColumnNum() + ")");
    }

    private static SqlSelect select(List<SqlNode> items, SqlNode from, SqlNode where) {
        return new SqlSelect(POS, null, new SqlNodeList(items, POS), from, where, null, null, null, null, null, null,
                null, null);
    }

    private static SqlNode as(SqlNode node, String alias) {
        return new SqlBasicCall(SqlStdOperatorTable.AS, List.of(node, new SqlIdentifier(alias, POS)), POS);
    }

    private static SqlIdentifier name(String name) {
        return new SqlIdentifier(name, POS);
    }

    private static SqlNode number(int value) {
        return SqlLiteral.createExactNumeric(Integer.toString(value), POS);
    }
}
