package dev.columba.planner.parser;

import java.util.ArrayList;
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
 * SQL Server's {@code ALTER DATABASE { name | CURRENT } ADD FILEGROUP fg},
 * {@code ... ADD FILE ( NAME = f, FILENAME = 'path' ) [, ( ... )] [ TO FILEGROUP fg ]} and
 * {@code ... REMOVE FILEGROUP fg}. A session has one database, so its name is not checked. Each
 * file is given as an option list; the planner checks which options it takes.
 */
public final class SqlAlterDatabase extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER DATABASE", SqlKind.OTHER_DDL);

    public enum Action { ADD_FILEGROUP, ADD_FILE, REMOVE_FILEGROUP }

    private final Action action;
    private final SqlIdentifier filegroup;
    private final SqlNodeList files;

    /** {@code filegroup} is null for ADD FILE without TO FILEGROUP; {@code files} is empty but for ADD FILE. */
    public SqlAlterDatabase(SqlParserPos pos, Action action, SqlIdentifier filegroup, SqlNodeList files) {
        super(pos);
        this.action = action;
        this.filegroup = filegroup;
        this.files = files;
    }

    public Action action() {
        return action;
    }

    /** The filegroup named, or null (ADD FILE to PRIMARY). */
    public SqlIdentifier filegroup() {
        return filegroup;
    }

    /** For ADD FILE: each file's options ({@code NAME}, {@code FILENAME}). */
    public List<List<SqlOption>> files() {
        List<List<SqlOption>> result = new ArrayList<>();
        for (SqlNode file : files) {
            result.add(SqlOption.listOf((SqlNodeList) file));
        }
        return result;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return java.util.Arrays.asList(filegroup, files);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER DATABASE CURRENT");
        switch (action) {
            case ADD_FILEGROUP -> {
                writer.keyword("ADD FILEGROUP");
                filegroup.unparse(writer, 0, 0);
            }
            case REMOVE_FILEGROUP -> {
                writer.keyword("REMOVE FILEGROUP");
                filegroup.unparse(writer, 0, 0);
            }
            case ADD_FILE -> {
                writer.keyword("ADD FILE");
                boolean first = true;
                for (List<SqlOption> file : files()) {
                    if (!first) {
                        writer.print(",");
                    }
                    first = false;
                    ParenthesizedList.unparse(writer, file);
                }
                if (filegroup != null) {
                    writer.keyword("TO FILEGROUP");
                    filegroup.unparse(writer, 0, 0);
                }
            }
        }
    }
}
