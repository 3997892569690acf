package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code [CONSTRAINT name] PRIMARY KEY [CLUSTERED | NONCLUSTERED] (column, ...)}, written as a
 * table constraint or on one column. Key columns are ascending.
 */
public final class SqlPrimaryKey extends SqlCall {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("PRIMARY KEY", SqlKind.PRIMARY_KEY);

    private final SqlIdentifier constraintName;
    private final Clustering clustering;
    private final SqlNodeList columnList;
    private final List<SqlIdentifier> columns;

    /** {@code constraintName} is null when no CONSTRAINT name was written. */
    public SqlPrimaryKey(SqlParserPos pos, SqlIdentifier constraintName, Clustering clustering,
            SqlNodeList columns) {
        super(pos);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a primary key needs at least one column");
        }
        this.constraintName = constraintName;
        this.clustering = clustering;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlIdentifier.class::cast).toList();
    }

    public Optional<SqlIdentifier> constraintName() {
        return Optional.ofNullable(constraintName);
    }

    public Clustering clustering() {
        return clustering;
    }

    /** The key columns, most significant first. */
    public List<SqlIdentifier> columns() {
        return columns;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(constraintName, columnList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        if (constraintName != null) {
            writer.keyword("CONSTRAINT");
            constraintName.unparse(writer, 0, 0);
        }
        writer.keyword("PRIMARY KEY");
        clustering.unparse(writer);
        ParenthesizedList.unparse(writer, columns);
    }
}
