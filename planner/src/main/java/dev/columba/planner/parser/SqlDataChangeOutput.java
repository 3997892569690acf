package dev.columba.planner.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * An INSERT, UPDATE, DELETE or MERGE with the rows it changed as its result: SQL Server's
 * {@code OUTPUT} clause or PostgreSQL's {@code RETURNING}.
 * <pre>
 * INSERT INTO t [(columns)] OUTPUT item, ... [INTO log [(columns)]] { VALUES ... | SELECT ... }
 * UPDATE t SET ... OUTPUT item, ... [INTO ...] [WHERE ...]
 * DELETE FROM t [alias] OUTPUT item, ... [INTO ...] [WHERE ...]
 * MERGE ... WHEN ... OUTPUT item, ... [INTO ...]
 * { INSERT ... | UPDATE ... | DELETE ... } RETURNING item, ...
 * </pre>
 * An OUTPUT item names the new row as {@code inserted} and the old one as {@code deleted}
 * ({@code inserted.*}, {@code deleted.price * 2}); MERGE adds {@code $action}. A RETURNING item
 * names the row by its columns alone (the new row, for DELETE the old one), or qualified by the
 * table's name or alias. With {@code INTO log}
 * the rows go into table {@code log} instead of to the client. The planner resolves the items
 * ({@code dev.columba.planner.plan.OutputItems}); this node holds what was written.
 */
public final class SqlDataChangeOutput extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("OUTPUT", SqlKind.OTHER);

    /** How the items name the rows. */
    public enum Style { OUTPUT, RETURNING }

    /** The clause as the parser reads it, before it knows its statement. */
    public record Clause(SqlParserPos position, Style style, SqlNodeList items, SqlIdentifier into,
                         SqlNodeList intoColumns) {
        public Clause {
            Objects.requireNonNull(style, "style");
            Objects.requireNonNull(items, "items");
            if (into == null && intoColumns != null) {
                throw new IllegalArgumentException("a column list without INTO");
            }
        }
    }

    private final SqlNode statement;
    private final Clause clause;

    private SqlDataChangeOutput(SqlNode statement, Clause clause) {
        super(clause.position());
        this.statement = statement;
        this.clause = clause;
    }

    /**
     * {@code statement} with the clause read after it, or as it is without one.
     *
     * @throws IllegalArgumentException for a statement that is not a data change
     */
    public static SqlNode of(SqlNode statement, Clause clause) {
        if (clause == null) {
            return statement;
        }
        if (!(statement instanceof SqlInsert || statement instanceof SqlUpdate || statement instanceof SqlDelete
                || statement instanceof SqlMergeStatement)) {
            throw new IllegalArgumentException(clause.style() + " after " + statement.getKind());
        }
        return new SqlDataChangeOutput(statement, clause);
    }

    /** The INSERT, UPDATE, DELETE or MERGE. */
    public SqlNode statement() {
        return statement;
    }

    public Style style() {
        return clause.style();
    }

    /** The items as written: expressions with optional aliases, {@code inserted.*}, {@code *}. */
    public SqlNodeList items() {
        return clause.items();
    }

    /** The table the rows go into instead of to the client ({@code OUTPUT ... INTO}), or null. */
    public SqlIdentifier into() {
        return clause.into();
    }

    /** The columns of {@link #into()} the items fill, in order; null for all of them in order. */
    public SqlNodeList intoColumns() {
        return clause.intoColumns();
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(statement);
        operands.add(clause.items());
        operands.add(clause.into());
        operands.add(clause.intoColumns());
        return operands;
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        statement.unparse(writer, 0, 0);
        writer.keyword(clause.style().name());
        clause.items().unparse(writer, 0, 0);
        if (clause.into() != null) {
            writer.keyword("INTO");
            clause.into().unparse(writer, 0, 0);
            if (clause.intoColumns() != null) {
                SqlWriter.Frame frame = writer.startList("(", ")");
                for (SqlNode column : clause.intoColumns()) {
                    writer.sep(",");
                    column.unparse(writer, 0, 0);
                }
                writer.endList(frame);
            }
        }
    }
}
