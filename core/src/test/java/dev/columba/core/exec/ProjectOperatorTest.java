package dev.columba.core.exec;

import static dev.columba.core.exec.FilterOperatorTest.column;
import static dev.columba.core.exec.FilterOperatorTest.literal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.ComparisonOperator;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.IntervalUnit;
import dev.columba.core.expr.ScalarFunction;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProjectOperatorTest extends OperatorTestBase {
    private static final Expr TWICE = Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, column(0), literal(2, SqlType.INT));
    private static final Expr TWICE_PLUS = Expr.Arithmetic.of(ArithmeticOperator.ADD, TWICE, column(6));
    private static final List<Expr> EXPRESSIONS = List.of(
            column(1),
            TWICE_PLUS,
            new Expr.Call(ScalarFunction.UPPER, List.of(column(1))),
            Expr.Case.of(List.of(new Expr.Case.When(column(5), column(2))), literal(null, SqlType.decimal(12, 2))),
            new Expr.DateAdd(column(4), column(0), IntervalUnit.MONTH),
            new Expr.Comparison(ComparisonOperator.IS_DISTINCT_FROM, column(3), literal(0.5, SqlType.DOUBLE)),
            new Expr.Cast(column(2), SqlType.varchar(10)),
            literal("constant", SqlType.varchar(8)),
            // Computed once for the three columns that share it, and TWICE once more for the CAST.
            Expr.Arithmetic.of(ArithmeticOperator.SUBTRACT, TWICE_PLUS, column(0)),
            new Expr.Cast(TWICE, SqlType.varchar(20)));
    private static final List<String> NAMES = List.of("s", "k2", "upper_s", "d_if_b", "t_plus", "x_distinct", "d_text", "c",
            "k2_minus", "twice_text");

    @Override
    Operator create(List<Operator> inputs) {
        return new ProjectOperator(inputs.getFirst(), EXPRESSIONS, NAMES);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : inputs.getFirst()) {
            Object[] projected = new Object[EXPRESSIONS.size()];
            for (int index = 0; index < projected.length; index++) {
                projected[index] = Evaluator.evaluate(EXPRESSIONS.get(index), row, EVALUATION);
            }
            rows.add(projected);
        }
        return rows;
    }

    @Override
    boolean ordered() {
        return true;
    }

    @Test
    void describesItsOutputAndMode() {
        ProjectOperator project = new ProjectOperator(ListSource.of(SCHEMA, List.of(), 4), EXPRESSIONS, NAMES);
        TableSchema schema = project.schema();
        assertEquals(NAMES.size(), schema.size());
        assertEquals(SqlType.BIGINT, schema.column(1).type());
        assertFalse(schema.column(5).nullable(), "IS DISTINCT FROM is never NULL");
        assertFalse(schema.column(7).nullable(), "a non-NULL literal");
        assertTrue(schema.column(0).nullable());
        assertEquals(ExecutionMode.ROW, project.mode(), "CAST of a DECIMAL to VARCHAR runs row by row");
        assertEquals(ExecutionMode.BATCH, new ProjectOperator(ListSource.of(SCHEMA, List.of(), 4),
                EXPRESSIONS.subList(0, 6), NAMES.subList(0, 6)).mode());
    }

    @Test
    void sharesTheLargestRepeatedComputationsThatAreAlwaysEvaluated() {
        assertEquals(List.of(TWICE_PLUS, TWICE), ProjectOperator.sharedSubexpressions(EXPRESSIONS));
        // Inside a CASE a computation runs only for the rows taking its branch: never shared.
        Expr guarded = Expr.Case.of(List.of(new Expr.Case.When(column(5), TWICE)), literal(null, SqlType.BIGINT));
        assertEquals(List.of(), ProjectOperator.sharedSubexpressions(List.of(TWICE, guarded)));
        assertEquals(List.of(), ProjectOperator.sharedSubexpressions(List.of(column(0), column(0), literal(1, SqlType.INT))));
    }
}
