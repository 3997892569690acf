package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code EXEC[UTE] name}: runs a system procedure without arguments. The only one is
 * {@code sys.sp_flush_log}, as in SQL Server: it returns once every commit so far, delayed ones
 * included, is durable. The session resolves the name, so an unknown one fails when run.
 */
public final class SqlExecuteProcedure extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("EXEC", SqlKind.OTHER);

    private final SqlIdentifier name;

    public SqlExecuteProcedure(SqlParserPos pos, SqlIdentifier name) {
        super(pos);
        this.name = name;
    }

    /** The procedure's name as written, e.g. {@code sys.sp_flush_log}. */
    public SqlIdentifier name() {
        return name;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("EXEC");
        name.unparse(writer, leftPrec, rightPrec);
    }
}
