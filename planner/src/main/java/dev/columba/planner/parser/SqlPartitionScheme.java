package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * SQL Server's {@code CREATE PARTITION SCHEME name AS PARTITION function [ ALL ] TO ( filegroup, ... )}:
 * partition i of the function goes to the i-th filegroup, or every partition to the one filegroup
 * of {@code ALL TO}.
 */
public final class SqlPartitionScheme extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE PARTITION SCHEME", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlIdentifier function;
    private final boolean all;
    private final SqlNodeList filegroups;

    public SqlPartitionScheme(SqlParserPos pos, SqlIdentifier name, SqlIdentifier function, boolean all,
                              SqlNodeList filegroups) {
        super(pos);
        this.name = name;
        this.function = function;
        this.all = all;
        this.filegroups = filegroups;
    }

    public SqlIdentifier name() {
        return name;
    }

    public SqlIdentifier function() {
        return function;
    }

    public boolean all() {
        return all;
    }

    public List<String> filegroups() {
        return filegroups.stream().map(node -> ((SqlIdentifier) node).getSimple()).toList();
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(name, function, filegroups);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("CREATE PARTITION SCHEME");
        name.unparse(writer, 0, 0);
        writer.keyword("AS PARTITION");
        function.unparse(writer, 0, 0);
        if (all) {
            writer.keyword("ALL");
        }
        writer.keyword("TO");
        SqlWriter.Frame frame = writer.startList("(", ")");
        for (SqlNode filegroup : filegroups) {
            writer.sep(",");
            filegroup.unparse(writer, 0, 0);
        }
        writer.endList(frame);
    }
}
