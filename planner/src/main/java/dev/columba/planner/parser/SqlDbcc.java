package dev.columba.planner.parser;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code DBCC DROPCLEANBUFFERS}, {@code DBCC TRACEON (flag, ... [, -1])},
 * {@code DBCC TRACEOFF (flag, ... [, -1])}. A trailing -1 makes the trace flags global (every
 * session) rather than the session's, as in SQL Server.
 */
public final class SqlDbcc extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DBCC", SqlKind.OTHER);

    /** The DBCC commands Columba knows. */
    public enum Command {
        /** Empty the buffer pool of clean pages and drop the OS cache of the database's files. */
        DROPCLEANBUFFERS,
        TRACEON,
        TRACEOFF
    }

    private final Command command;
    private final List<Integer> traceFlags;
    private final boolean global;

    /** {@code traceFlags} are the non-negative flag numbers, without the -1 that {@code global} stands for. */
    public SqlDbcc(SqlParserPos pos, Command command, List<Integer> traceFlags, boolean global) {
        super(pos);
        boolean traces = command != Command.DROPCLEANBUFFERS;
        if (traces == traceFlags.isEmpty() || (!traces && global)) {
            throw new IllegalArgumentException("DBCC " + command + " with trace flags "
                    + traceFlags + (global ? " and -1" : ""));
        }
        for (int flag : traceFlags) {
            if (flag < 0) {
                throw new IllegalArgumentException("trace flag " + flag + " is negative");
            }
        }
        this.command = command;
        this.traceFlags = List.copyOf(traceFlags);
        this.global = global;
    }

    public Command command() {
        return command;
    }

    /** The flags of TRACEON / TRACEOFF, in the order written; empty for DROPCLEANBUFFERS. */
    public List<Integer> traceFlags() {
        return traceFlags;
    }

    /** True when -1 was given: the flags apply to every session, not just this one. */
    public boolean global() {
        return global;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("DBCC");
        writer.keyword(command.name());
        if (traceFlags.isEmpty()) {
            return;
        }
        SqlWriter.Frame frame = writer.startList("(", ")");
        for (int flag : traceFlags) {
            writer.sep(",");
            writer.literal(Integer.toString(flag));
        }
        if (global) {
            writer.sep(",");
            writer.literal("-1");
        }
        writer.endList(frame);
    }
}
