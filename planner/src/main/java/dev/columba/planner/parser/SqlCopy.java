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
 * {@code COPY table [(column, ...)] FROM | TO 'file' [[WITH] (option, ...)]} and
 * {@code COPY (query) TO 'file' ...}: PostgreSQL's bulk load of a CSV file and its export, options
 * such as {@code HEADER [= true]} and {@code DELIMITER = ','}.
 */
public final class SqlCopy extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("COPY", SqlKind.OTHER);

    private final SqlIdentifier table;
    private final SqlNode query;
    private final boolean from;
    private final SqlNodeList columnList;
    private final List<SqlIdentifier> columns;
    private final SqlLiteral file;
    private final SqlNodeList optionList;
    private final List<SqlOption> options;

    /** {@code COPY table [(columns)] FROM 'file'}: {@code file} is a character literal; {@code columns} may be empty. */
    public SqlCopy(SqlParserPos pos, SqlIdentifier table, SqlNodeList columns, SqlLiteral file,
            SqlNodeList options) {
        this(pos, table, columns, null, true, file, options);
    }

    /**
     * A COPY of either direction: a table (and columns) or, for TO only, a query ({@code table}
     * null); {@code from} is the direction.
     */
    public SqlCopy(SqlParserPos pos, SqlIdentifier table, SqlNodeList columns, SqlNode query, boolean from,
            SqlLiteral file, SqlNodeList options) {
        super(pos);
        if (file.toValue() == null) {
            throw new IllegalArgumentException("COPY needs a file name, was " + file);
        }
        if ((table == null) == (query == null) || (query != null && from)) {
            throw new IllegalArgumentException("COPY takes a table, or a query to copy TO a file");
        }
        this.table = table;
        this.query = query;
        this.from = from;
        this.columnList = columns;
        this.columns = columns.stream().map(SqlIdentifier.class::cast).toList();
        this.file = file;
        this.optionList = options;
        this.options = SqlOption.listOf(options);
    }

    /** Whether the file is read into the table (FROM) rather than written (TO). */
    public boolean isFrom() {
        return from;
    }

    /** The query of {@code COPY (query) TO}, else empty. */
    public java.util.Optional<SqlNode> query() {
        return java.util.Optional.ofNullable(query);
    }

    /** The table; null for {@code COPY (query) TO}. */
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
        return java.util.Arrays.asList(table, columnList, query, file, optionList);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("COPY");
        if (query != null) {
            SqlWriter.Frame frame = writer.startList("(", ")");
            query.unparse(writer, 0, 0);
            writer.endList(frame);
        } else {
            table.unparse(writer, 0, 0);
            if (!columns.isEmpty()) {
                ParenthesizedList.unparse(writer, columns);
            }
        }
        writer.keyword(from ? "FROM" : "TO");
        file.unparse(writer, 0, 0);
        SqlOption.unparseList(writer, "WITH", options);
    }
}
