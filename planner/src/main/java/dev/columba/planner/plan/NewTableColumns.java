package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * The columns of the table that {@code CREATE TABLE t AS query} or {@code SELECT ... INTO t}
 * creates: the query's column names, types and nullability. Every column needs a name: a column
 * or an alias. Calcite calls an expression without an alias {@code EXPR$<ordinal>}; such a column
 * fails as SQL Server's does ("No column name was specified for column N"), unless the query
 * wrote that name itself.
 */
final class NewTableColumns {
    private static final Pattern GENERATED_NAME = Pattern.compile("EXPR\\$\\d+");

    private NewTableColumns() {
    }

    /** Every name the query gives with AS, lower-cased: a name written there is the user's. */
    static Set<String> aliasesWritten(SqlNode query) {
        Set<String> aliases = new HashSet<>();
        collectAliases(query, aliases);
        return aliases;
    }

    private static void collectAliases(SqlNode node, Set<String> aliases) {
        if (node instanceof SqlNodeList list) {
            for (SqlNode element : list) {
                collectAliases(element, aliases);
            }
        } else if (node instanceof SqlCall call) {
            if (call.getKind() == SqlKind.AS && call.operandCount() >= 2
                    && call.operand(1) instanceof SqlIdentifier alias) {
                aliases.add(alias.getSimple().toLowerCase(Locale.ROOT));
            }
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    collectAliases(operand, aliases);
                }
            }
        }
    }

    /**
     * A view's columns from its planned query's, named by its column list.
     *
     * @throws ColumbaException INVALID_STATEMENT if the list has another number of names than the
     *         query has columns, or a name twice
     */
    static TableSchema renamed(TableSchema query, org.apache.calcite.sql.SqlNodeList names, String view) {
        if (names.size() != query.size()) {
            // SQL Server's Msg 8158 and 8159.
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "'" + view + "' has " + (names.size() < query.size()
                    ? "more" : "fewer") + " columns than were specified in the column list: the query has "
                    + query.size() + ", the list " + names.size());
        }
        List<Column> columns = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        for (int index = 0; index < query.size(); index++) {
            String name = ((org.apache.calcite.sql.SqlIdentifier) names.get(index)).getSimple();
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "column name '" + name
                        + "' is specified more than once in the column list of '" + view + "'");
            }
            Column column = query.column(index);
            columns.add(column.nullable() ? Column.nullable(name, column.type()) : Column.notNull(name, column.type()));
        }
        return new TableSchema(columns);
    }

    /**
     * The new table's columns from the planned query's: same names, types and nullability.
     *
     * @throws ColumbaException INVALID_STATEMENT for a column without a name
     */
    static TableSchema of(TableSchema query, Set<String> aliasesWritten, String table) {
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < query.size(); index++) {
            Column column = query.column(index);
            if (GENERATED_NAME.matcher(column.name()).matches()
                    && !aliasesWritten.contains(column.name().toLowerCase(Locale.ROOT))) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "No column name was specified for column "
                        + (index + 1) + " of '" + table + "': give the expression a name with AS");
            }
            columns.add(column);
        }
        return new TableSchema(columns);
    }
}
