package dev.columba.planner.parser;

import java.util.List;
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

/**
 * {@code COPY table [(column, ...)] FROM 'file' [WITH (option, ...)]}: PostgreSQL's bulk load of
 * a CSV file, options such as {@code HEADER [= true]} and {@code DELIMITER = ','}.
 */
public final class SqlCopy extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("COPY", SqlKind.OTHER);

    private final SqlIdentifier table;
    private final SqlNodeList columnList;
    private final List<SqlIdentifier> columns;
    private final SqlLiteral file;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    /** {@code file} is a character literal; {@code columns} is empty when none were named. */
    public SqlCopy(SqlParserPos pos, SqlIdentifier table, SqlNodeList columns, SqlLiteral file,
            SqlNodeList options) {
        super(pos);
        if (file.toValue() == null) {
            throw new IllegalArgumentException("COPY " + table + " needs a file name, was " + file);
        }
        this.table = table;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlIdentifier.class::cast).toList();
        this.file = file;
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    public SqlIdentifier table() {
        return table;
    }

    /** The columns the file's fields go to, in order; empty means all columns of the table. */
    public List<SqlIdentifier> columns() {
        return columns;
    }

    /** The file name as written, relative names not yet resolved. */
    public String file() {
        return file.toValue();
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
        return List.of(table, columnList, file, optionList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("COPY");
        table.unparse(writer, 0, 0);
        if (!columns.isEmpty()) {
            ParenthesizedList.unparse(writer, columns);
        }
        writer.keyword("FROM");
        file.unparse(writer, 0, 0);
        SqlOption.unparseList(writer, "WITH", options);
    }
}
