package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CHECKPOINT}: write every dirty page, so that DBCC DROPCLEANBUFFERS can empty the pool. */
public final class SqlCheckpoint extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CHECKPOINT", SqlKind.OTHER);

    public SqlCheckpoint(SqlParserPos pos) {
        super(pos);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CHECKPOINT");
    }
}
