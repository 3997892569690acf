package dev.columba.planner.parser;

import java.util.List;
import java.util.Objects;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * SQL Server's {@code ALTER SERVER ROLE role ADD | DROP MEMBER login}: a login joins or leaves a fixed
 * server role. Columba has one, {@code sysadmin}; the statement names any, and execution refuses others.
 */
public final class SqlServerRoleMember extends SqlCall {
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER SERVER ROLE", SqlKind.OTHER_DDL);

    private final SqlIdentifier role;
    private final boolean add;
    private final SqlIdentifier member;

    public SqlServerRoleMember(SqlParserPos pos, SqlIdentifier role, boolean add, SqlIdentifier member) {
        super(pos);
        this.role = Objects.requireNonNull(role, "role");
        this.add = add;
        this.member = Objects.requireNonNull(member, "member");
    }

    /** The role's name as written. */
    public String role() {
        return role.getSimple();
    }

    /** ADD MEMBER (true) or DROP MEMBER (false). */
    public boolean add() {
        return add;
    }

    /** The login's name as written. */
    public String member() {
        return member.getSimple();
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of(role, member);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("ALTER SERVER ROLE");
        role.unparse(writer, leftPrec, rightPrec);
        writer.keyword(add ? "ADD MEMBER" : "DROP MEMBER");
        member.unparse(writer, leftPrec, rightPrec);
    }
}
