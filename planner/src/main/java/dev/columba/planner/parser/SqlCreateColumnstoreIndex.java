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
 * {@code CREATE [CLUSTERED | NONCLUSTERED] COLUMNSTORE INDEX name ON table [(column, ...)]
 * [WITH (option, ...)]}. A clustered columnstore index (the default) converts the whole table to
 * columnstore storage and takes no column list; a nonclustered one names its columns.
 */
public final class SqlCreateColumnstoreIndex extends SqlCreate {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("CREATE COLUMNSTORE INDEX", SqlKind.CREATE_INDEX);

    private final boolean clustered;
    private final SqlIdentifier name;
    private final SqlIdentifier table;
    private final SqlNodeList columnList;
    private final List<SqlIdentifier> columns;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    public SqlCreateColumnstoreIndex(SqlParserPos pos, boolean replace, boolean clustered,
            SqlIdentifier name, SqlIdentifier table, SqlNodeList columns, SqlNodeList options) {
        super(OPERATOR, pos, replace, false);
        this.clustered = clustered;
        this.name = name;
        this.table = table;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlIdentifier.class::cast).toList();
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    /** True for CLUSTERED (written or implied), false for NONCLUSTERED. */
    public boolean clustered() {
        return clustered;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier table() {
        return table;
    }

    /** The columns named in parentheses; empty when none were (all columns). */
    public List<SqlIdentifier> columns() {
        return columns;
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
        writer.keyword(clustered ? "CLUSTERED" : "NONCLUSTERED");
        writer.keyword("COLUMNSTORE INDEX");
        name.unparse(writer, 0, 0);
        writer.keyword("ON");
        table.unparse(writer, 0, 0);
        if (!columns.isEmpty()) {
            ParenthesizedList.unparse(writer, columns);
        }
        SqlOption.unparseList(writer, "WITH", options);
    }
}
