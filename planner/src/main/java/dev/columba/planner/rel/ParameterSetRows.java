package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ProjectOperator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.Nullability;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.exec.HeldRowsOperator;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * The rows of a one-row {@code [Project] Values} (the source of {@code INSERT ... VALUES (?, ?)})
 * for many parameter sets at once, as one operator: the parameter sets become the rows of a
 * values operator with one column per parameter, and the projection's expressions read those
 * columns where they read parameters (and the values row's literals where they read it). So a
 * batch of a thousand sets is one projection over batches of parameter rows, where executing the
 * statement once per set would build a thousand operator trees. A projection that only picks
 * parameters is not run at all: the parameter rows go to the insert as Java values
 * ({@link HeldRowsOperator}).
 *
 * <p>Each value is converted to its parameter's type as a single execution converts it
 * ({@link ParameterValues}); a failure names the parameter set and the parameter. A string longer
 * than its parameter's type widens the column to fit (as {@link ParameterValues#fitting} widens a
 * single parameter), so the insert's store assignment fails naming the table's column.
 */
final class ParameterSetRows {
    private ParameterSetRows() {
    }

    /** {@code rel}, or the best plan of a planner's subset. */
    static RelNode best(RelNode rel) {
        if (rel instanceof RelSubset subset) {
            return subset.getBest() != null ? subset.getBest() : subset.getOriginal();
        }
        return rel;
    }

    /**
     * The operator producing, for each parameter set in order, the row {@code source} produces with
     * those parameters.
     *
     * @param source a {@link ColumbaValues} of one tuple, or a {@link ColumbaProject} over one
     */
    static Operator operator(Execution execution, RelNode source, List<SqlType> parameterTypes,
                             List<List<Object>> parameterSets) {
        RelNode physical = best(source);
        ColumbaProject project = physical instanceof ColumbaProject found ? found : null;
        ColumbaValues values = (ColumbaValues) (project != null ? best(project.getInput()) : physical);
        List<RexLiteral> tuple = values.getTuples().getFirst();

        List<Object[]> rows = new ArrayList<>(parameterSets.size());
        int[] longest = new int[parameterTypes.size()];
        for (int setIndex = 0; setIndex < parameterSets.size(); setIndex++) {
            List<Object> set = parameterSets.get(setIndex);
            if (set.size() != parameterTypes.size()) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "parameter set " + (setIndex + 1) + " of "
                        + parameterSets.size() + " has " + set.size() + " values; the statement has "
                        + parameterTypes.size() + " parameters");
            }
            Object[] row = new Object[set.size()];
            for (int parameter = 0; parameter < row.length; parameter++) {
                Object value = set.get(parameter);
                if (value == null) {
                    continue;
                }
                try {
                    row[parameter] = ExpressionTranslator.parameterLiteral(parameterTypes.get(parameter), value, parameter)
                            .value();
                } catch (ColumbaException e) {
                    throw new ColumbaException(e.errorCode(), "parameter set " + (setIndex + 1) + " of "
                            + parameterSets.size() + ", " + e.detail(), e);
                }
                if (row[parameter] instanceof String text) {
                    longest[parameter] = Math.max(longest[parameter], text.codePointCount(0, text.length()));
                }
            }
            rows.add(row);
        }
        List<Column> columns = new ArrayList<>(parameterTypes.size());
        for (int parameter = 0; parameter < parameterTypes.size(); parameter++) {
            columns.add(new Column("p" + (parameter + 1), widened(parameterTypes.get(parameter), longest[parameter]), true));
        }
        TableSchema parameterSchema = new TableSchema(columns);

        List<RexNode> expressions = project != null ? project.getProjects() : List.copyOf(tuple);
        RexShuttle parametersAsColumns = new RexShuttle() {
            @Override
            public RexNode visitDynamicParam(RexDynamicParam parameter) {
                return new RexInputRef(parameter.getIndex(), parameter.getType());
            }

            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                return tuple.get(reference.getIndex());
            }
        };
        List<RexNode> overParameters = new ArrayList<>(expressions.size());
        for (RexNode expression : expressions) {
            overParameters.add(expression.accept(parametersAsColumns));
        }
        List<Expr> translated = new ExpressionTranslator(parameterSchema, execution.rexBuilder(), List.of())
                .translateAll(overParameters);
        List<String> names = Execution.uniqueNames(physical.getRowType().getFieldNames());
        if (picksEveryParameter(translated, parameterSchema.size())) {
            return held(parameterSchema, rows, translated, names);
        }
        return new ProjectOperator(new ValuesOperator(parameterSchema, rows), translated, names);
    }

    /**
     * Whether each expression is a parameter and each parameter is picked, so that the values
     * checked are those the values operator would check.
     */
    private static boolean picksEveryParameter(List<Expr> expressions, int parameters) {
        boolean[] picked = new boolean[parameters];
        for (Expr expression : expressions) {
            if (!(expression instanceof Expr.ColumnReference pick)) {
                return false;
            }
            picked[pick.index()] = true;
        }
        for (boolean parameterPicked : picked) {
            if (!parameterPicked) {
                return false;
            }
        }
        return true;
    }

    /**
     * The projection's rows when it only picks parameters (the usual {@code INSERT ... VALUES (?, ?)}):
     * the parameter rows themselves, or their columns in the projection's order, held as Java
     * values for the insert to take as they are (see {@link HeldRowsOperator}); the schema is the
     * one the projection would have.
     */
    private static Operator held(TableSchema parameterSchema, List<Object[]> rows, List<Expr> picks, List<String> names) {
        int[] picked = new int[picks.size()];
        List<Column> columns = new ArrayList<>(picks.size());
        boolean same = picks.size() == parameterSchema.size();
        for (int column = 0; column < picked.length; column++) {
            Expr.ColumnReference pick = (Expr.ColumnReference) picks.get(column);
            picked[column] = pick.index();
            same &= pick.index() == column;
            columns.add(new Column(names.get(column), pick.type(), Nullability.nullable(pick, parameterSchema)));
        }
        List<Object[]> projected = rows;
        if (!same) {
            projected = new ArrayList<>(rows.size());
            for (Object[] row : rows) {
                Object[] picksOfRow = new Object[picked.length];
                for (int column = 0; column < picked.length; column++) {
                    picksOfRow[column] = row[picked[column]];
                }
                projected.add(picksOfRow);
            }
        }
        return new HeldRowsOperator(new TableSchema(columns), projected);
    }

    /** A string parameter's type, long enough for its longest value. */
    private static SqlType widened(SqlType type, int longest) {
        return switch (type) {
            case SqlType.VarcharType varchar when longest > varchar.maxLength() -> SqlType.varchar(longest);
            case SqlType.CharType character when longest > character.length() -> SqlType.character(longest);
            default -> type;
        };
    }
}
