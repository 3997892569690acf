package dev.columba.planner.parser;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * One {@code key [= value]} of a WITH (...) or SET (...) list: table options
 * ({@code storage = columnstore}), index options ({@code COMPRESS_ALL_ROW_GROUPS = ON}) and COPY
 * options ({@code HEADER}, {@code DELIMITER = ','}). The parser only checks the shape; which keys
 * and values mean something is the planner's business.
 */
public final class SqlOption extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("OPTION", SqlKind.OTHER);

    private final SqlIdentifier name;
    private final SqlNode value;

    /** {@code value} is a literal, an identifier (ON and OFF are identifiers), or null when absent. */
    public SqlOption(SqlParserPos pos, SqlIdentifier name, SqlNode value) {
        super(pos);
        if (!name.isSimple()) {
            throw new IllegalArgumentException("option name must be simple, was " + name);
        }
        if (value != null && !(value instanceof SqlLiteral) && !(value instanceof SqlIdentifier)) {
            throw new IllegalArgumentException("option value must be a literal or a name, was " + value);
        }
        this.name = name;
        this.value = value;
    }

    /** The key in lower case: option names are case-insensitive. */
    public String name() {
        return name.getSimple().toLowerCase(Locale.ROOT);
    }

    /** The key as written, with its position for error messages. */
    public SqlIdentifier nameIdentifier() {
        return name;
    }

    /** The value as written: a {@link SqlLiteral} or a {@link SqlIdentifier}; empty for a bare key. */
    public Optional<SqlNode> value() {
        return Optional.ofNullable(value);
    }

    /**
     * The value as text: a name as written ({@code columnstore}, {@code ON}), a string literal's
     * contents, a number's digits, {@code true} or {@code false}; empty for a bare key or NULL.
     */
    public Optional<String> valueText() {
        return switch (value) {
            case null -> Optional.empty();
            case SqlIdentifier identifier -> Optional.of(identifier.getSimple());
            case SqlLiteral literal -> Optional.ofNullable(literal.toValue());
            default -> throw new IllegalStateException("option value is " + value.getClass().getName());
        };
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, value);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        name.unparse(writer, 0, 0);
        if (value != null) {
            writer.keyword("=");
            value.unparse(writer, 0, 0);
        }
    }

    /** The {@link SqlOption}s of a list the parser built. */
    static List<SqlOption> listOf(SqlNodeList options) {
        return options.stream().map(SqlOption.class::cast).toList();
    }

    /** Writes {@code keyword (option, ...)}, or nothing when there are no options. */
    static void unparseList(SqlWriter writer, String keyword, List<SqlOption> options) {
        if (options.isEmpty()) {
            return;
        }
        writer.keyword(keyword);
        ParenthesizedList.unparse(writer, options);
    }

    /** The option called {@code name} (any case), if the list has it. */
    static Optional<SqlOption> find(List<SqlOption> options, String name) {
        return options.stream().filter(option -> option.name().equalsIgnoreCase(name)).findFirst();
    }
}
