package dev.columba.core.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DECIMAL arithmetic kernels over whole batches: the 64-bit loops for operands of precision up to
 * 18, the 128-bit loops for wider ones, and the switch from the first to the second when an
 * intermediate passes 64 bits. Each case evaluates two columns over several rows (negative values,
 * values near ±10^18, NULLs) with the vectorized kernels, on all rows and on a selection, and
 * compares every row with a product or sum computed independently in {@link BigDecimal}.
 */
class DecimalKernelTest {
    private static final EvaluationContext CONTEXT = new EvaluationContext(LocalDateTime.of(2024, 3, 3, 10, 11, 12));
    /** 10^18 - 1, the largest DECIMAL(18, 0). */
    private static final BigDecimal MAX_18 = new BigDecimal("999999999999999999");

    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(64L << 20);
        allocator = memory.child("decimal-kernels", 32L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    private static TableSchema schema(SqlType left, SqlType right) {
        return new TableSchema(List.of(Column.nullable("c0", left), Column.nullable("c1", right)));
    }

    private static Expr column(int index, SqlType type) {
        return new Expr.ColumnReference(index, type);
    }

    private static Object[] row(String left, String right) {
        return new Object[] {left == null ? null : new BigDecimal(left), right == null ? null : new BigDecimal(right)};
    }

    /** The expression's value at every row, evaluated for all rows at once or for the odd rows only. */
    private List<Object> evaluate(Expr expression, TableSchema schema, List<Object[]> rows, boolean oddRowsOnly) {
        try (Batch batch = TestBatches.batch(schema, rows, allocator);
             CompiledExpression compiled = ExpressionCompiler.compile(expression, schema, CONTEXT, allocator)) {
            List<Integer> live = new ArrayList<>();
            for (int row = oddRowsOnly ? 1 : 0; row < rows.size(); row += oddRowsOnly ? 2 : 1) {
                live.add(row);
            }
            batch.select(live.stream().mapToInt(Integer::intValue).toArray(), live.size());
            var vector = compiled.evaluate(batch);
            List<Object> values = new ArrayList<>();
            for (int row : live) {
                values.add(VectorValues.get(vector, row, expression.type()));
            }
            return values;
        }
    }

    /** Checks the kernels' result of {@code operator} at every row, all rows and every other row, against {@code expected}. */
    private void assertRows(ArithmeticOperator operator, SqlType leftType, SqlType rightType, SqlType resultType,
                            List<Object[]> rows) {
        TableSchema schema = schema(leftType, rightType);
        Expr expression = new Expr.Arithmetic(operator, column(0, leftType), column(1, rightType), resultType);
        int scale = ((SqlType.DecimalType) resultType).scale();
        for (boolean odd : new boolean[] {false, true}) {
            List<Object> actual = evaluate(expression, schema, rows, odd);
            int index = 0;
            for (int row = odd ? 1 : 0; row < rows.size(); row += odd ? 2 : 1) {
                BigDecimal left = (BigDecimal) rows.get(row)[0];
                BigDecimal right = (BigDecimal) rows.get(row)[1];
                Object expected = left == null || right == null ? null : switch (operator) {
                    case ADD -> left.add(right).setScale(scale);
                    case SUBTRACT -> left.subtract(right).setScale(scale);
                    case MULTIPLY -> left.multiply(right).setScale(scale);
                    case DIVIDE, MODULO -> throw new IllegalArgumentException(operator.toString());
                };
                assertEquals(expected, actual.get(index), expression + " at row " + row + (odd ? " (odd rows)" : ""));
                index++;
            }
        }
    }

    private void assertOverflow(ArithmeticOperator operator, SqlType leftType, SqlType rightType, SqlType resultType,
                                List<Object[]> rows, String messagePart) {
        TableSchema schema = schema(leftType, rightType);
        Expr expression = new Expr.Arithmetic(operator, column(0, leftType), column(1, rightType), resultType);
        ColumbaException error = assertThrows(ColumbaException.class, () -> evaluate(expression, schema, rows, false));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, error.errorCode(), error.getMessage());
        assertEquals("22003", error.errorCode().sqlState());
        assertTrue(error.getMessage().contains(messagePart), error.getMessage() + " names " + messagePart);
    }

    @Test
    void narrowSumsAndDifferencesAlignScalesAndKeepSigns() {
        List<Object[]> rows = List.<Object[]>of(row("1", "0.05"), row("1", "0.10"), row("-12345.67", "0.0001"),
                row("0", "-0.0001"), row("-1", "-99999999.9999"), row("99999999999.99", "99999999.9999"));
        SqlType left = SqlType.decimal(13, 2);
        SqlType right = SqlType.decimal(12, 4);
        assertRows(ArithmeticOperator.ADD, left, right, SqlType.decimal(16, 4), rows);
        assertRows(ArithmeticOperator.SUBTRACT, left, right, SqlType.decimal(16, 4), rows);
    }

    @Test
    void narrowSumsNearTenToTheEighteenFitALong() {
        String max = MAX_18.toPlainString();
        List<Object[]> rows = List.<Object[]>of(row(max, max), row("-" + max, "-" + max), row(max, "-" + max), row("-" + max, "1"));
        SqlType type = SqlType.decimal(18, 0);
        assertRows(ArithmeticOperator.ADD, type, type, SqlType.decimal(19, 0), rows);
        assertRows(ArithmeticOperator.SUBTRACT, type, type, SqlType.decimal(19, 0), rows);
    }

    @Test
    void sumsThatPassSixtyFourBitsSwitchTo128Bits() {
        // DECIMAL(18, 0) brought to scale 2 passes 2^63: the row goes to the 128-bit path, exactly.
        String max = MAX_18.toPlainString();
        List<Object[]> rows = List.<Object[]>of(row(max, "0.01"), row("-" + max, "-0.01"), row("5", "0.25"), row("-" + max, max + ".00"));
        assertRows(ArithmeticOperator.ADD, SqlType.decimal(18, 0), SqlType.decimal(20, 2), SqlType.decimal(21, 2), rows);
        assertRows(ArithmeticOperator.SUBTRACT, SqlType.decimal(18, 0), SqlType.decimal(20, 2), SqlType.decimal(21, 2), rows);
        assertRows(ArithmeticOperator.ADD, SqlType.decimal(18, 0), SqlType.decimal(18, 2), SqlType.decimal(21, 2),
                List.<Object[]>of(row(max, "0.01"), row("-" + max, "-9999999999999999.99"), row("-3", "0.01")));
    }

    @Test
    void narrowProductsAreExactIn128Bits() {
        String max = MAX_18.toPlainString();
        List<Object[]> rows = List.<Object[]>of(row(max, max), row("-" + max, max), row("-" + max, "-" + max), row("0", "-" + max),
                row("-1", "1"));
        SqlType type = SqlType.decimal(18, 0);
        assertRows(ArithmeticOperator.MULTIPLY, type, type, SqlType.decimal(36, 0), rows);
        List<Object[]> money = List.<Object[]>of(row("12345.67", "0.95"), row("-0.01", "1.08"), row("99999999999.99", "-1.00"));
        assertRows(ArithmeticOperator.MULTIPLY, SqlType.decimal(13, 2), SqlType.decimal(3, 2), SqlType.decimal(16, 4), money);
    }

    @Test
    void productsOfAWideOperandTakeThe128BitLoop() {
        List<Object[]> rows = List.<Object[]>of(row("1234567890123456789012.3456", "1.08"), row("-12345.6789", "-0.50"),
                row("0.0001", "99.99"));
        assertRows(ArithmeticOperator.MULTIPLY, SqlType.decimal(30, 4), SqlType.decimal(4, 2), SqlType.decimal(34, 6), rows);
    }

    @Test
    void nullOperandsGiveNullRows() {
        List<Object[]> rows = List.<Object[]>of(row(null, "1.00"), row("2.50", null), row("-2.50", "1.25"), row(null, null),
                row("7.00", "-0.01"));
        SqlType type = SqlType.decimal(10, 2);
        assertRows(ArithmeticOperator.ADD, type, type, SqlType.decimal(11, 2), rows);
        assertRows(ArithmeticOperator.SUBTRACT, type, type, SqlType.decimal(11, 2), rows);
        assertRows(ArithmeticOperator.MULTIPLY, type, type, SqlType.decimal(20, 4), rows);
    }

    @Test
    void overflowIsAnErrorOnThe64BitPath() {
        SqlType type = SqlType.decimal(18, 0);
        String max = MAX_18.toPlainString();
        assertOverflow(ArithmeticOperator.ADD, type, type, type, List.<Object[]>of(row("1", "2"), row(max, "1")), max);
        assertOverflow(ArithmeticOperator.SUBTRACT, type, type, type, List.<Object[]>of(row("-" + max, "1")), max);
        SqlType cents = SqlType.decimal(9, 2);
        assertOverflow(ArithmeticOperator.MULTIPLY, cents, cents, SqlType.decimal(10, 4),
                List.<Object[]>of(row("1.00", "1.00"), row("-9999999.99", "2.00")), "9999999.99");
    }

    /**
     * A literal operand of a narrow sum ({@code 1 - discount}, {@code price + 0.5}) is read once,
     * not from a vector per row: the results are the same on either side, NULL rows included, and
     * overflow is still 22003.
     */
    @Test
    void narrowSumsWithALiteralOperandMatchBigDecimal() {
        SqlType discount = SqlType.decimal(15, 2);
        SqlType one = SqlType.decimal(1, 0);
        SqlType half = SqlType.decimal(2, 1);
        TableSchema schema = schema(discount, discount);
        List<Object[]> rows = List.<Object[]>of(row("0.05", "0"), row("-0.10", "0"), row("9999999999999.99", "0"),
                row("-9999999999999.99", "0"), row("0", "0"), row("1.07", "0"));
        List<Object[]> withNulls = new ArrayList<>(rows);
        withNulls.add(row(null, "0"));
        Expr literalOne = new Expr.Literal(BigDecimal.ONE, one);
        Expr literalHalf = new Expr.Literal(new BigDecimal("0.5"), half);
        SqlType result = SqlType.decimal(17, 2);
        record Case(Expr expression, java.util.function.Function<BigDecimal, BigDecimal> expected) {
        }
        List<Case> cases = List.of(
                new Case(new Expr.Arithmetic(ArithmeticOperator.SUBTRACT, literalOne, column(0, discount), result),
                        value -> BigDecimal.ONE.subtract(value)),
                new Case(new Expr.Arithmetic(ArithmeticOperator.ADD, literalOne, column(0, discount), result),
                        value -> BigDecimal.ONE.add(value)),
                new Case(new Expr.Arithmetic(ArithmeticOperator.SUBTRACT, column(0, discount), literalHalf, result),
                        value -> value.subtract(new BigDecimal("0.5"))),
                new Case(new Expr.Arithmetic(ArithmeticOperator.ADD, column(0, discount), literalHalf, result),
                        value -> value.add(new BigDecimal("0.5"))));
        for (Case testCase : cases) {
            for (List<Object[]> input : List.of(rows, withNulls)) {
                for (boolean odd : new boolean[] {false, true}) {
                    List<Object> actual = evaluate(testCase.expression(), schema, input, odd);
                    int index = 0;
                    for (int row = odd ? 1 : 0; row < input.size(); row += odd ? 2 : 1) {
                        BigDecimal value = (BigDecimal) input.get(row)[0];
                        Object expected = value == null ? null : testCase.expected().apply(value).setScale(2);
                        assertEquals(expected, actual.get(index++), testCase.expression() + " at row " + row);
                    }
                }
            }
        }
        SqlType whole = SqlType.decimal(18, 0);
        Expr plusOne = new Expr.Arithmetic(ArithmeticOperator.ADD, column(0, whole), new Expr.Literal(BigDecimal.ONE, one), whole);
        String max = MAX_18.toPlainString();
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> evaluate(plusOne, schema(whole, whole), List.<Object[]>of(row("1", "0"), row(max, "0")), false));
        assertEquals("22003", error.errorCode().sqlState(), error.getMessage());
        assertTrue(error.getMessage().contains(max), error.getMessage());
    }

    /**
     * A product with an operand of the shape literal ± narrow column ({@code price * (1 - discount)},
     * {@code (1 + tax) * charge}) computes that operand per row instead of reading it from a vector:
     * every row matches {@link BigDecimal}, with the factor on either side, the literal on either
     * side of it, negative values, NULLs in either column, an other operand wider than a long (the
     * reference code's row), and on every other row only.
     */
    @Test
    void productsWithALiteralPlusOrMinusAColumnMatchBigDecimal() {
        SqlType price = SqlType.decimal(15, 2);
        SqlType discount = SqlType.decimal(15, 2);
        SqlType wide = SqlType.decimal(31, 4);
        SqlType one = SqlType.decimal(1, 0);
        Expr literalOne = new Expr.Literal(BigDecimal.ONE, one);
        Expr literalHalf = new Expr.Literal(new BigDecimal("0.5"), SqlType.decimal(2, 1));
        List<Object[]> narrowRows = List.<Object[]>of(row("12345.67", "0.05"), row("-0.01", "0.10"), row("9999999999999.99", "-0.07"),
                row("-9999999999999.99", "9999999999999.99"), row("0", "-0.01"), row("104949.50", "0"));
        List<Object[]> wideRows = List.<Object[]>of(row("1234567890123456789012.3456", "0.08"), row("-12345.6789", "-0.50"),
                row("0.0001", "9999999999999.99"), row("-99999999999999999999999999.9999", "0.02"));
        List<Object[]> nullRows = List.<Object[]>of(row(null, "0.05"), row("2.50", null), row("-2.50", "0.25"), row(null, null));
        record Case(SqlType other, boolean factorOnRight, boolean literalLeft, ArithmeticOperator factorOperator,
                    Expr literal, List<Object[]> rows) {
        }
        List<Case> cases = new ArrayList<>();
        for (boolean factorOnRight : new boolean[] {true, false}) {
            for (boolean literalLeft : new boolean[] {true, false}) {
                for (ArithmeticOperator factorOperator : List.of(ArithmeticOperator.SUBTRACT, ArithmeticOperator.ADD)) {
                    Expr literal = literalLeft ? literalOne : literalHalf;
                    cases.add(new Case(price, factorOnRight, literalLeft, factorOperator, literal, narrowRows));
                    cases.add(new Case(price, factorOnRight, literalLeft, factorOperator, literal, nullRows));
                    cases.add(new Case(wide, factorOnRight, literalLeft, factorOperator, literal, wideRows));
                }
            }
        }
        for (Case testCase : cases) {
            TableSchema schema = schema(testCase.other(), discount);
            BigDecimal literalValue = (BigDecimal) ((Expr.Literal) testCase.literal()).value();
            Expr factor = testCase.literalLeft()
                    ? new Expr.Arithmetic(testCase.factorOperator(), testCase.literal(), column(1, discount), SqlType.decimal(17, 2))
                    : new Expr.Arithmetic(testCase.factorOperator(), column(1, discount), testCase.literal(), SqlType.decimal(17, 2));
            int otherScale = ((SqlType.DecimalType) testCase.other()).scale();
            SqlType resultType = SqlType.decimal(38, otherScale + 2);
            Expr product = testCase.factorOnRight()
                    ? new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, column(0, testCase.other()), factor, resultType)
                    : new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, factor, column(0, testCase.other()), resultType);
            for (boolean odd : new boolean[] {false, true}) {
                List<Object> actual = evaluate(product, schema, testCase.rows(), odd);
                int index = 0;
                for (int row = odd ? 1 : 0; row < testCase.rows().size(); row += odd ? 2 : 1) {
                    BigDecimal other = (BigDecimal) testCase.rows().get(row)[0];
                    BigDecimal value = (BigDecimal) testCase.rows().get(row)[1];
                    Object expected = null;
                    if (other != null && value != null) {
                        BigDecimal factorValue = testCase.literalLeft()
                                ? (testCase.factorOperator() == ArithmeticOperator.ADD ? literalValue.add(value) : literalValue.subtract(value))
                                : (testCase.factorOperator() == ArithmeticOperator.ADD ? value.add(literalValue) : value.subtract(literalValue));
                        expected = other.multiply(factorValue.setScale(2)).setScale(otherScale + 2);
                    }
                    assertEquals(expected, actual.get(index++), product + " at row " + row + (odd ? " (odd rows)" : ""));
                }
            }
        }
    }

    /** Overflow in a product with an inline factor, of the product or of the factor itself, is 22003 naming the operands. */
    @Test
    void overflowInAProductWithALiteralPlusAColumnIs22003() {
        SqlType cents = SqlType.decimal(9, 2);
        Expr onePlusColumn = new Expr.Arithmetic(ArithmeticOperator.ADD, new Expr.Literal(BigDecimal.ONE, SqlType.decimal(1, 0)),
                column(1, cents), SqlType.decimal(10, 2));
        Expr product = new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, column(0, cents), onePlusColumn, SqlType.decimal(10, 4));
        ColumbaException productError = assertThrows(ColumbaException.class, () -> evaluate(product, schema(cents, cents),
                List.<Object[]>of(row("1.00", "0.05"), row("-9999999.99", "1.00")), false));
        assertEquals("22003", productError.errorCode().sqlState(), productError.getMessage());
        assertTrue(productError.getMessage().contains("9999999.99"), productError.getMessage());
        SqlType whole = SqlType.decimal(18, 0);
        Expr plusOne = new Expr.Arithmetic(ArithmeticOperator.ADD, column(1, whole), new Expr.Literal(BigDecimal.ONE, SqlType.decimal(1, 0)),
                whole);
        Expr timesPlusOne = new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, column(0, whole), plusOne, SqlType.decimal(36, 0));
        String max = MAX_18.toPlainString();
        ColumbaException factorError = assertThrows(ColumbaException.class, () -> evaluate(timesPlusOne, schema(whole, whole),
                List.<Object[]>of(row("1", "1"), row("-1", max)), false));
        assertEquals("22003", factorError.errorCode().sqlState(), factorError.getMessage());
        assertTrue(factorError.getMessage().contains(max + " + 1"), factorError.getMessage());
    }

    @Test
    void overflowIsAnErrorOnThe128BitPath() {
        SqlType wide = SqlType.decimal(38, 0);
        String large = "9".repeat(38);
        assertOverflow(ArithmeticOperator.ADD, wide, wide, wide, List.<Object[]>of(row("1", "1"), row(large, "1")), "+");
        assertOverflow(ArithmeticOperator.SUBTRACT, wide, wide, wide, List.<Object[]>of(row("-" + large, "1")), "-");
        // (10^30 - 1) * (10^8 - 1) has 38 digits, one more than the result admits.
        assertOverflow(ArithmeticOperator.MULTIPLY, SqlType.decimal(30, 0), SqlType.decimal(8, 0), SqlType.decimal(37, 0),
                List.<Object[]>of(row("2", "3"), row("9".repeat(30), "99999999"), row("1", "1")), "*");
    }
}
