package dev.columba.planner.parser;

import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER TABLE name ...}: the statements that change an existing table. */
public abstract sealed class SqlAlterTable extends SqlDdl
        permits SqlAlterTableSetOptions, SqlAlterTableAlterColumn, SqlAlterTableAddOrDrop {
    static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

    private final SqlIdentifier table;

    SqlAlterTable(SqlParserPos pos, SqlIdentifier table) {
        super(OPERATOR, pos);
        this.table = table;
    }

    public SqlIdentifier table() {
        return table;
    }
}
