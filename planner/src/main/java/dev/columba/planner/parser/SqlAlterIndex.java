package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlDdl;
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
 * {@code ALTER INDEX {name | ALL} ON table {REORGANIZE | REBUILD} [WITH (option, ...)]}. On a
 * columnstore, REORGANIZE compresses closed (with {@code COMPRESS_ALL_ROW_GROUPS = ON}, also open)
 * delta rowgroups and merges small rowgroups; REBUILD rewrites everything.
 */
public final class SqlAlterIndex extends SqlDdl {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("ALTER INDEX", SqlKind.ALTER_INDEX);

    /** What to do to the index. */
    public enum Action { REORGANIZE, REBUILD }

    private final SqlIdentifier index;
    private final SqlIdentifier table;
    private final Action action;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    /** {@code index} is null for ALTER INDEX ALL. */
    public SqlAlterIndex(SqlParserPos pos, SqlIdentifier index, SqlIdentifier table, Action action,
            SqlNodeList options) {
        super(OPERATOR, pos);
        this.index = index;
        this.table = table;
        this.action = action;
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    /** The index named; empty for ALTER INDEX ALL, which means every index of the table. */
    public Optional<SqlIdentifier> index() {
        return Optional.ofNullable(index);
    }

    public boolean allIndexes() {
        return index == null;
    }

    public SqlIdentifier table() {
        return table;
    }

    public Action action() {
        return action;
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
        return ImmutableNullableList.of(index, table, optionList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER INDEX");
        if (index == null) {
            writer.keyword("ALL");
        } else {
            index.unparse(writer, 0, 0);
        }
        writer.keyword("ON");
        table.unparse(writer, 0, 0);
        writer.keyword(action.name());
        SqlOption.unparseList(writer, "WITH", options);
    }
}
