package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * A column of CREATE TABLE: either stored, {@code name type [IDENTITY (seed, increment)]
 * [DEFAULT value] [NULL | NOT NULL]}, or computed, {@code name AS expression [PERSISTED]
 * [NULL | NOT NULL]}, whose type is the expression's. A PRIMARY KEY written on the column is not
 * here: the parser moves it to {@link SqlCreateTable#primaryKey()}.
 */
public final class SqlColumnDefinition extends SqlCall {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("COLUMN_DECL", SqlKind.COLUMN_DECL);

    /** IDENTITY (seed, increment): each inserted row gets the next value, starting at seed. */
    public record Identity(long seed, long increment) {
        public Identity {
            if (increment == 0) {
                throw new IllegalArgumentException("IDENTITY increment must not be 0");
            }
        }
    }

    private final SqlIdentifier name;
    private final SqlDataTypeSpec dataType;
    private final Nullability nullability;
    private final Identity identity;
    private final SqlNode computedExpression;
    private final boolean persisted;
    private final SqlNode defaultValue;

    /**
     * Exactly one of {@code dataType} and {@code computedExpression} is non-null; {@code identity}
     * and {@code defaultValue} may be null, and only a stored column has them.
     */
    public SqlColumnDefinition(SqlParserPos pos, SqlIdentifier name, SqlDataTypeSpec dataType,
            Nullability nullability, Identity identity, SqlNode computedExpression,
            boolean persisted, SqlNode defaultValue) {
        super(pos);
        if ((dataType == null) == (computedExpression == null)) {
            throw new IllegalArgumentException("column " + name
                    + " needs either a type or a computing expression, not both or neither");
        }
        if (computedExpression == null && persisted) {
            throw new IllegalArgumentException("column " + name + " is PERSISTED but not computed");
        }
        if (computedExpression != null && (identity != null || defaultValue != null)) {
            throw new IllegalArgumentException("computed column " + name
                    + " cannot have IDENTITY or DEFAULT");
        }
        this.name = name;
        this.dataType = dataType;
        this.nullability = nullability;
        this.identity = identity;
        this.computedExpression = computedExpression;
        this.persisted = persisted;
        this.defaultValue = defaultValue;
    }

    public SqlIdentifier name() {
        return name;
    }

    /** The declared type; empty for a computed column, whose type is its expression's. */
    public Optional<SqlDataTypeSpec> dataType() {
        return Optional.ofNullable(dataType);
    }

    public Nullability nullability() {
        return nullability;
    }

    public Optional<Identity> identity() {
        return Optional.ofNullable(identity);
    }

    public boolean isComputed() {
        return computedExpression != null;
    }

    /** The expression of a computed column ({@code name AS expression}). */
    public Optional<SqlNode> computedExpression() {
        return Optional.ofNullable(computedExpression);
    }

    /** PERSISTED: a computed column whose values are stored, not computed on read. */
    public boolean persisted() {
        return persisted;
    }

    public Optional<SqlNode> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, dataType, computedExpression, defaultValue);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        name.unparse(writer, 0, 0);
        if (computedExpression != null) {
            writer.keyword("AS");
            computedExpression.unparse(writer, 0, 0);
            if (persisted) {
                writer.keyword("PERSISTED");
            }
        } else {
            dataType.unparse(writer, 0, 0);
        }
        if (identity != null) {
            writer.keyword("IDENTITY");
            SqlWriter.Frame frame = writer.startList("(", ")");
            for (long number : new long[] {identity.seed(), identity.increment()}) {
                writer.sep(",");
                writer.literal(Long.toString(number));
            }
            writer.endList(frame);
        }
        if (defaultValue != null) {
            writer.keyword("DEFAULT");
            defaultValue.unparse(writer, 0, 0);
        }
        nullability.unparse(writer);
    }
}
