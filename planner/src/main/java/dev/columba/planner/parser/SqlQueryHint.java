package dev.columba.planner.parser;

import java.util.List;
import java.util.OptionalInt;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** One hint of {@code OPTION (...)}: a join algorithm, MAXDOP n, RECOMPILE or FORCE ORDER. */
public final class SqlQueryHint extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("QUERY HINT", SqlKind.OTHER);

    /** The hints, as SQL Server spells them. */
    public enum Kind {
        /** Every join of the query is a nested-loop join. */
        LOOP_JOIN("LOOP JOIN"),
        /** Every join of the query is a hash join. */
        HASH_JOIN("HASH JOIN"),
        /** Every join of the query is a merge join. */
        MERGE_JOIN("MERGE JOIN"),
        /** At most n threads run the query; 0 means the server's default. */
        MAXDOP("MAXDOP"),
        /** Plan the statement afresh instead of reusing a cached plan. */
        RECOMPILE("RECOMPILE"),
        /** Join the tables in the order the FROM clause lists them. */
        FORCE_ORDER("FORCE ORDER");

        private final String sql;

        Kind(String sql) {
            this.sql = sql;
        }

        /** The hint as written in OPTION (...). */
        public String sql() {
            return sql;
        }

        /** Whether the hint takes a number (MAXDOP n). */
        public boolean takesArgument() {
            return this == MAXDOP;
        }
    }

    private final Kind kind;
    private final int argument;

    /** A hint without a number. */
    public SqlQueryHint(SqlParserPos pos, Kind kind) {
        super(pos);
        if (kind.takesArgument()) {
            throw new IllegalArgumentException(kind.sql() + " needs a number");
        }
        this.kind = kind;
        this.argument = -1;
    }

    /** A hint with a number, {@code MAXDOP n} with n >= 0. */
    public SqlQueryHint(SqlParserPos pos, Kind kind, int argument) {
        super(pos);
        if (!kind.takesArgument()) {
            throw new IllegalArgumentException(kind.sql() + " takes no number, was given " + argument);
        }
        if (argument < 0) {
            throw new IllegalArgumentException(kind.sql() + " must not be negative, was " + argument);
        }
        this.kind = kind;
        this.argument = argument;
    }

    public Kind kind() {
        return kind;
    }

    /** The number of MAXDOP n; empty for the other hints. */
    public OptionalInt argument() {
        return kind.takesArgument() ? OptionalInt.of(argument) : OptionalInt.empty();
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
        writer.keyword(kind.sql());
        if (kind.takesArgument()) {
            writer.literal(Integer.toString(argument));
        }
    }
}
