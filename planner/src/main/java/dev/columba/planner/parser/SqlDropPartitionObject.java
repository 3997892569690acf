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

/** {@code DROP PARTITION FUNCTION name} or {@code DROP PARTITION SCHEME name}. */
public final class SqlDropPartitionObject extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP PARTITION", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final boolean scheme;

    public SqlDropPartitionObject(SqlParserPos pos, SqlIdentifier name, boolean scheme) {
        super(pos);
        this.name = name;
        this.scheme = scheme;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** A scheme; else a function. */
    public boolean scheme() {
        return scheme;
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
        writer.keyword(scheme ? "DROP PARTITION SCHEME" : "DROP PARTITION FUNCTION");
        name.unparse(writer, 0, 0);
    }
}
