package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code query OPTION (hint, ...)}: a query with SQL Server's query hints, which the parser
 * accepts only at the end of a statement (or of EXPLAIN's statement). The planner validates
 * {@link #query()} as any query and applies {@link #hints()} to its plan; the wrapper itself never
 * reaches Calcite's validator.
 */
public final class SqlQueryOption extends SqlCall {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("OPTION", SqlKind.OTHER) {
                @Override
                public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos,
                        SqlNode... operands) {
                    return new SqlQueryOption(pos, operands[0], (SqlNodeList) operands[1]);
                }
            };

    private final SqlNode query;
    private final SqlNodeList hintList;
    private final List<SqlQueryHint> hints;

    public SqlQueryOption(SqlParserPos pos, SqlNode query, SqlNodeList hints) {
        super(pos);
        if (hints.isEmpty()) {
            throw new IllegalArgumentException("OPTION () needs at least one hint");
        }
        this.query = query;
        this.hintList = hints;
        this.hints = hints.stream().map(SqlQueryHint.class::cast).toList();
    }

    /** The query the hints apply to: a SELECT, set operation, VALUES or ORDER BY. */
    public SqlNode query() {
        return query;
    }

    /** The hints in the order written; a kind may appear more than once (the planner decides). */
    public List<SqlQueryHint> hints() {
        return hints;
    }

    /** The first hint of this kind, if any. */
    public Optional<SqlQueryHint> hint(SqlQueryHint.Kind kind) {
        return hints.stream().filter(hint -> hint.kind() == kind).findFirst();
    }

    public boolean has(SqlQueryHint.Kind kind) {
        return hint(kind).isPresent();
    }

    /** The degree of MAXDOP n, if given. */
    public OptionalInt maxDegreeOfParallelism() {
        return hint(SqlQueryHint.Kind.MAXDOP).map(SqlQueryHint::argument).orElse(OptionalInt.empty());
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(query, hintList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        query.unparse(writer, 0, 0);
        writer.newlineAndIndent();
        writer.keyword("OPTION");
        ParenthesizedList.unparse(writer, hints);
    }
}
