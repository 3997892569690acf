package dev.columba.planner.rel;

import dev.columba.columnstore.encoding.ColumnPredicate;
import dev.columba.columnstore.scan.ColumnFilter;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexNode;

/**
 * A simple predicate on one column of a columnstore table, pushed into its scan: a comparison
 * with a constant, an IN list, IS [NOT] NULL. Constants are literals or parameters, resolved when
 * the scan opens; they become the columnstore's {@link ColumnPredicate}, evaluated on encoded
 * segments and against rowgroup min/max (rowgroup elimination).
 *
 * @param column    the table column
 * @param constants one for a comparison, the elements of IN, none for IS [NOT] NULL
 */
public record PushedFilter(int column, Kind kind, List<RexNode> constants) {
    public enum Kind {
        EQUAL("="), NOT_EQUAL("<>"), LESS("<"), LESS_OR_EQUAL("<="), GREATER(">"), GREATER_OR_EQUAL(">="),
        IN("IN"), IS_NULL("IS NULL"), IS_NOT_NULL("IS NOT NULL");

        private final String sql;

        Kind(String sql) {
            this.sql = sql;
        }
    }

    public PushedFilter {
        constants = List.copyOf(constants);
    }

    /** The filter as the columnstore scan takes it, constants in the column's type. */
    ColumnFilter toColumnFilter(Execution execution, SqlType columnType) {
        List<Object> values = new ArrayList<>();
        for (RexNode constant : constants) {
            Expr.Literal literal = (Expr.Literal) execution.translator(TableSchema.of(Column.nullable("unused", SqlType.INT)))
                    .translate(constant);
            Object value = literal.value();
            if (value != null && !literal.type().equals(columnType)) {
                value = Evaluator.cast(value, literal.type(), columnType);
            }
            values.add(value);
        }
        ColumnPredicate predicate = switch (kind) {
            case EQUAL -> ColumnPredicate.compare(ColumnPredicate.Operator.EQUAL, values.getFirst());
            case NOT_EQUAL -> ColumnPredicate.compare(ColumnPredicate.Operator.NOT_EQUAL, values.getFirst());
            case LESS -> ColumnPredicate.compare(ColumnPredicate.Operator.LESS, values.getFirst());
            case LESS_OR_EQUAL -> ColumnPredicate.compare(ColumnPredicate.Operator.LESS_OR_EQUAL, values.getFirst());
            case GREATER -> ColumnPredicate.compare(ColumnPredicate.Operator.GREATER, values.getFirst());
            case GREATER_OR_EQUAL -> ColumnPredicate.compare(ColumnPredicate.Operator.GREATER_OR_EQUAL, values.getFirst());
            case IN -> new ColumnPredicate.In(values);
            case IS_NULL -> ColumnPredicate.isNull();
            case IS_NOT_NULL -> ColumnPredicate.isNotNull();
        };
        return new ColumnFilter(column, predicate);
    }

    /** The filter as SQL over the column's name, for EXPLAIN. */
    String describe(String columnName) {
        return switch (kind) {
            case IS_NULL, IS_NOT_NULL -> columnName + " " + kind.sql;
            case IN -> columnName + " IN (" + String.join(", ", constants.stream().map(KeyRange::text).toList()) + ")";
            default -> columnName + " " + kind.sql + " " + KeyRange.text(constants.getFirst());
        };
    }
}
