package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.ComparisonOperator;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.IsCondition;
import dev.columba.core.expr.ScalarFunction;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilterOperatorTest extends OperatorTestBase {
    private Expr predicate;

    static Expr column(int index) {
        return new Expr.ColumnReference(index, SCHEMA.column(index).type());
    }

    static Expr literal(Object value, SqlType type) {
        return new Expr.Literal(value, type);
    }

    private Expr randomPredicate() {
        int threshold = random.nextInt(8);
        return switch (random.nextInt(6)) {
            case 0 -> new Expr.Comparison(ComparisonOperator.LESS_THAN, column(0), literal(threshold, SqlType.INT));
            case 1 -> new Expr.Like(column(1), literal("a%", SqlType.varchar(2)), null, false);
            case 2 -> new Expr.And(List.of(new Expr.Comparison(ComparisonOperator.GREATER_THAN, column(2),
                    literal(BigDecimal.valueOf(threshold * 100 - 400, 2), SqlType.decimal(12, 2))), column(5)));
            case 3 -> new Expr.Is(column(0), IsCondition.NULL);
            case 4 -> new Expr.Comparison(ComparisonOperator.EQUAL, Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, column(3),
                    literal(2.0, SqlType.DOUBLE)), literal((double) threshold, SqlType.DOUBLE));
            default -> new Expr.Comparison(ComparisonOperator.EQUAL, column(0), literal(threshold, SqlType.INT));
        };
    }

    @Override
    Operator create(List<Operator> inputs) {
        predicate = randomPredicate();
        return new FilterOperator(inputs.getFirst(), predicate);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : inputs.getFirst()) {
            if (Boolean.TRUE.equals(Evaluator.evaluate(predicate, row, EVALUATION))) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    boolean ordered() {
        return true;
    }

    @Test
    void selectsInPlaceWhenManyRowsPassAndCompactsWhenFewDo() {
        List<Object[]> rows = randomRows(2000);
        Expr dense = new Expr.Is(column(3), IsCondition.NOT_NULL);
        int batches = 0;
        try (FilterOperator filter = new FilterOperator(ListSource.of(SCHEMA, rows, 100), dense)) {
            filter.open(context(100));
            for (Batch batch = filter.next(); batch != null; batch = filter.next()) {
                assertFalse(batch.ownsVectors(), "a dense result is a view of the input");
                assertTrue(batch.hasSelection() || batch.selectedCount() == 100);
                batches++;
            }
        }
        assertEquals(20, batches);

        Expr sparse = new Expr.And(List.of(new Expr.Comparison(ComparisonOperator.EQUAL, column(0), literal(3, SqlType.INT)),
                new Expr.Comparison(ComparisonOperator.EQUAL, column(1), literal("zz", SqlType.varchar(2)))));
        List<Integer> sizes = new ArrayList<>();
        try (FilterOperator filter = new FilterOperator(ListSource.of(SCHEMA, rows, 100), sparse)) {
            filter.open(context(100));
            for (Batch batch = filter.next(); batch != null; batch = filter.next()) {
                assertTrue(batch.ownsVectors(), "a sparse result is compacted into the filter's own batch");
                sizes.add(batch.selectedCount());
            }
        }
        int passing = (int) rows.stream().filter(row -> Integer.valueOf(3).equals(row[0]) && "zz".equals(row[1])).count();
        assertEquals(passing, sizes.stream().mapToInt(Integer::intValue).sum());
        assertTrue(sizes.size() <= passing / 50 + 1, "gathered into few batches: " + sizes);
    }

    @Test
    void reportsTheModeOfItsPredicate() {
        Operator source = ListSource.of(SCHEMA, List.of(), 10);
        assertEquals(ExecutionMode.BATCH, new FilterOperator(source, randomPredicate()).mode());
        Expr rowByRow = new Expr.Comparison(ComparisonOperator.EQUAL,
                new Expr.Call(ScalarFunction.REPEAT, List.of(column(1), column(0))), column(1));
        assertEquals(ExecutionMode.ROW, new FilterOperator(source, rowByRow).mode());
    }
}
