package dev.columba.planner.parser;

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
 * {@code CREATE [UNIQUE] [CLUSTERED | NONCLUSTERED] INDEX name ON table (column, ...)
 * [WITH (option, ...)]}: a rowstore B+tree index. A CLUSTERED one makes the table itself a B+tree
 * on the key. Columnstore indexes are {@link SqlCreateColumnstoreIndex}.
 */
public final class SqlCreateIndex extends SqlCreate {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

    private final boolean unique;
    private final Clustering clustering;
    private final SqlIdentifier name;
    private final SqlIdentifier table;
    private final SqlNodeList columnList;
    private final List<SqlIdentifier> columns;
    private final List<Boolean> descending;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    public SqlCreateIndex(SqlParserPos pos, boolean replace, boolean unique, Clustering clustering,
            SqlIdentifier name, SqlIdentifier table, SqlNodeList columns, SqlNodeList options) {
        super(OPERATOR, pos, replace, false);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("index " + name + " needs at least one key column");
        }
        this.unique = unique;
        this.clustering = clustering;
        this.name = name;
        this.table = table;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlCreateIndex::column).toList();
        this.descending = columns.stream().map(column -> column.getKind() == SqlKind.DESCENDING).toList();
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    public boolean unique() {
        return unique;
    }

    public Clustering clustering() {
        return clustering;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier table() {
        return table;
    }

    /** The key columns, most significant first. */
    public List<SqlIdentifier> columns() {
        return columns;
    }

    /** Per key column, whether it is DESC. */
    public List<Boolean> descending() {
        return descending;
    }

    private static SqlIdentifier column(SqlNode node) {
        return node instanceof org.apache.calcite.sql.SqlCall call && call.getKind() == SqlKind.DESCENDING
                ? (SqlIdentifier) call.operand(0) : (SqlIdentifier) node;
    }

    public List<SqlOption> options() {
        return options;
    }

    public Optional<SqlOption> option(String name) {
        return SqlOption.find(options, name);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, table, columnList, optionList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE");
        if (getReplace()) {
            writer.keyword("OR REPLACE");
        }
        if (unique) {
            writer.keyword("UNIQUE");
        }
        clustering.unparse(writer);
        writer.keyword("INDEX");
        name.unparse(writer, 0, 0);
        writer.keyword("ON");
        table.unparse(writer, 0, 0);
        ParenthesizedList.unparse(writer, columns);
        SqlOption.unparseList(writer, "WITH", options);
    }
}
