package dev.columba.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.memory.Memory;
import dev.columba.core.testing.RandomValues;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.testing.TestSeeds;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Random expressions over random batches (with and without NULLs, edge values, selection vectors), compiled both
 * with vectorized kernels and row by row, must give the reference evaluator's value for every live
 * row, or fail with one of the errors the reference raises for those rows.
 */
class KernelConformanceTest {
    private static final EvaluationContext CONTEXT = new EvaluationContext(LocalDateTime.of(2024, 2, 29, 13, 45, 7, 123_456_000));
    private static final int EXPRESSIONS = 4000;

    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(1L << 30);
        allocator = memory.child("conformance", 512L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory(), "kernels released every vector");
        allocator.close();
        memory.close();
    }

    @Test
    void compiledKernelsAgreeWithTheReferenceEvaluator() {
        long seed = TestSeeds.seed("compiledKernelsAgreeWithTheReferenceEvaluator");
        Random random = new Random(seed);
        RandomExpressions expressions = new RandomExpressions(random);
        RandomValues values = new RandomValues(random, 0.2);
        RandomValues withoutNulls = new RandomValues(random, 0);
        int compared = 0;
        for (int iteration = 0; iteration < EXPRESSIONS; iteration++) {
            Expr expression;
            try {
                expression = expressions.generate(expressions.anyType(), 1 + random.nextInt(4));
            } catch (ColumbaException e) {
                continue;
            }
            List<Object[]> rows = randomRows(random.nextInt(3) == 0 ? withoutNulls : values, random.nextInt(40));
            int[] selection = random.nextInt(3) == 0 ? randomSelection(random, rows.size()) : null;
            String context = "seed " + seed + ", iteration " + iteration + ": " + expression;
            compared += check(expression, rows, selection, false, context);
            compared += check(expression, rows, selection, true, context + " (row by row)");
        }
        assertTrue(compared > EXPRESSIONS * 5, "enough rows compared without an error: " + compared);
    }

    private static List<Object[]> randomRows(RandomValues values, int count) {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < count; row++) {
            Object[] values1 = new Object[RandomExpressions.SCHEMA.size()];
            for (int column = 0; column < values1.length; column++) {
                values1[column] = values.value(RandomExpressions.SCHEMA.column(column).type());
            }
            rows.add(values1);
        }
        return rows;
    }

    private static int[] randomSelection(Random random, int rowCount) {
        int[] positions = new int[rowCount];
        int count = 0;
        for (int row = 0; row < rowCount; row++) {
            if (random.nextBoolean()) {
                positions[count++] = row;
            }
        }
        return Arrays.copyOf(positions, count);
    }

    /** Returns how many rows were compared by value (0 when the expression failed). */
    private int check(Expr expression, List<Object[]> rows, int[] selection, boolean rowByRow, String context) {
        List<Integer> live = new ArrayList<>();
        for (int row = 0; row < rows.size(); row++) {
            live.add(row);
        }
        if (selection != null) {
            live.clear();
            for (int position : selection) {
                live.add(position);
            }
        }
        List<Object> expected = new ArrayList<>();
        Set<ErrorCode> expectedErrors = EnumSet.noneOf(ErrorCode.class);
        for (int row : live) {
            try {
                expected.add(Evaluator.evaluate(expression, rows.get(row), CONTEXT));
            } catch (ColumbaException e) {
                expectedErrors.add(e.errorCode());
                expected.add(null);
            }
        }
        try (Batch batch = TestBatches.batch(RandomExpressions.SCHEMA, rows, allocator);
             CompiledExpression compiled = rowByRow
                     ? ExpressionCompiler.compileRowByRow(expression, RandomExpressions.SCHEMA, CONTEXT, allocator)
                     : ExpressionCompiler.compile(expression, RandomExpressions.SCHEMA, CONTEXT, allocator)) {
            if (selection != null) {
                batch.select(selection, selection.length);
            }
            assertEquals(compiled.mode(), rowByRow ? compiled.mode() : ExpressionCompiler.mode(expression),
                    "mode analysis matches the compiled form: " + context);
            FieldVector result;
            try {
                result = compiled.evaluate(batch);
            } catch (ColumbaException e) {
                if (!expectedErrors.contains(e.errorCode())) {
                    fail(context + ": kernel raised " + e.getMessage() + " but the reference raised " + expectedErrors
                            + " with values " + expected);
                }
                return 0;
            }
            if (!expectedErrors.isEmpty()) {
                fail(context + ": the reference raised " + expectedErrors + " but the kernel did not");
            }
            SqlType type = expression.type();
            for (int index = 0; index < live.size(); index++) {
                int row = live.get(index);
                Object actual = VectorValues.get(result, row, type);
                if (!same(expected.get(index), actual)) {
                    fail(context + "\n  row " + row + " " + Arrays.toString(rows.get(row)) + "\n  expected " + expected.get(index)
                            + " but was " + actual);
                }
            }
            return live.size();
        }
    }

    private static boolean same(Object expected, Object actual) {
        if (expected instanceof Double left && actual instanceof Double right) {
            return Double.compare(left, right) == 0;
        }
        if (expected instanceof BigDecimal left && actual instanceof BigDecimal right) {
            return left.equals(right);
        }
        return Objects.equals(expected, actual);
    }
}
