package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER TABLE name SET (option, ...)}: changes table options such as dictionary_overflow. */
public final class SqlAlterTableSetOptions extends SqlAlterTable {
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    public SqlAlterTableSetOptions(SqlParserPos pos, SqlIdentifier table, SqlNodeList options) {
        super(pos, table);
        if (options.isEmpty()) {
            throw new IllegalArgumentException("ALTER TABLE " + table + " SET needs an option");
        }
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    public List<SqlOption> options() {
        return options;
    }

    public Optional<SqlOption> option(String name) {
        return SqlOption.find(options, name);
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(table(), optionList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER TABLE");
        table().unparse(writer, 0, 0);
        SqlOption.unparseList(writer, "SET", options);
    }
}
