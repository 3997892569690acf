package dev.columba.planner.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code ALTER TABLE name ADD [COLUMN] definition} or
 * {@code ALTER TABLE name DROP COLUMN [IF EXISTS] column}: exactly one of {@link #added()} and
 * {@link #dropped()} is present.
 */
public final class SqlAlterTableColumn extends SqlAlterTable {
    private final SqlColumnDefinition added;
    private final SqlIdentifier dropped;
    private final boolean ifExists;

    public SqlAlterTableColumn(SqlParserPos pos, SqlIdentifier table, SqlColumnDefinition added, SqlIdentifier dropped,
                               boolean ifExists) {
        super(pos, table);
        if ((added == null) == (dropped == null)) {
            throw new IllegalArgumentException("ALTER TABLE " + table + " adds or drops one column");
        }
        this.added = added;
        this.dropped = dropped;
        this.ifExists = ifExists;
    }

    public Optional<SqlColumnDefinition> added() {
        return Optional.ofNullable(added);
    }

    public Optional<SqlIdentifier> dropped() {
        return Optional.ofNullable(dropped);
    }

    /** DROP COLUMN IF EXISTS: a missing column is not an error. */
    public boolean ifExists() {
        return ifExists;
    }

    @Override
    public java.util.List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(table(), added, dropped);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER TABLE");
        table().unparse(writer, 0, 0);
        if (added != null) {
            writer.keyword("ADD COLUMN");
            added.unparse(writer, 0, 0);
        } else {
            writer.keyword("DROP COLUMN");
            if (ifExists) {
                writer.keyword("IF EXISTS");
            }
            dropped.unparse(writer, 0, 0);
        }
    }
}
