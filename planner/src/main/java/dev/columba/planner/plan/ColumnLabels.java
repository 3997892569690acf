package dev.columba.planner.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * The labels of a query's result columns as the user wrote them: {@code SELECT a.id, b.id} is two
 * columns labelled {@code id}, as SQL Server and PostgreSQL label them, where Calcite's validator
 * names the second {@code id0} (its row types need distinct names, and so does core's
 * {@code TableSchema}). A column's label is its alias, else the last part of the column name it
 * is, else a name for the expression as PostgreSQL gives it ({@code count}, {@code ?column?}: see
 * {@link #label}); a column of {@code *} or {@code t.*} is labelled
 * with the column's own name. Set operations take the first query's labels.
 *
 * <p>Read in two steps around validation, which rewrites the select list in place: {@link #before}
 * notes what the user wrote for each item of the outermost select, {@link #after} lines the
 * expanded list up with it (the columns a star expands to carry the star's position).
 */
final class ColumnLabels {
    /** What one item of the select list says of its label: a star, or a label (null: the validator's name). */
    private record Item(boolean star, SqlParserPos position, String label) {
    }

    private final SqlSelect select;
    private final List<Item> items;

    private ColumnLabels(SqlSelect select, List<Item> items) {
        this.select = select;
        this.items = items;
    }

    /** Notes the labels {@code query} (not yet validated) gives its columns; null for a statement that is no query. */
    static ColumnLabels before(SqlNode query) {
        SqlSelect select = outermostSelect(query);
        if (select == null) {
            return null;
        }
        List<Item> items = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
                items.add(new Item(true, identifier.getParserPosition(), null));
            } else {
                items.add(new Item(false, item.getParserPosition(), label(item)));
            }
        }
        return new ColumnLabels(select, items);
    }

    /**
     * The labels of the validated query whose row type is {@code validated}; its field names
     * where the select list cannot be lined up with what {@link #before} saw.
     */
    List<String> after(SqlValidator validator, RelDataType validated) {
        List<String> names = validated.getFieldNames();
        SqlNode expandedList = select.getSelectList();
        if (expandedList == null || ((org.apache.calcite.sql.SqlNodeList) expandedList).size() != names.size()) {
            return names;
        }
        List<String> labels = new ArrayList<>();
        int next = 0;
        for (SqlNode expanded : (org.apache.calcite.sql.SqlNodeList) expandedList) {
            SqlNode core = expanded.getKind() == SqlKind.AS ? ((SqlCall) expanded).operand(0) : expanded;
            Item star = starAt(expanded.getParserPosition());
            if (star != null && core instanceof SqlIdentifier column) {
                String name = names.get(labels.size());
                labels.add(column.names.getLast().equalsIgnoreCase(name) ? name : column.names.getLast());
                continue;
            }
            while (next < items.size() && items.get(next).star()) {
                next++;
            }
            if (next >= items.size()) {
                return names;
            }
            String label = items.get(next++).label();
            String name = names.get(labels.size());
            // Only a name the validator made distinct changes: a label that differs from the
            // validator's name in case alone keeps the name results have always carried.
            labels.add(label != null && !label.equalsIgnoreCase(name) ? label : name);
        }
        return labels;
    }

    private Item starAt(SqlParserPos position) {
        for (Item item : items) {
            if (item.star() && item.position().equals(position)) {
                return item;
            }
        }
        return null;
    }

    /**
     * The alias, or the last part of a column name; for an expression without an alias, the label
     * PostgreSQL gives it (its FigureColname), since Calcite's {@code EXPR$n} means nothing to a user
     * or a tool: a function or aggregate call is labelled with the function's name in lower case
     * ({@code count}, {@code sum}, {@code coalesce}), a CAST with the name of its target type, a CASE
     * {@code case}, anything else {@code ?column?}. (SQL Server gives such columns no name at all,
     * which tools show as blank.)
     */
    static String label(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlBasicCall) item).operand(1)).getSimple();
        }
        if (item instanceof SqlIdentifier identifier) {
            return identifier.names.getLast();
        }
        if (item instanceof SqlCase) {
            return "case";
        }
        if (item instanceof SqlCall call) {
            if (call.getKind() == SqlKind.CAST && call.operandCount() == 2
                    && call.operand(1) instanceof SqlDataTypeSpec type) {
                return type.getTypeName().getSimple().toLowerCase(Locale.ROOT);
            }
            if (call.getOperator() instanceof SqlFunction function) {
                return function.getName().toLowerCase(Locale.ROOT);
            }
        }
        return "?column?";
    }

    private static SqlSelect outermostSelect(SqlNode node) {
        return switch (node) {
            case SqlSelect select -> select;
            case SqlOrderBy orderBy -> outermostSelect(orderBy.query);
            case SqlWith with -> outermostSelect(with.body);
            case SqlCall call when call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.INTERSECT
                    || call.getKind() == SqlKind.EXCEPT -> outermostSelect(call.operand(0));
            case null, default -> null;
        };
    }
}
