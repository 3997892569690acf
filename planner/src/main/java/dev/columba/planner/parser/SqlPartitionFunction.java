package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * SQL Server's {@code CREATE PARTITION FUNCTION name ( type ) AS RANGE [ LEFT | RIGHT ] FOR VALUES
 * ( boundary, ... )}: n boundaries make n + 1 partitions. RANGE LEFT (the default) puts a boundary
 * value in the partition to its left, RANGE RIGHT in the one to its right.
 */
public final class SqlPartitionFunction extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE PARTITION FUNCTION", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlDataTypeSpec type;
    private final boolean right;
    private final SqlNodeList boundaries;

    public SqlPartitionFunction(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec type, boolean right,
                                SqlNodeList boundaries) {
        super(pos);
        this.name = name;
        this.type = type;
        this.right = right;
        this.boundaries = boundaries;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlDataTypeSpec type() {
        return type;
    }

    /** RANGE RIGHT: a boundary value belongs to the partition on its right. */
    public boolean right() {
        return right;
    }

    /** The boundary values as written (literals, possibly signed). */
    public List<SqlNode> boundaries() {
        return boundaries.getList();
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(name, type, boundaries);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE PARTITION FUNCTION");
        name.unparse(writer, 0, 0);
        SqlWriter.Frame frame = writer.startList("(", ")");
        type.unparse(writer, 0, 0);
        writer.endList(frame);
        writer.keyword("AS RANGE");
        writer.keyword(right ? "RIGHT" : "LEFT");
        writer.keyword("FOR VALUES");
        SqlWriter.Frame values = writer.startList("(", ")");
        for (SqlNode boundary : boundaries) {
            writer.sep(",");
            boundary.unparse(writer, 0, 0);
        }
        writer.endList(values);
    }
}
