package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code PRINT expression}: SQL Server's message to the client, as the seed scripts use it. */
public final class SqlPrint extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("PRINT", SqlKind.OTHER);

    private final SqlNode message;

    public SqlPrint(SqlParserPos pos, SqlNode message) {
        super(pos);
        this.message = message;
    }

    /** The expression whose value is printed, usually a string literal. */
    public SqlNode message() {
        return message;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(message);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("PRINT");
        message.unparse(writer, 0, 0);
    }
}
