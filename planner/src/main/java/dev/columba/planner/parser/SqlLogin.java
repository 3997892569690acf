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
 * {@code CREATE USER name [WITH] [SUPERUSER | NOSUPERUSER] PASSWORD 'p'}, {@code ALTER USER ...} and
 * {@code DROP USER name} for the same thing (SUPERUSER is membership of the sysadmin server role). The password never leaves this node: it is unparsed as {@code '***'}, so no
 * statement text the engine shows (errors, logs) carries it.
 */
public final class SqlLogin extends SqlCall {
    public enum Action { CREATE, ALTER, DROP }

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("LOGIN", SqlKind.OTHER_DDL);

    private final Action action;
    private final SqlIdentifier name;
    private final String password;
    private final Boolean superuser;

    /**
     * @param password the password (null for DROP, and for an ALTER that changes only {@code superuser})
     * @param superuser whether the login is to be a member of sysadmin; null: not said (CREATE: no)
     */
    public SqlLogin(SqlParserPos pos, Action action, SqlIdentifier name, String password, Boolean superuser) {
        super(pos);
        this.action = Objects.requireNonNull(action, "action");
        this.name = Objects.requireNonNull(name, "name");
        boolean valid = switch (action) {
            case CREATE -> password != null;
            case ALTER -> password != null || superuser != null;
            case DROP -> password == null && superuser == null;
        };
        if (!valid) {
            throw new IllegalArgumentException(action + " LOGIN " + (action == Action.DROP ? "takes no" : "needs a")
                    + " password");
        }
        this.password = password;
        this.superuser = superuser;
    }

    public Action action() {
        return action;
    }

    /** The login's name as written (a quoted name keeps its case). */
    public String name() {
        return name.getSimple();
    }

    /** The password, for CREATE and for an ALTER that changes it. */
    public Optional<String> password() {
        return Optional.ofNullable(password);
    }

    /** Whether the login is to be a member of sysadmin, if the statement says (PostgreSQL's SUPERUSER / NOSUPERUSER). */
    public Optional<Boolean> superuser() {
        return Optional.ofNullable(superuser);
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
        if (superuser == null) {
            writer.keyword("LOGIN");
            name.unparse(writer, leftPrec, rightPrec);
            if (password != null) {
                writer.keyword("WITH PASSWORD =");
                writer.literal("'***'");
            }
            return;
        }
        // Only PostgreSQL's form says SUPERUSER.
        writer.keyword("USER");
        name.unparse(writer, leftPrec, rightPrec);
        writer.keyword(superuser ? "WITH SUPERUSER" : "WITH NOSUPERUSER");
        if (password != null) {
            writer.keyword("PASSWORD");
            writer.literal("'***'");
        }
    }

    @Override
    public String toString() {
        return superuser == null ? action + " LOGIN " + name() + (password == null ? "" : " WITH PASSWORD = '***'")
                : action + " USER " + name() + (superuser ? " WITH SUPERUSER" : " WITH NOSUPERUSER")
                        + (password == null ? "" : " PASSWORD '***'");
    }
}
