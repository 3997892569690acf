package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference evaluator: the meaning of every {@link Expr}, computed on Java values one row at
 * a time (see {@link SqlType} for the representation). Vectorized kernels are tested against it,
 * and expressions without a kernel run through it ({@link ExecutionMode#ROW}). Clarity over speed.
 */
public final class Evaluator {
    private Evaluator() {
    }

    /**
     * The value of {@code expression} for one input row ({@code row[i]} is column {@code i}).
     *
     * @throws ColumbaException for SQL errors: division by zero, overflow, a bad cast, ...
     */
    public static Object evaluate(Expr expression, Object[] row, EvaluationContext context) {
        return switch (expression) {
            case Expr.ColumnReference column -> row[column.index()];
            case Expr.Literal literal -> literal.value();
            case Expr.CurrentDate ignored -> context.statementTime().toLocalDate();
            case Expr.CurrentTimestamp ignored -> context.statementTime();
            case Expr.And and -> {
                boolean sawNull = false;
                for (Expr operand : and.operands()) {
                    Boolean value = (Boolean) evaluate(operand, row, context);
                    if (value == null) {
                        sawNull = true;
                    } else if (!value) {
                        yield false;
                    }
                }
                yield sawNull ? null : true;
            }
            case Expr.Or or -> {
                boolean sawNull = false;
                for (Expr operand : or.operands()) {
                    Boolean value = (Boolean) evaluate(operand, row, context);
                    if (value == null) {
                        sawNull = true;
                    } else if (value) {
                        yield true;
                    }
                }
                yield sawNull ? null : false;
            }
            case Expr.Case caseExpression -> {
                for (Expr.Case.When when : caseExpression.whens()) {
                    if (Boolean.TRUE.equals(evaluate(when.condition(), row, context))) {
                        yield convert(evaluate(when.result(), row, context), when.result().type(), caseExpression.type());
                    }
                }
                Expr otherwise = caseExpression.otherwise();
                yield convert(evaluate(otherwise, row, context), otherwise.type(), caseExpression.type());
            }
            case Expr.Coalesce coalesce -> {
                for (Expr operand : coalesce.operands()) {
                    Object value = evaluate(operand, row, context);
                    if (value != null) {
                        yield convert(value, operand.type(), coalesce.type());
                    }
                }
                yield null;
            }
            case Expr.Comparison comparison -> apply(comparison, evaluateChildren(comparison, row, context), context);
            case Expr.Not not -> apply(not, evaluateChildren(not, row, context), context);
            case Expr.Is is -> apply(is, evaluateChildren(is, row, context), context);
            case Expr.Arithmetic arithmetic -> apply(arithmetic, evaluateChildren(arithmetic, row, context), context);
            case Expr.Negate negate -> apply(negate, evaluateChildren(negate, row, context), context);
            case Expr.Cast cast -> apply(cast, evaluateChildren(cast, row, context), context);
            case Expr.Like like -> apply(like, evaluateChildren(like, row, context), context);
            case Expr.InList inList -> apply(inList, evaluateChildren(inList, row, context), context);
            case Expr.Between between -> apply(between, evaluateChildren(between, row, context), context);
            case Expr.Call call -> apply(call, evaluateChildren(call, row, context), context);
            case Expr.Extract extract -> apply(extract, evaluateChildren(extract, row, context), context);
            case Expr.DateAdd dateAdd -> apply(dateAdd, evaluateChildren(dateAdd, row, context), context);
        };
    }

    private static Object[] evaluateChildren(Expr expression, Object[] row, EvaluationContext context) {
        List<Expr> children = expression.children();
        Object[] values = new Object[children.size()];
        for (int child = 0; child < values.length; child++) {
            values[child] = evaluate(children.get(child), row, context);
        }
        return values;
    }

    /**
     * The value of a node that evaluates all its children first, given their values in
     * {@link Expr#children()} order. Lazy nodes (AND, OR, CASE, COALESCE) and leaves are not
     * applied this way.
     */
    static Object apply(Expr expression, Object[] arguments, EvaluationContext context) {
        return switch (expression) {
            case Expr.Comparison comparison -> compare(comparison.operator(), arguments[0], arguments[1]);
            case Expr.Not ignored -> arguments[0] == null ? null : !(Boolean) arguments[0];
            case Expr.Is is -> is.condition() == IsCondition.NULL || is.condition() == IsCondition.NOT_NULL
                    ? is.condition().test(arguments[0] == null ? null : Boolean.TRUE)
                    : is.condition().test((Boolean) arguments[0]);
            case Expr.Arithmetic arithmetic -> arithmetic(arithmetic, arguments[0], arguments[1]);
            case Expr.Negate negate -> negate(arguments[0], negate.type());
            case Expr.Cast cast -> Casts.cast(arguments[0], cast.operand().type(), cast.type());
            case Expr.Like like -> {
                if (anyNull(arguments)) {
                    yield null;
                }
                boolean matches = BuiltinFunctions.like((String) arguments[0], (String) arguments[1],
                        arguments.length > 2 ? (String) arguments[2] : null);
                yield matches != like.negated();
            }
            case Expr.InList inList -> {
                Boolean found = inList(arguments);
                yield found == null ? null : found != inList.negated();
            }
            case Expr.Between between -> {
                Boolean aboveLow = compare(ComparisonOperator.GREATER_THAN_OR_EQUAL, arguments[0], arguments[1]);
                Boolean belowHigh = compare(ComparisonOperator.LESS_THAN_OR_EQUAL, arguments[0], arguments[2]);
                Boolean within = and(aboveLow, belowHigh);
                yield within == null ? null : within != between.negated();
            }
            case Expr.Call call -> {
                if (anyNull(arguments)) {
                    yield null;
                }
                List<SqlType> types = new ArrayList<>();
                for (Expr argument : call.arguments()) {
                    types.add(argument.type());
                }
                yield BuiltinFunctions.call(call.function(), types, arguments, call.type());
            }
            case Expr.Extract extract -> arguments[0] == null ? null : BuiltinFunctions.extract(extract.field(), arguments[0]);
            case Expr.DateAdd dateAdd -> anyNull(arguments)
                    ? null
                    : BuiltinFunctions.dateAdd(arguments[0], ((Number) arguments[1]).longValue(), dateAdd.unit());
            case Expr.ColumnReference ignored -> throw notApplicable(expression);
            case Expr.Literal ignored -> throw notApplicable(expression);
            case Expr.CurrentDate ignored -> throw notApplicable(expression);
            case Expr.CurrentTimestamp ignored -> throw notApplicable(expression);
            case Expr.And ignored -> throw notApplicable(expression);
            case Expr.Or ignored -> throw notApplicable(expression);
            case Expr.Case ignored -> throw notApplicable(expression);
            case Expr.Coalesce ignored -> throw notApplicable(expression);
        };
    }

    private static IllegalArgumentException notApplicable(Expr expression) {
        return new IllegalArgumentException("not evaluated from argument values: " + expression);
    }

    /** CAST of a Java value, with the errors of {@link Expr.Cast}. */
    public static Object cast(Object value, SqlType from, SqlType to) {
        return Casts.cast(value, from, to);
    }

    /** Converts a branch of CASE or COALESCE to the expression's type. */
    private static Object convert(Object value, SqlType from, SqlType to) {
        return Casts.cast(value, from, to);
    }

    private static boolean anyNull(Object[] values) {
        for (Object value : values) {
            if (value == null) {
                return true;
            }
        }
        return false;
    }

    static Boolean compare(ComparisonOperator operator, Object left, Object right) {
        if (left == null || right == null) {
            return switch (operator) {
                case IS_DISTINCT_FROM -> left != right;
                case IS_NOT_DISTINCT_FROM -> left == right;
                default -> null;
            };
        }
        return operator.test(Comparisons.compare(left, right));
    }

    private static Boolean and(Boolean left, Boolean right) {
        if (Boolean.FALSE.equals(left) || Boolean.FALSE.equals(right)) {
            return false;
        }
        return left == null || right == null ? null : true;
    }

    private static Boolean inList(Object[] arguments) {
        if (arguments[0] == null) {
            return null;
        }
        boolean sawNull = false;
        for (int element = 1; element < arguments.length; element++) {
            if (arguments[element] == null) {
                sawNull = true;
            } else if (Comparisons.compare(arguments[0], arguments[element]) == 0) {
                return true;
            }
        }
        return sawNull ? null : false;
    }

    private static Object arithmetic(Expr.Arithmetic node, Object left, Object right) {
        if (left == null || right == null) {
            return null;
        }
        ArithmeticOperator operator = node.operator();
        SqlType type = node.type();
        return switch (type) {
            case SqlType.IntegerType ignored -> (int) integerArithmetic(operator, (Number) left, (Number) right, type);
            case SqlType.BigintType ignored -> integerArithmetic(operator, (Number) left, (Number) right, type);
            case SqlType.DoubleType ignored -> {
                double a = ((Number) left).doubleValue();
                double b = ((Number) right).doubleValue();
                yield doubleArithmetic(operator, a, b);
            }
            case SqlType.DecimalType decimal -> decimalArithmetic(operator, toDecimal(left), toDecimal(right), decimal);
            default -> throw new IllegalStateException("arithmetic typed " + type.sqlName());
        };
    }

    private static long integerArithmetic(ArithmeticOperator operator, Number leftNumber, Number rightNumber, SqlType type) {
        long left = leftNumber.longValue();
        long right = rightNumber.longValue();
        long result;
        try {
            result = switch (operator) {
                case ADD -> Math.addExact(left, right);
                case SUBTRACT -> Math.subtractExact(left, right);
                case MULTIPLY -> Math.multiplyExact(left, right);
                case DIVIDE -> {
                    if (right == 0) {
                        throw divisionByZero(left, operator, right);
                    }
                    yield Math.divideExact(left, right);
                }
                case MODULO -> {
                    if (right == 0) {
                        throw divisionByZero(left, operator, right);
                    }
                    yield left % right;
                }
            };
        } catch (ArithmeticException e) {
            throw overflow(left, operator, right, type);
        }
        if (type instanceof SqlType.IntegerType && (result < Integer.MIN_VALUE || result > Integer.MAX_VALUE)) {
            throw overflow(left, operator, right, type);
        }
        return result;
    }

    static double doubleArithmetic(ArithmeticOperator operator, double left, double right) {
        double result = switch (operator) {
            case ADD -> left + right;
            case SUBTRACT -> left - right;
            case MULTIPLY -> left * right;
            case DIVIDE -> {
                if (right == 0) {
                    throw divisionByZero(left, operator, right);
                }
                yield left / right;
            }
            case MODULO -> {
                if (right == 0) {
                    throw divisionByZero(left, operator, right);
                }
                yield left % right;
            }
        };
        if (Double.isInfinite(result) && Double.isFinite(left) && Double.isFinite(right)) {
            throw overflow(left, operator, right, SqlType.DOUBLE);
        }
        return result;
    }

    private static BigDecimal decimalArithmetic(ArithmeticOperator operator, BigDecimal left, BigDecimal right,
                                                SqlType.DecimalType type) {
        BigDecimal exact = switch (operator) {
            case ADD -> left.add(right);
            case SUBTRACT -> left.subtract(right);
            case MULTIPLY -> left.multiply(right);
            case DIVIDE -> {
                if (right.signum() == 0) {
                    throw divisionByZero(left.toPlainString(), operator, right.toPlainString());
                }
                yield left.divide(right, type.scale(), RoundingMode.HALF_UP);
            }
            case MODULO -> {
                if (right.signum() == 0) {
                    throw divisionByZero(left.toPlainString(), operator, right.toPlainString());
                }
                yield left.remainder(right);
            }
        };
        BigDecimal scaled = exact.setScale(type.scale(), RoundingMode.HALF_UP);
        if (scaled.signum() != 0 && scaled.precision() > type.precision()) {
            throw overflow(left.toPlainString(), operator, right.toPlainString(), type);
        }
        return scaled;
    }

    private static BigDecimal toDecimal(Object value) {
        return value instanceof BigDecimal decimal ? decimal : BigDecimal.valueOf(((Number) value).longValue());
    }

    private static Object negate(Object value, SqlType type) {
        return switch (value) {
            case null -> null;
            case Integer number -> {
                if (number == Integer.MIN_VALUE) {
                    throw Casts.outOfRange("-(" + number + ")", type);
                }
                yield -number;
            }
            case Long number -> {
                if (number == Long.MIN_VALUE) {
                    throw Casts.outOfRange("-(" + number + ")", type);
                }
                yield -number;
            }
            case Double number -> -number;
            case BigDecimal number -> number.negate();
            default -> throw new IllegalArgumentException("cannot negate " + value);
        };
    }

    static ColumbaException divisionByZero(Object left, ArithmeticOperator operator, Object right) {
        return new ColumbaException(ErrorCode.DIVISION_BY_ZERO, "division by zero: " + left + " " + operator.symbol() + " " + right);
    }

    static ColumbaException overflow(Object left, ArithmeticOperator operator, Object right, SqlType type) {
        return new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE,
                "result of " + left + " " + operator.symbol() + " " + right + " is out of range for " + type.sqlName());
    }
}
