package dev.columba.planner.parser;

import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code SET STATISTICS {IO | TIME} [, ...] {ON | OFF}}: turns the session's per-statement I/O
 * and time messages on or off (SQL Server's STATISTICS IO and STATISTICS TIME).
 */
public final class SqlSetStatistics extends SqlCall {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("SET STATISTICS", SqlKind.OTHER);

    /** Which messages. */
    public enum Kind { IO, TIME }

    private final Set<Kind> kinds;
    private final boolean on;

    /** {@code kinds} may repeat a kind (SQL Server allows it); the set keeps each once. */
    public SqlSetStatistics(SqlParserPos pos, Collection<Kind> kinds, boolean on) {
        super(pos);
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("SET STATISTICS needs IO or TIME");
        }
        this.kinds = Set.copyOf(EnumSet.copyOf(kinds));
        this.on = on;
    }

    public Set<Kind> kinds() {
        return kinds;
    }

    /** True for ON, false for OFF. */
    public boolean on() {
        return on;
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
        writer.keyword("SET STATISTICS");
        SqlWriter.Frame frame = writer.startList("", "");
        for (Kind kind : EnumSet.copyOf(kinds)) {
            writer.sep(",");
            writer.keyword(kind.name());
        }
        writer.endList(frame);
        writer.keyword(on ? "ON" : "OFF");
    }
}
