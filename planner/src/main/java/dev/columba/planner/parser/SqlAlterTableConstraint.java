package dev.columba.planner.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code ALTER TABLE name ADD [CONSTRAINT c] UNIQUE (column, ...) | CHECK (condition)} or
 * {@code ALTER TABLE name DROP CONSTRAINT [IF EXISTS] c}.
 */
public final class SqlAlterTableConstraint extends SqlAlterTableAddOrDrop<SqlTableConstraint> {
    public SqlAlterTableConstraint(SqlParserPos pos, SqlIdentifier table, SqlTableConstraint added, SqlIdentifier dropped,
                                   boolean ifExists) {
        super(pos, table, added, dropped, ifExists, "constraint", "ADD", "DROP CONSTRAINT");
    }
}
