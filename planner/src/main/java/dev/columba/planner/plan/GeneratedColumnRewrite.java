package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.GeneratedColumns;
import java.util.Optional;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * SQL Server's rules for IDENTITY and computed columns, applied to INSERT and UPDATE before
 * validation:
 * <ul>
 *   <li>an INSERT without a column list writes the columns that are not generated, in order
 *       ({@code INSERT INTO TestTable VALUES (1, 'x', 25)} fills ID and IDvarchar itself);</li>
 *   <li>naming a generated column in an INSERT or UPDATE is an error (no IDENTITY_INSERT).</li>
 * </ul>
 * The values themselves are filled by the insert operator: identity values first, then the
 * computed columns from the finished row (also after an UPDATE), see {@code TableModifyOperator}.
 * The statement is changed in place.
 */
final class GeneratedColumnRewrite {
    private GeneratedColumnRewrite() {
    }

    static void apply(SqlNode statement, PlannerCatalog catalog) {
        switch (statement) {
            case SqlInsert insert -> target(insert.getTargetTable(), catalog).ifPresent(table -> insert(insert, table));
            case SqlUpdate update -> target(update.getTargetTable(), catalog).ifPresent(table -> update(update, table));
            default -> {
            }
        }
    }

    private static Optional<ColumbaTable> target(SqlNode target, PlannerCatalog catalog) {
        if (!(target instanceof SqlIdentifier identifier)) {
            return Optional.empty();
        }
        return catalog.table(identifier.names.getLast()).filter(table -> table.generated().any());
    }

    private static void insert(SqlInsert insert, ColumbaTable table) {
        GeneratedColumns generated = table.generated();
        SqlNodeList columns = insert.getTargetColumnList();
        if (columns == null) {
            SqlNodeList written = new SqlNodeList(SqlParserPos.ZERO);
            for (int column = 0; column < table.schema().size(); column++) {
                if (!generated.isGenerated(column)) {
                    written.add(new SqlIdentifier(table.schema().column(column).name(), SqlParserPos.ZERO));
                }
            }
            insert.setOperand(3, written);
            return;
        }
        for (SqlNode node : columns) {
            checkNotGenerated(table, (SqlIdentifier) node, "insert an explicit value into");
        }
    }

    private static void update(SqlUpdate update, ColumbaTable table) {
        for (SqlNode target : update.getTargetColumnList()) {
            checkNotGenerated(table, (SqlIdentifier) target, "update");
        }
    }

    static void checkNotGenerated(ColumbaTable table, SqlIdentifier column, String action) {
        String name = column.names.getLast();
        GeneratedColumns generated = table.generated();
        for (int index = 0; index < table.schema().size(); index++) {
            if (!table.schema().column(index).name().equalsIgnoreCase(name)) {
                continue;
            }
            if (index == generated.identity()) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "cannot " + action + " identity column '"
                        + table.schema().column(index).name() + "' of table '" + table.name()
                        + "': its values are generated (at line " + column.getParserPosition().getLineNum()
                        + ", column " + column.getParserPosition().getColumnNum() + ")");
            }
            if (generated.computed().containsKey(index)) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "cannot " + action + " computed column '"
                        + table.schema().column(index).name() + "' of table '" + table.name() + "': it is computed as "
                        + generated.computed().get(index) + " (at line " + column.getParserPosition().getLineNum()
                        + ", column " + column.getParserPosition().getColumnNum() + ")");
            }
        }
    }
}
