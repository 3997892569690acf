package dev.columba.planner.parser;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A login of the wire server: SQL Server's {@code CREATE LOGIN name WITH PASSWORD = 'p'},
 * {@code ALTER LOGIN name WITH PASSWORD = 'p'} and {@code DROP LOGIN name}, and PostgreSQL's
 * {@code CREATE USER name [WITH] PASSWORD 'p'}, {@code ALTER USER ...} and {@code DROP USER name}
 * for the same thing. The password never leaves this node: it is unparsed as {@code '***'}, so no
 * statement text the engine shows (errors, logs) carries it.
 */
public final class SqlLogin extends SqlCall {
    public enum Action { CREATE, ALTER, DROP }

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("LOGIN", SqlKind.OTHER_DDL);

    private final Action action;
    private final SqlIdentifier name;
    private final String password;

    /** @param password the password (null for DROP) */
    public SqlLogin(SqlParserPos pos, Action action, SqlIdentifier name, String password) {
        super(pos);
        this.action = Objects.requireNonNull(action, "action");
        this.name = Objects.requireNonNull(name, "name");
        if ((password == null) != (action == Action.DROP)) {
            throw new IllegalArgumentException(action + " LOGIN " + (password == null ? "needs" : "takes no") + " password");
        }
        this.password = password;
    }

    public Action action() {
        return action;
    }

    /** The login's name as written (a quoted name keeps its case). */
    public String name() {
        return name.getSimple();
    }

    /** The password, for CREATE and ALTER. */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword(action.name());
        writer.keyword("LOGIN");
        name.unparse(writer, leftPrec, rightPrec);
        if (password != null) {
            writer.keyword("WITH PASSWORD =");
            writer.literal("'***'");
        }
    }

    @Override
    public String toString() {
        return action + " LOGIN " + name() + (password == null ? "" : " WITH PASSWORD = '***'");
    }
}
