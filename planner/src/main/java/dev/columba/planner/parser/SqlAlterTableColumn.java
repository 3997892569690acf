package dev.columba.planner.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER TABLE name ADD [COLUMN] definition} or {@code ALTER TABLE name DROP COLUMN [IF EXISTS] column}. */
public final class SqlAlterTableColumn extends SqlAlterTableAddOrDrop<SqlColumnDefinition> {
    public SqlAlterTableColumn(SqlParserPos pos, SqlIdentifier table, SqlColumnDefinition added, SqlIdentifier dropped,
                               boolean ifExists) {
        super(pos, table, added, dropped, ifExists, "column", "ADD COLUMN", "DROP COLUMN");
    }
}
