package dev.columba.planner.parser;

import java.util.List;
import java.util.Objects;
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
 * {@code [CONSTRAINT name] UNIQUE (column, ...)} or {@code [CONSTRAINT name] CHECK (condition)},
 * written as a table constraint or on one column (the parser moves a column's constraint here, its
 * column list being that column). A PRIMARY KEY is {@link SqlPrimaryKey}, not this.
 */
public final class SqlTableConstraint extends SqlCall {
    private static final SqlOperator UNIQUE_OPERATOR = new SqlSpecialOperator("UNIQUE", SqlKind.UNIQUE);
    private static final SqlOperator CHECK_OPERATOR = new SqlSpecialOperator("CHECK", SqlKind.CHECK);

    public enum Kind { UNIQUE, CHECK }

    private final Kind kind;
    private final SqlIdentifier constraintName;
    private final SqlNodeList columnList;
    private final SqlNode condition;

    /**
     * A UNIQUE constraint has {@code columns} (one or more) and no condition; a CHECK constraint a
     * condition and no columns. {@code constraintName} is null when no CONSTRAINT name was written.
     */
    public SqlTableConstraint(SqlParserPos pos, Kind kind, SqlIdentifier constraintName, SqlNodeList columns,
                              SqlNode condition) {
        super(pos);
        this.kind = Objects.requireNonNull(kind, "kind");
        if (kind == Kind.UNIQUE && (columns == null || columns.isEmpty() || condition != null)) {
            throw new IllegalArgumentException("a UNIQUE constraint needs columns and no condition");
        }
        if (kind == Kind.CHECK && (condition == null || columns != null && !columns.isEmpty())) {
            throw new IllegalArgumentException("a CHECK constraint needs a condition and no columns");
        }
        this.constraintName = constraintName;
        this.columnList = columns == null ? SqlNodeList.EMPTY : columns;
        this.condition = condition;
    }

    public Kind kind() {
        return kind;
    }

    public Optional<SqlIdentifier> constraintName() {
        return Optional.ofNullable(constraintName);
    }

    /** A UNIQUE constraint's columns, in key order; empty for CHECK. */
    public List<SqlIdentifier> columns() {
        return columnList.stream().map(SqlIdentifier.class::cast).toList();
    }

    /** A CHECK constraint's condition. */
    public Optional<SqlNode> condition() {
        return Optional.ofNullable(condition);
    }

    @Override
    public SqlOperator getOperator() {
        return kind == Kind.UNIQUE ? UNIQUE_OPERATOR : CHECK_OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(constraintName, columnList, condition);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        if (constraintName != null) {
            writer.keyword("CONSTRAINT");
            constraintName.unparse(writer, 0, 0);
        }
        if (kind == Kind.UNIQUE) {
            writer.keyword("UNIQUE");
            ParenthesizedList.unparse(writer, columns());
        } else {
            writer.keyword("CHECK");
            SqlWriter.Frame frame = writer.startList("(", ")");
            condition.unparse(writer, 0, 0);
            writer.endList(frame);
        }
    }
}
