package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code ALTER TABLE name ALTER COLUMN column type [NULL | NOT NULL]}: SQL Server's way to change a
 * column's type or nullability (seed 000 makes Randomvalue {@code int NOT NULL} after filling it).
 */
public final class SqlAlterTableAlterColumn extends SqlAlterTable {
    private final SqlIdentifier column;
    private final SqlDataTypeSpec dataType;
    private final Nullability nullability;

    public SqlAlterTableAlterColumn(SqlParserPos pos, SqlIdentifier table, SqlIdentifier column,
            SqlDataTypeSpec dataType, Nullability nullability) {
        super(pos, table);
        this.column = column;
        this.dataType = dataType;
        this.nullability = nullability;
    }

    public SqlIdentifier column() {
        return column;
    }

    public SqlDataTypeSpec dataType() {
        return dataType;
    }

    public Nullability nullability() {
        return nullability;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(table(), column, dataType);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER TABLE");
        table().unparse(writer, 0, 0);
        writer.keyword("ALTER COLUMN");
        column.unparse(writer, 0, 0);
        dataType.unparse(writer, 0, 0);
        nullability.unparse(writer);
    }
}
