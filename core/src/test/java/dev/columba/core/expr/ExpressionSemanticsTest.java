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
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SQL semantics pinned with exact values and errors. Every case reads its operands from input
 * columns (constants would be folded before any kernel runs) and is checked three ways: the
 * reference evaluator, the vectorized kernels, and the row-by-row fallback.
 */
class ExpressionSemanticsTest {
    private static final EvaluationContext CONTEXT = new EvaluationContext(LocalDateTime.of(2024, 3, 3, 10, 11, 12));

    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(64L << 20);
        allocator = memory.child("semantics", 32L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    /** Input columns c0, c1, ... holding one row of values. */
    private static final class Inputs {
        private final List<Column> columns = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        Inputs add(SqlType type, Object value) {
            columns.add(Column.nullable("c" + columns.size(), type));
            values.add(value);
            return this;
        }

        Expr column(int index) {
            return new Expr.ColumnReference(index, columns.get(index).type());
        }

        TableSchema schema() {
            return new TableSchema(columns);
        }

        Object[] row() {
            return values.toArray();
        }
    }

    private static Inputs inputs(SqlType type, Object value) {
        return new Inputs().add(type, value);
    }

    private static Inputs inputs(SqlType firstType, Object first, SqlType secondType, Object second) {
        return new Inputs().add(firstType, first).add(secondType, second);
    }

    private void assertValue(Object expected, Expr expression, Inputs inputs) {
        assertEquals(expected, Evaluator.evaluate(expression, inputs.row(), CONTEXT), "reference: " + expression);
        assertEquals(expected, compiled(expression, inputs, false), "kernels: " + expression);
        assertEquals(expected, compiled(expression, inputs, true), "row by row: " + expression);
    }

    private void assertError(ErrorCode code, String sqlState, String messagePart, Expr expression, Inputs inputs) {
        for (int way = 0; way < 3; way++) {
            int chosen = way;
            ColumbaException error = assertThrows(ColumbaException.class, () -> {
                if (chosen == 0) {
                    Evaluator.evaluate(expression, inputs.row(), CONTEXT);
                } else {
                    compiled(expression, inputs, chosen == 2);
                }
            }, expression.toString());
            assertEquals(code, error.errorCode(), error.getMessage());
            assertEquals(sqlState, error.errorCode().sqlState());
            assertTrue(error.getMessage().contains(messagePart), error.getMessage() + " names " + messagePart);
        }
    }

    private Object compiled(Expr expression, Inputs inputs, boolean rowByRow) {
        try (Batch batch = TestBatches.batch(inputs.schema(), List.of(inputs.row(), inputs.row()), allocator);
             CompiledExpression compiled = rowByRow
                     ? ExpressionCompiler.compileRowByRow(expression, inputs.schema(), CONTEXT, allocator)
                     : ExpressionCompiler.compile(expression, inputs.schema(), CONTEXT, allocator)) {
            batch.select(new int[] {1}, 1);
            return VectorValues.get(compiled.evaluate(batch), 1, expression.type());
        }
    }

    private static Expr literal(Object value, SqlType type) {
        return new Expr.Literal(value, type);
    }

    private static Expr call(ScalarFunction function, Expr... arguments) {
        return new Expr.Call(function, List.of(arguments));
    }

    @Test
    void andOrNotFollowThreeValuedLogic() {
        Inputs in = new Inputs().add(SqlType.BOOLEAN, null).add(SqlType.BOOLEAN, true).add(SqlType.BOOLEAN, false);
        Expr unknown = in.column(0);
        Expr yes = in.column(1);
        Expr no = in.column(2);
        assertValue(false, new Expr.And(List.of(unknown, no)), in);
        assertValue(null, new Expr.And(List.of(unknown, yes)), in);
        assertValue(true, new Expr.Or(List.of(unknown, yes)), in);
        assertValue(null, new Expr.Or(List.of(unknown, no)), in);
        assertValue(null, new Expr.Not(unknown), in);
        assertValue(true, new Expr.Is(unknown, IsCondition.NOT_TRUE), in);
        assertValue(false, new Expr.Is(unknown, IsCondition.FALSE), in);
        assertValue(true, new Expr.Is(unknown, IsCondition.NULL), in);
    }

    @Test
    void comparisonsWithNullAreUnknownExceptDistinctFrom() {
        Inputs in = inputs(SqlType.INT, null, SqlType.INT, 1).add(SqlType.BIGINT, null);
        assertValue(null, new Expr.Comparison(ComparisonOperator.EQUAL, in.column(0), in.column(1)), in);
        assertValue(true, new Expr.Comparison(ComparisonOperator.IS_DISTINCT_FROM, in.column(0), in.column(1)), in);
        assertValue(false, new Expr.Comparison(ComparisonOperator.IS_DISTINCT_FROM, in.column(0), in.column(2)), in);
        assertValue(true, new Expr.Comparison(ComparisonOperator.IS_NOT_DISTINCT_FROM, in.column(0), in.column(2)), in);
    }

    @Test
    void comparisonsAcrossTypesOfAFamily() {
        Inputs in = inputs(SqlType.INT, 3, SqlType.decimal(5, 2), new BigDecimal("3.00")).add(SqlType.DOUBLE, 2.5)
                .add(SqlType.DATE, LocalDate.of(2024, 1, 1)).add(SqlType.TIMESTAMP, LocalDateTime.of(2024, 1, 1, 0, 0, 1))
                .add(SqlType.varchar(5), "a").add(SqlType.character(3), "a  ");
        assertValue(true, new Expr.Comparison(ComparisonOperator.EQUAL, in.column(0), in.column(1)), in);
        assertValue(true, new Expr.Comparison(ComparisonOperator.GREATER_THAN, in.column(1), in.column(2)), in);
        assertValue(true, new Expr.Comparison(ComparisonOperator.LESS_THAN, in.column(3), in.column(4)), in);
        assertValue(true, new Expr.Comparison(ComparisonOperator.LESS_THAN, in.column(5), in.column(6)), in);
    }

    @Test
    void integerOverflowIsAnErrorNamingTheOperands() {
        Inputs in = inputs(SqlType.INT, Integer.MAX_VALUE, SqlType.INT, 1);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "2147483647 + 1",
                Expr.Arithmetic.of(ArithmeticOperator.ADD, in.column(0), in.column(1)), in);
        Inputs longs = inputs(SqlType.BIGINT, Long.MIN_VALUE, SqlType.BIGINT, -1L);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "-9223372036854775808 / -1",
                Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, longs.column(0), longs.column(1)), longs);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "-(-9223372036854775808)", new Expr.Negate(longs.column(0)), longs);
    }

    @Test
    void theSmallestBigintSurvivesARoundTripThroughDouble() {
        Inputs in = inputs(SqlType.DOUBLE, -0x1p63);
        assertValue(Long.MIN_VALUE, new Expr.Cast(in.column(0), SqlType.BIGINT), in);
        Inputs above = inputs(SqlType.DOUBLE, 0x1p63);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "out of range for BIGINT", new Expr.Cast(above.column(0), SqlType.BIGINT), above);
        Inputs forInt = inputs(SqlType.DOUBLE, -0x1p63);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "out of range for INT", new Expr.Cast(forInt.column(0), SqlType.INT), forInt);
    }

    @Test
    void divisionByZeroIsAnErrorForEveryNumericType() {
        Inputs in = inputs(SqlType.INT, 5, SqlType.INT, 0).add(SqlType.DOUBLE, 1.5).add(SqlType.DOUBLE, 0.0)
                .add(SqlType.decimal(4, 2), new BigDecimal("1.00")).add(SqlType.decimal(3, 1), new BigDecimal("0.0"));
        assertError(ErrorCode.DIVISION_BY_ZERO, "22012", "5 / 0", Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, in.column(0), in.column(1)), in);
        assertError(ErrorCode.DIVISION_BY_ZERO, "22012", "5 % 0", Expr.Arithmetic.of(ArithmeticOperator.MODULO, in.column(0), in.column(1)), in);
        assertError(ErrorCode.DIVISION_BY_ZERO, "22012", "1.5 / 0.0", Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, in.column(2), in.column(3)), in);
        assertError(ErrorCode.DIVISION_BY_ZERO, "22012", "1.00 / 0.0", Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, in.column(4), in.column(5)), in);
    }

    @Test
    void integerDivisionTruncatesAndDecimalsRoundHalfAwayFromZero() {
        Inputs in = inputs(SqlType.INT, -7, SqlType.INT, 2);
        assertValue(-3, Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, in.column(0), in.column(1)), in);
        assertValue(-1, Expr.Arithmetic.of(ArithmeticOperator.MODULO, in.column(0), in.column(1)), in);
        Inputs decimals = inputs(SqlType.decimal(4, 2), new BigDecimal("10.00"), SqlType.INT, 3);
        Expr.Arithmetic quotient = Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, decimals.column(0), decimals.column(1));
        assertEquals(SqlType.decimal(15, 13), quotient.type());
        assertValue(new BigDecimal("3.3333333333333"), quotient, decimals);
        Inputs money = inputs(SqlType.decimal(15, 2), new BigDecimal("12345.67"), SqlType.decimal(15, 2), new BigDecimal("0.05"));
        Expr.Arithmetic product = Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, money.column(0), money.column(1));
        assertValue(new BigDecimal("617.2835"), product, money);
        assertValue(new BigDecimal("617.28"), new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, money.column(0),
                money.column(1), SqlType.decimal(12, 2)), money);
        Inputs half = inputs(SqlType.decimal(4, 3), new BigDecimal("-1.005"), SqlType.INT, 1);
        assertValue(new BigDecimal("-1.01"), new Expr.Cast(half.column(0), SqlType.decimal(5, 2)), half);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "-1.005", new Expr.Cast(half.column(0), SqlType.decimal(2, 2)), half);
    }

    @Test
    void castsParseFormatRoundAndNameBadValues() {
        Inputs text = inputs(SqlType.varchar(20), "abc", SqlType.varchar(20), "99999999999").add(SqlType.varchar(20), " 42 ")
                .add(SqlType.varchar(20), "2024-02-30").add(SqlType.varchar(20), "yes");
        assertError(ErrorCode.INVALID_CAST, "22018", "'abc'", new Expr.Cast(text.column(0), SqlType.INT), text);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "99999999999", new Expr.Cast(text.column(1), SqlType.INT), text);
        assertValue(42, new Expr.Cast(text.column(2), SqlType.INT), text);
        assertError(ErrorCode.INVALID_CAST, "22018", "2024-02-30", new Expr.Cast(text.column(3), SqlType.DATE), text);
        assertValue(true, new Expr.Cast(text.column(4), SqlType.BOOLEAN), text);
        assertValue("ab", new Expr.Cast(text.column(0), SqlType.varchar(2)), text);
        assertValue("abc  ", new Expr.Cast(text.column(0), SqlType.character(5)), text);

        // Exponents past what BigDecimal holds (found by KernelConformanceTest's seed -2691363955645077128): a
        // NumberFormatException escaped before.
        Inputs exponents = inputs(SqlType.varchar(20), "1e9999999999", SqlType.varchar(20), "-2.5E-9999999999")
                .add(SqlType.varchar(20), "0e9999999999");
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "1e9999999999", new Expr.Cast(exponents.column(0), SqlType.decimal(10, 2)),
                exponents);
        assertValue(new BigDecimal("0.00"), new Expr.Cast(exponents.column(1), SqlType.decimal(10, 2)), exponents);
        assertValue(new BigDecimal("0.00"), new Expr.Cast(exponents.column(2), SqlType.decimal(10, 2)), exponents);

        Inputs numbers = inputs(SqlType.DOUBLE, 2.5, SqlType.DOUBLE, -2.5).add(SqlType.DOUBLE, 1e10).add(SqlType.BOOLEAN, true);
        assertValue(3, new Expr.Cast(numbers.column(0), SqlType.INT), numbers);
        assertValue(-3L, new Expr.Cast(numbers.column(1), SqlType.BIGINT), numbers);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "out of range for INT", new Expr.Cast(numbers.column(2), SqlType.INT), numbers);
        assertValue(1, new Expr.Cast(numbers.column(3), SqlType.INT), numbers);
        assertValue("TRUE", new Expr.Cast(numbers.column(3), SqlType.varchar(5)), numbers);
        assertValue("2.5", new Expr.Cast(numbers.column(0), SqlType.varchar(5)), numbers);

        Inputs times = inputs(SqlType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 500_000_000), SqlType.DATE, LocalDate.of(2024, 1, 2));
        assertValue("2024-01-02 03:04:05.5", new Expr.Cast(times.column(0), SqlType.varchar(30)), times);
        assertValue(LocalDate.of(2024, 1, 2), new Expr.Cast(times.column(0), SqlType.DATE), times);
        assertValue(LocalDateTime.of(2024, 1, 2, 0, 0), new Expr.Cast(times.column(1), SqlType.TIMESTAMP), times);
        assertThrows(ColumbaException.class, () -> new Expr.Cast(times.column(1), SqlType.INT));
    }

    @Test
    void likeMatchesCharactersWithWildcardsAndEscapes() {
        Inputs in = inputs(SqlType.varchar(10), "abc", SqlType.varchar(10), "a%c").add(SqlType.varchar(10), "a\uD83D\uDE00c");
        assertValue(true, like(in.column(0), "a%", null), in);
        assertValue(true, like(in.column(0), "_b_", null), in);
        assertValue(false, like(in.column(0), "_b", null), in);
        assertValue(true, like(in.column(1), "a!%c", "!"), in);
        assertValue(false, like(in.column(0), "a!%c", "!"), in);
        assertValue(true, like(in.column(2), "a_c", null), in);
        assertValue(true, like(in.column(2), "%\uD83D\uDE00%", null), in);
        assertValue(null, new Expr.Like(in.column(0), Expr.Literal.nullOf(SqlType.varchar(1)), null, false), in);
        assertError(ErrorCode.INVALID_ESCAPE_SEQUENCE, "22025", "a!", like(in.column(0), "a!", "!"), in);
        assertError(ErrorCode.INVALID_ESCAPE_SEQUENCE, "22025", "'ab'", like(in.column(0), "a", "ab"), in);
    }

    private static Expr like(Expr value, String pattern, String escape) {
        return new Expr.Like(value, literal(pattern, SqlType.varchar(10)), escape == null ? null : literal(escape, SqlType.varchar(2)), false);
    }

    @Test
    void inListsAndBetweenFollowThreeValuedLogic() {
        Inputs in = inputs(SqlType.INT, 1, SqlType.INT, null).add(SqlType.INT, 5);
        Expr one = in.column(0);
        Expr unknown = in.column(1);
        assertValue(null, new Expr.InList(one, List.of(literal(2, SqlType.INT), unknown), false), in);
        assertValue(true, new Expr.InList(one, List.of(literal(1L, SqlType.BIGINT), unknown), false), in);
        assertValue(null, new Expr.InList(unknown, List.of(literal(1, SqlType.INT)), false), in);
        assertValue(true, new Expr.InList(one, List.of(literal(2, SqlType.INT), literal(3, SqlType.INT)), true), in);
        assertValue(null, new Expr.InList(one, List.of(literal(2, SqlType.INT), unknown), true), in);
        Expr five = in.column(2);
        assertValue(true, new Expr.Between(five, one, literal(10, SqlType.INT), false), in);
        assertValue(false, new Expr.Between(five, unknown, literal(4, SqlType.INT), false), in);
        assertValue(null, new Expr.Between(five, unknown, literal(10, SqlType.INT), false), in);
        assertValue(false, new Expr.Between(five, one, literal(10, SqlType.INT), true), in);
    }

    @Test
    void inListsOfStringConstantsCompareWholeValues() {
        SqlType text = SqlType.varchar(10);
        Inputs in = inputs(text, "ab", text, null).add(text, "żó").add(text, "");
        Expr ab = in.column(0);
        Expr unknown = in.column(1);
        Expr accented = in.column(2);
        Expr empty = in.column(3);
        List<Expr> prefixes = List.of(literal("a", text), literal("abc", text), literal("b", text));
        assertValue(false, new Expr.InList(ab, prefixes, false), in);
        assertValue(true, new Expr.InList(ab, prefixes, true), in);
        assertValue(true, new Expr.InList(ab, List.of(literal("abc", text), literal("ab", text)), false), in);
        assertValue(false, new Expr.InList(ab, List.of(literal("abc", text), literal("ab", text)), true), in);
        assertValue(null, new Expr.InList(unknown, prefixes, false), in);
        assertValue(null, new Expr.InList(ab, List.of(literal("x", text), literal(null, text)), false), in);
        assertValue(null, new Expr.InList(ab, List.of(literal("x", text), literal(null, text)), true), in);
        assertValue(true, new Expr.InList(ab, List.of(literal(null, text), literal("ab", text)), false), in);
        assertValue(true, new Expr.InList(accented, List.of(literal("zo", text), literal("żó", text)), false), in);
        assertValue(false, new Expr.InList(accented, List.of(literal("zo", text), literal("żo", text)), false), in);
        assertValue(true, new Expr.InList(empty, List.of(literal("a", text), literal("", text)), false), in);
        assertValue(false, new Expr.InList(empty, List.of(literal("a", text), literal(" ", text)), false), in);
    }

    @Test
    void caseCoalesceAndAndEvaluateOnlyWhatTheyNeed() {
        Inputs in = inputs(SqlType.INT, 0, SqlType.INT, null);
        Expr zero = in.column(0);
        Expr notZero = new Expr.Comparison(ComparisonOperator.NOT_EQUAL, zero, literal(0, SqlType.INT));
        Expr tenOverX = Expr.Arithmetic.of(ArithmeticOperator.DIVIDE, literal(10, SqlType.INT), zero);
        assertValue(-1, Expr.Case.of(List.of(new Expr.Case.When(notZero, tenOverX)), literal(-1, SqlType.INT)), in);
        assertValue(false, new Expr.And(List.of(notZero,
                new Expr.Comparison(ComparisonOperator.GREATER_THAN, tenOverX, literal(1, SqlType.INT)))), in);
        assertValue(0L, Expr.Coalesce.of(List.of(in.column(1), zero, tenOverX, literal(7L, SqlType.BIGINT))), in);
        assertValue(null, Expr.Case.of(List.of(new Expr.Case.When(new Expr.Is(in.column(1), IsCondition.NOT_NULL), zero)), null), in);
    }

    @Test
    void stringFunctionsCountCharactersNotBytes() {
        Inputs in = inputs(SqlType.varchar(10), "a\uD83D\uDE00b", SqlType.varchar(10), "hello").add(SqlType.varchar(10), "straße")
                .add(SqlType.varchar(10), "  x  ").add(SqlType.varchar(10), "banana").add(SqlType.varchar(10), null);
        Expr emoji = in.column(0);
        Expr hello = in.column(1);
        assertValue(3, call(ScalarFunction.CHAR_LENGTH, emoji), in);
        assertValue("ell", call(ScalarFunction.SUBSTRING, hello, literal(2, SqlType.INT), literal(3, SqlType.INT)), in);
        assertValue("he", call(ScalarFunction.SUBSTRING, hello, literal(0, SqlType.INT), literal(3, SqlType.INT)), in);
        assertValue("hello", call(ScalarFunction.SUBSTRING, hello, literal(-5, SqlType.INT)), in);
        assertValue("\uD83D\uDE00b", call(ScalarFunction.SUBSTRING, emoji, literal(2, SqlType.INT)), in);
        assertError(ErrorCode.SUBSTRING_ERROR, "22011", "-1",
                call(ScalarFunction.SUBSTRING, hello, literal(2, SqlType.INT), literal(-1, SqlType.INT)), in);
        assertValue("STRASSE", call(ScalarFunction.UPPER, in.column(2)), in);
        assertValue("hello", call(ScalarFunction.LOWER, call(ScalarFunction.UPPER, hello)), in);
        assertValue("x", call(ScalarFunction.TRIM, in.column(3)), in);
        assertValue("x  ", call(ScalarFunction.LTRIM, in.column(3)), in);
        assertValue("nana", call(ScalarFunction.LTRIM, in.column(4), literal("ab", SqlType.varchar(2))), in);
        assertValue("bANANa", call(ScalarFunction.REPLACE, in.column(4), literal("an", SqlType.varchar(2)), literal("AN", SqlType.varchar(2))), in);
        assertValue("hellohello", call(ScalarFunction.REPEAT, hello, literal(2, SqlType.INT)), in);
        assertValue(2, call(ScalarFunction.POSITION, literal("an", SqlType.varchar(2)), in.column(4)), in);
        assertValue(2, call(ScalarFunction.POSITION, literal("\uD83D\uDE00b", SqlType.varchar(2)), emoji), in);
        assertValue(0, call(ScalarFunction.POSITION, literal("z", SqlType.varchar(2)), in.column(4)), in);
        assertValue("hellobanana", call(ScalarFunction.CONCAT, hello, in.column(4)), in);
        assertValue(null, call(ScalarFunction.CONCAT, hello, in.column(5)), in);
    }

    @Test
    void numericFunctions() {
        Inputs in = inputs(SqlType.INT, -5, SqlType.INT, Integer.MIN_VALUE).add(SqlType.DOUBLE, 2.5).add(SqlType.DOUBLE, -2.5)
                .add(SqlType.INT, 1250).add(SqlType.decimal(3, 2), new BigDecimal("1.45")).add(SqlType.decimal(2, 1), new BigDecimal("-1.5"))
                .add(SqlType.DOUBLE, -1.0).add(SqlType.INT, 2).add(SqlType.INT, 10);
        assertValue(5, call(ScalarFunction.ABS, in.column(0)), in);
        assertError(ErrorCode.VALUE_OUT_OF_RANGE, "22003", "ABS(-2147483648)", call(ScalarFunction.ABS, in.column(1)), in);
        assertValue(3.0, call(ScalarFunction.ROUND, in.column(2)), in);
        assertValue(-3.0, call(ScalarFunction.ROUND, in.column(3)), in);
        assertValue(1300, call(ScalarFunction.ROUND, in.column(4), literal(-2, SqlType.INT)), in);
        assertValue(new BigDecimal("1.50"), call(ScalarFunction.ROUND, in.column(5), literal(1, SqlType.INT)), in);
        assertValue(new BigDecimal("1.00"), call(ScalarFunction.ROUND, in.column(5)), in);
        assertValue(new BigDecimal("-2"), call(ScalarFunction.FLOOR, in.column(6)), in);
        assertValue(new BigDecimal("-1"), call(ScalarFunction.CEIL, in.column(6)), in);
        assertValue(1024.0, call(ScalarFunction.POWER, in.column(8), in.column(9)), in);
        assertValue(-0.5, Expr.Arithmetic.of(ArithmeticOperator.MODULO, in.column(3), in.column(8)), in);
        assertError(ErrorCode.INVALID_POWER_ARGUMENT, "2201F", "-1.0", call(ScalarFunction.SQRT, in.column(7)), in);
        assertError(ErrorCode.INVALID_POWER_ARGUMENT, "2201F", "POWER(-0.0, -1.0)",
                call(ScalarFunction.POWER, Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, in.column(7), literal(0.0, SqlType.DOUBLE)),
                        in.column(7)), in);
    }

    @Test
    void extractAndDateArithmetic() {
        Inputs in = inputs(SqlType.DATE, LocalDate.of(2024, 3, 3), SqlType.TIMESTAMP, LocalDateTime.of(2024, 12, 31, 13, 14, 15))
                .add(SqlType.DATE, LocalDate.of(2024, 1, 31)).add(SqlType.DATE, LocalDate.of(9999, 12, 31)).add(SqlType.INT, 1);
        assertValue(1L, new Expr.Extract(DateTimeField.DOW, in.column(0)), in);
        assertValue(63L, new Expr.Extract(DateTimeField.DOY, in.column(0)), in);
        assertValue(366L, new Expr.Extract(DateTimeField.DOY, in.column(1)), in);
        assertValue(4L, new Expr.Extract(DateTimeField.QUARTER, in.column(1)), in);
        assertValue(13L, new Expr.Extract(DateTimeField.HOUR, in.column(1)), in);
        assertValue(15L, new Expr.Extract(DateTimeField.SECOND, in.column(1)), in);
        assertValue(0L, new Expr.Extract(DateTimeField.MINUTE, in.column(0)), in);
        assertValue(LocalDate.of(2024, 2, 29), new Expr.DateAdd(in.column(2), in.column(4), IntervalUnit.MONTH), in);
        assertValue(LocalDate.of(2024, 3, 2), new Expr.DateAdd(in.column(0), new Expr.Negate(in.column(4)), IntervalUnit.DAY), in);
        assertValue(LocalDateTime.of(2024, 12, 31, 14, 44, 15),
                new Expr.DateAdd(in.column(1), literal(90, SqlType.INT), IntervalUnit.MINUTE), in);
        assertError(ErrorCode.DATETIME_OVERFLOW, "22008", "9999-12-31 + 1 DAY", new Expr.DateAdd(in.column(3), in.column(4), IntervalUnit.DAY), in);
        assertValue(LocalDate.of(2024, 3, 3), new Expr.DateAdd(new Expr.CurrentDate(), Expr.Arithmetic.of(ArithmeticOperator.SUBTRACT,
                in.column(4), in.column(4)), IntervalUnit.DAY), in);
        assertValue(LocalDateTime.of(2024, 3, 3, 10, 11, 12), new Expr.Coalesce(List.of(new Expr.CurrentTimestamp(), in.column(1)), SqlType.TIMESTAMP), in);
        ColumbaException wrongUnit = assertThrows(ColumbaException.class,
                () -> new Expr.DateAdd(in.column(0), in.column(4), IntervalUnit.HOUR));
        assertEquals(ErrorCode.WRONG_TYPE, wrongUnit.errorCode());
    }

    @Test
    void typeErrorsAreReportedWhenTheExpressionIsBuilt() {
        Inputs in = inputs(SqlType.INT, 1, SqlType.varchar(3), "a");
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> new Expr.Comparison(ComparisonOperator.EQUAL, in.column(0), in.column(1)));
        assertEquals(ErrorCode.WRONG_TYPE, error.errorCode());
        assertEquals("42804", error.errorCode().sqlState());
        assertTrue(error.getMessage().contains("INT") && error.getMessage().contains("VARCHAR(3)"), error.getMessage());
        assertThrows(ColumbaException.class,
                () -> new Expr.Arithmetic(ArithmeticOperator.ADD, literal(1.0, SqlType.DOUBLE), in.column(0), SqlType.INT));
        assertThrows(ColumbaException.class, () -> new Expr.Call(ScalarFunction.SUBSTRING, List.of(in.column(0), in.column(0))));
    }

    @Test
    void executionModeSaysWhichExpressionsRunRowByRow() {
        Inputs in = inputs(SqlType.INT, 1, SqlType.varchar(10), "abc");
        Expr column = in.column(0);
        Expr text = in.column(1);
        assertEquals(ExecutionMode.BATCH, ExpressionCompiler.mode(new Expr.Comparison(ComparisonOperator.LESS_THAN,
                Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, column, literal(3, SqlType.INT)), literal(10L, SqlType.BIGINT))));
        assertEquals(ExecutionMode.BATCH, ExpressionCompiler.mode(like(text, "a%", null)));
        assertEquals(ExecutionMode.BATCH, ExpressionCompiler.mode(new Expr.Cast(literal(5, SqlType.INT), SqlType.varchar(3))));
        assertEquals(ExecutionMode.ROW, ExpressionCompiler.mode(new Expr.Cast(column, SqlType.varchar(3))));
        assertEquals(ExecutionMode.ROW, ExpressionCompiler.mode(new Expr.Like(text, text, null, false)));
        assertEquals(ExecutionMode.ROW, ExpressionCompiler.mode(new Expr.And(List.of(
                new Expr.Comparison(ComparisonOperator.EQUAL, column, literal(1, SqlType.INT)),
                new Expr.Comparison(ComparisonOperator.EQUAL, call(ScalarFunction.REPEAT, text, column), text)))));
        try (CompiledExpression compiled = ExpressionCompiler.compile(call(ScalarFunction.REPLACE, text, text, text), in.schema(), CONTEXT, allocator)) {
            assertEquals(ExecutionMode.ROW, compiled.mode());
        }
    }
}
