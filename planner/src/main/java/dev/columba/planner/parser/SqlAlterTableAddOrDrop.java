package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code ALTER TABLE name ADD <definition>} or {@code ALTER TABLE name DROP <kind> [IF EXISTS] name}
 * of a column or a constraint: exactly one of {@link #added()} and {@link #dropped()} is present.
 *
 * @param <T> the node an ADD carries (a column or a constraint definition)
 */
public abstract sealed class SqlAlterTableAddOrDrop<T extends SqlNode> extends SqlAlterTable
        permits SqlAlterTableColumn, SqlAlterTableConstraint {
    private final T added;
    private final SqlIdentifier dropped;
    private final boolean ifExists;
    private final String addKeyword;
    private final String dropKeyword;

    SqlAlterTableAddOrDrop(SqlParserPos pos, SqlIdentifier table, T added, SqlIdentifier dropped, boolean ifExists,
                           String what, String addKeyword, String dropKeyword) {
        super(pos, table);
        if ((added == null) == (dropped == null)) {
            throw new IllegalArgumentException("ALTER TABLE " + table + " adds or drops one " + what);
        }
        this.added = added;
        this.dropped = dropped;
        this.ifExists = ifExists;
        this.addKeyword = addKeyword;
        this.dropKeyword = dropKeyword;
    }

    public Optional<T> added() {
        return Optional.ofNullable(added);
    }

    public Optional<SqlIdentifier> dropped() {
        return Optional.ofNullable(dropped);
    }

    /** DROP ... IF EXISTS: a missing column or constraint is not an error. */
    public boolean ifExists() {
        return ifExists;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(table(), added, dropped);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER TABLE");
        table().unparse(writer, 0, 0);
        if (added != null) {
            writer.keyword(addKeyword);
            added.unparse(writer, 0, 0);
        } else {
            writer.keyword(dropKeyword);
            if (ifExists) {
                writer.keyword("IF EXISTS");
            }
            dropped.unparse(writer, 0, 0);
        }
    }
}
