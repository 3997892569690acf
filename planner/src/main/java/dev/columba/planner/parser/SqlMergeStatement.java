package dev.columba.planner.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * SQL Server's MERGE (Calcite's {@code SqlMerge} holds one WHEN MATCHED UPDATE and one WHEN NOT
 * MATCHED INSERT, and no DELETE, no AND conditions, no BY SOURCE):
 * <pre>
 * MERGE [INTO] target [[AS] alias]
 * USING table_or_subquery [[AS] alias [(columns)]]
 * ON condition
 * { WHEN MATCHED [AND condition] THEN { UPDATE SET column = value, ... | DELETE }
 * | WHEN NOT MATCHED [BY TARGET] [AND condition] THEN INSERT [(columns)] { VALUES (value, ...) | DEFAULT VALUES }
 * | WHEN NOT MATCHED BY SOURCE [AND condition] THEN { UPDATE SET ... | DELETE } } ...
 * </pre>
 * The planner rewrites it into one query over a join of target and source (see
 * {@code dev.columba.planner.plan.MergeRewrite}); this node only holds what was written.
 */
public final class SqlMergeStatement extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("MERGE", SqlKind.OTHER);

    /** Which rows of the join a clause applies to. */
    public enum Match {
        /** A target row and a source row that satisfy ON. */
        MATCHED,
        /** A source row that no target row matches ({@code WHEN NOT MATCHED [BY TARGET]}). */
        NOT_MATCHED_BY_TARGET,
        /** A target row that no source row matches ({@code WHEN NOT MATCHED BY SOURCE}). */
        NOT_MATCHED_BY_SOURCE
    }

    public enum Action { UPDATE, DELETE, INSERT }

    /**
     * One WHEN clause. For UPDATE, {@code columns} and {@code values} are the SET list; for INSERT,
     * the column list (empty: every column that is not generated, in order) and the VALUES row
     * (empty for DEFAULT VALUES); for DELETE both are empty. A value may be {@code DEFAULT}.
     */
    public record Clause(SqlParserPos position, Match match, SqlNode condition, Action action,
                         List<SqlIdentifier> columns, List<SqlNode> values) {
        public Clause {
            Objects.requireNonNull(match, "match");
            Objects.requireNonNull(action, "action");
            columns = List.copyOf(columns);
            values = List.copyOf(values);
            if (action == Action.INSERT && match != Match.NOT_MATCHED_BY_TARGET
                    || action != Action.INSERT && match == Match.NOT_MATCHED_BY_TARGET) {
                throw new IllegalArgumentException("WHEN " + match + " cannot " + action);
            }
            if (action == Action.UPDATE && (columns.isEmpty() || columns.size() != values.size())) {
                throw new IllegalArgumentException("UPDATE SET needs one value per column, was " + columns + " = " + values);
            }
        }
    }

    private final SqlIdentifier target;
    private final SqlIdentifier alias;
    private final SqlNode source;
    private final SqlNode condition;
    private final List<Clause> clauses;

    public SqlMergeStatement(SqlParserPos pos, SqlIdentifier target, SqlIdentifier alias, SqlNode source,
                             SqlNode condition, List<Clause> clauses) {
        super(pos);
        this.target = Objects.requireNonNull(target, "target");
        this.alias = alias;
        this.source = Objects.requireNonNull(source, "source");
        this.condition = Objects.requireNonNull(condition, "condition");
        if (clauses.isEmpty()) {
            throw new IllegalArgumentException("MERGE needs at least one WHEN clause");
        }
        this.clauses = List.copyOf(clauses);
    }

    /** The table written. */
    public SqlIdentifier target() {
        return target;
    }

    /** The name the statement calls the target by: its alias, else its name. */
    public String targetName() {
        return alias != null ? alias.getSimple() : target.names.getLast();
    }

    /** The source as written: a table name, or {@code table_or_subquery AS alias [(columns)]}. */
    public SqlNode source() {
        return source;
    }

    public SqlNode condition() {
        return condition;
    }

    /** The WHEN clauses in the order written, which is the order they are tried in. */
    public List<Clause> clauses() {
        return clauses;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(target);
        operands.add(alias);
        operands.add(source);
        operands.add(condition);
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("MERGE INTO");
        target.unparse(writer, 0, 0);
        if (alias != null) {
            writer.keyword("AS");
            alias.unparse(writer, 0, 0);
        }
        writer.keyword("USING");
        source.unparse(writer, 0, 0);
        writer.keyword("ON");
        condition.unparse(writer, 0, 0);
        for (Clause clause : clauses) {
            writer.keyword(switch (clause.match()) {
                case MATCHED -> "WHEN MATCHED";
                case NOT_MATCHED_BY_TARGET -> "WHEN NOT MATCHED BY TARGET";
                case NOT_MATCHED_BY_SOURCE -> "WHEN NOT MATCHED BY SOURCE";
            });
            if (clause.condition() != null) {
                writer.keyword("AND");
                clause.condition().unparse(writer, 0, 0);
            }
            writer.keyword("THEN");
            switch (clause.action()) {
                case DELETE -> writer.keyword("DELETE");
                case UPDATE -> {
                    writer.keyword("UPDATE SET");
                    for (int index = 0; index < clause.columns().size(); index++) {
                        if (index > 0) {
                            writer.sep(",");
                        }
                        clause.columns().get(index).unparse(writer, 0, 0);
                        writer.keyword("=");
                        clause.values().get(index).unparse(writer, 0, 0);
                    }
                }
                case INSERT -> {
                    writer.keyword("INSERT");
                    if (!clause.columns().isEmpty()) {
                        new SqlNodeList(clause.columns(), SqlParserPos.ZERO).unparse(writer, 0, 0);
                    }
                    if (clause.values().isEmpty()) {
                        writer.keyword("DEFAULT VALUES");
                    } else {
                        writer.keyword("VALUES");
                        SqlWriter.Frame frame = writer.startList("(", ")");
                        for (SqlNode value : clause.values()) {
                            writer.sep(",");
                            value.unparse(writer, 0, 0);
                        }
                        writer.endList(frame);
                    }
                }
            }
        }
    }
}
