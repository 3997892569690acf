package dev.columba.planner.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCreate;
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
 * {@code CREATE TABLE name (column | PRIMARY KEY, UNIQUE or CHECK constraint, ...) [WITH (option, ...)]}, or
 * {@code CREATE TABLE name [WITH (option, ...)] AS query}. Options choose the storage
 * ({@code storage = columnstore}) and its behaviour ({@code dictionary_overflow = trim},
 * {@code compression = archive}, {@code rowgroup_max_rows = 1048576}).
 *
 * <p>Not Calcite's {@code org.apache.calcite.sql.ddl.SqlCreateTable}: Columba's has IDENTITY,
 * computed columns, a clustered or nonclustered primary key, and options.
 */
public final class SqlCreateTable extends SqlCreate {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

    private final SqlIdentifier name;
    private final SqlNodeList columnList;
    private final List<SqlColumnDefinition> columns;
    private final SqlPrimaryKey primaryKey;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;
    private final SqlNode query;
    private final List<SqlTableConstraint> constraints;

    /** A table without UNIQUE or CHECK constraints (see the full constructor). */
    public SqlCreateTable(SqlParserPos pos, boolean replace, boolean ifNotExists,
            SqlIdentifier name, SqlNodeList columns, SqlPrimaryKey primaryKey,
            SqlNodeList options, SqlNode query) {
        this(pos, replace, ifNotExists, name, columns, primaryKey, List.of(), options, query);
    }

    /**
     * Either {@code columns} is non-empty and {@code query} null, or {@code columns} is empty and
     * {@code query} is the AS query; {@code primaryKey} is null when the table has none;
     * {@code constraints} are its UNIQUE and CHECK constraints, table-level and column-level, in the
     * order written.
     */
    public SqlCreateTable(SqlParserPos pos, boolean replace, boolean ifNotExists,
            SqlIdentifier name, SqlNodeList columns, SqlPrimaryKey primaryKey,
            List<SqlTableConstraint> constraints, SqlNodeList options, SqlNode query) {
        super(OPERATOR, pos, replace, ifNotExists);
        if (columns.isEmpty() == (query == null)) {
            throw new IllegalArgumentException("table " + name
                    + " needs either columns or an AS query, not both or neither");
        }
        if (query != null && primaryKey != null) {
            throw new IllegalArgumentException("table " + name + " AS query cannot declare a primary key");
        }
        this.name = name;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlColumnDefinition.class::cast).toList();
        this.primaryKey = primaryKey;
        this.optionList = options;
        this.options = SqlOption.listOf(options);
        this.query = query;
        this.constraints = List.copyOf(constraints);
        if (query != null && !this.constraints.isEmpty()) {
            throw new IllegalArgumentException("table " + name + " AS query cannot declare constraints");
        }
    }

    /** The UNIQUE and CHECK constraints, column-level ones included, in the order written. */
    public List<SqlTableConstraint> constraints() {
        return constraints;
    }

    public SqlIdentifier name() {
        return name;
    }

    public boolean ifNotExists() {
        return ifNotExists;
    }

    /** The columns in declaration order; empty for CREATE TABLE ... AS query. */
    public List<SqlColumnDefinition> columns() {
        return columns;
    }

    /** The primary key, declared as a table constraint or on a column. */
    public Optional<SqlPrimaryKey> primaryKey() {
        return Optional.ofNullable(primaryKey);
    }

    /** The WITH (...) options in the order written. */
    public List<SqlOption> options() {
        return options;
    }

    /** The option called {@code name} (any case), if given. */
    public Optional<SqlOption> option(String name) {
        return SqlOption.find(options, name);
    }

    /** The query of CREATE TABLE ... AS query. */
    public Optional<SqlNode> query() {
        return Optional.ofNullable(query);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, columnList, primaryKey, optionList, query);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE");
        if (getReplace()) {
            writer.keyword("OR REPLACE");
        }
        writer.keyword("TABLE");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        if (!columns.isEmpty()) {
            List<SqlNode> elements = new ArrayList<>(columns);
            if (primaryKey != null) {
                elements.add(primaryKey);
            }
            elements.addAll(constraints);
            ParenthesizedList.unparse(writer, elements);
        }
        SqlOption.unparseList(writer, "WITH", options);
        if (query != null) {
            writer.keyword("AS");
            writer.newlineAndIndent();
            query.unparse(writer, 0, 0);
        }
    }
}
