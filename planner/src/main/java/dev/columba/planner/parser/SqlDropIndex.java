package dev.columba.planner.parser;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code DROP INDEX [IF EXISTS] name [ON table]}. Without ON the name may be qualified by its
 * table ({@code table.index}, SQL Server's older form); resolving it is the planner's work.
 */
public final class SqlDropIndex extends SqlDrop {
    private static final SqlOperator OPERATOR =
            new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);

    private final SqlIdentifier name;
    private final SqlIdentifier table;

    /** {@code table} is null when no ON clause was written. */
    public SqlDropIndex(SqlParserPos pos, boolean ifExists, SqlIdentifier name, SqlIdentifier table) {
        super(OPERATOR, pos, ifExists);
        this.name = name;
        this.table = table;
    }

    public SqlIdentifier name() {
        return name;
    }

    public Optional<SqlIdentifier> table() {
        return Optional.ofNullable(table);
    }

    public boolean ifExists() {
        return ifExists;
    }

    @Override
    public SqlOperator getOperator() {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return ImmutableNullableList.of(name, table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.keyword("DROP INDEX");
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
        if (table != null) {
            writer.keyword("ON");
            table.unparse(writer, 0, 0);
        }
    }
}
