package dev.columba.planner.parser;

import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code ALTER TABLE name ADD [CONSTRAINT c] UNIQUE (column, ...) | CHECK (condition)} or
 * {@code ALTER TABLE name DROP CONSTRAINT [IF EXISTS] c}: exactly one of {@link #added()} and
 * {@link #dropped()} is present.
 */
public final class SqlAlterTableConstraint extends SqlAlterTable {
    private final SqlTableConstraint added;
    private final SqlIdentifier dropped;
    private final boolean ifExists;

    public SqlAlterTableConstraint(SqlParserPos pos, SqlIdentifier table, SqlTableConstraint added, SqlIdentifier dropped,
                                   boolean ifExists) {
        super(pos, table);
        if ((added == null) == (dropped == null)) {
            throw new IllegalArgumentException("ALTER TABLE " + table + " adds or drops one constraint");
        }
        this.added = added;
        this.dropped = dropped;
        this.ifExists = ifExists;
    }

    public Optional<SqlTableConstraint> added() {
        return Optional.ofNullable(added);
    }

    public Optional<SqlIdentifier> dropped() {
        return Optional.ofNullable(dropped);
    }

    /** DROP CONSTRAINT IF EXISTS: a missing constraint is not an error. */
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
            writer.keyword("ADD");
            added.unparse(writer, 0, 0);
        } else {
            writer.keyword("DROP CONSTRAINT");
            if (ifExists) {
                writer.keyword("IF EXISTS");
            }
            dropped.unparse(writer, 0, 0);
        }
    }
}
