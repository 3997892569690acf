package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.TableConstraints;
import java.util.Optional;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code UPDATE t SET c = DEFAULT}: before validation, each {@code DEFAULT} in an UPDATE's SET
 * list becomes the column's default expression, as its table's options record it, or NULL for a
 * column without one (PostgreSQL and SQL Server; a NOT NULL column without a default then fails with
 * 23502, as there). Calcite's converter fills DEFAULT in an INSERT itself, not in an UPDATE. The
 * statement is changed in place.
 */
final class UpdateDefaultRewrite {
    private UpdateDefaultRewrite() {
    }

    static void apply(SqlNode statement, PlannerCatalog catalog) {
        if (!(statement instanceof SqlUpdate update) || !writesDefault(update)) {
            return;
        }
        if (!(update.getTargetTable() instanceof SqlIdentifier target)) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "SET ... = DEFAULT needs a table as the target"
                    + " of the UPDATE");
        }
        Optional<ColumbaTable> found = catalog.table(target.names.getLast());
        if (found.isEmpty()) {
            // The validator names the missing table.
            return;
        }
        ColumbaTable table = found.get();
        TableConstraints constraints = table.constraints();
        SqlNodeList values = update.getSourceExpressionList();
        for (int index = 0; index < values.size(); index++) {
            if (values.get(index).getKind() != SqlKind.DEFAULT) {
                continue;
            }
            SqlIdentifier column = (SqlIdentifier) update.getTargetColumnList().get(index);
            int columnIndex = table.schema().indexOf(column.names.getLast());
            // An unknown column is left to the validator, which names it.
            String sql = columnIndex < 0 ? null : constraints.defaults().get(columnIndex);
            values.set(index, sql == null ? SqlLiteral.createNull(SqlParserPos.ZERO)
                    : TableConstraints.expression(sql, "DEFAULT of column " + column, table.name()));
        }
    }

    private static boolean writesDefault(SqlUpdate update) {
        for (SqlNode value : update.getSourceExpressionList()) {
            if (value.getKind() == SqlKind.DEFAULT) {
                return true;
            }
        }
        return false;
    }
}
