package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.ComparisonOperator;
import dev.columba.core.expr.DateTimeField;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.IntervalUnit;
import dev.columba.core.expr.IsCondition;
import dev.columba.core.expr.ScalarFunction;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.schema.SqlTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;

/**
 * Translates Calcite's row expressions ({@link RexNode}) over one input into core's {@link Expr}s
 * over that input's columns. Column references take the input operator's column types (not
 * Calcite's), so the compiled expression and its input always agree. {@code SEARCH} (Calcite's
 * ranges and IN lists) is expanded first. Dynamic parameters become literals: the execution's
 * values, or typed NULLs while planning (for validation and EXPLAIN).
 *
 * <p>Anything core cannot evaluate is {@link ErrorCode#FEATURE_NOT_SUPPORTED} naming the
 * construct, raised while planning: a statement either runs with SQL's meaning or fails to plan.
 */
public final class ExpressionTranslator {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final TableSchema input;
    private final RexBuilder rexBuilder;
    private final List<Object> parameters;

    /**
     * @param input      the columns the expressions read
     * @param parameters the statement's parameter values, or null while planning
     */
    public ExpressionTranslator(TableSchema input, RexBuilder rexBuilder, List<Object> parameters) {
        this.input = input;
        this.rexBuilder = rexBuilder;
        this.parameters = parameters;
    }

    /** The expression; a NULL-typed literal gets {@code type}. */
    public Expr translate(RexNode node) {
        return switch (node) {
            case RexInputRef reference -> {
                if (reference.getIndex() >= input.size()) {
                    throw new ColumbaException(ErrorCode.INTERNAL, "column $" + reference.getIndex()
                            + " is outside the input's " + input.size() + " columns");
                }
                yield new Expr.ColumnReference(reference.getIndex(), input.column(reference.getIndex()).type());
            }
            case RexLiteral literal -> literal(literal);
            case RexDynamicParam parameter -> parameter(parameter);
            case RexCall call -> call(call);
            default -> throw unsupported("the expression " + node);
        };
    }

    /** Each expression of {@code nodes}. */
    public List<Expr> translateAll(List<? extends RexNode> nodes) {
        List<Expr> expressions = new ArrayList<>(nodes.size());
        for (RexNode node : nodes) {
            expressions.add(translate(node));
        }
        return expressions;
    }

    private Expr parameter(RexDynamicParam parameter) {
        SqlType type = SqlTypes.fromRelType(parameter.getType());
        if (parameters == null) {
            return Expr.Literal.nullOf(type);
        }
        int index = parameter.getIndex();
        if (index >= parameters.size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "parameter " + (index + 1) + " has no value; "
                    + parameters.size() + " were given");
        }
        return parameterLiteral(type, parameters.get(index), index);
    }

    /** A parameter's value as a literal of its type, converted as an assignment converts. */
    static Expr.Literal parameterLiteral(SqlType type, Object value, int index) {
        if (value == null) {
            return Expr.Literal.nullOf(type);
        }
        try {
            Object converted = ParameterValues.convert(value, type);
            return new Expr.Literal(converted, ParameterValues.fitting(type, converted));
        } catch (ColumbaException e) {
            throw new ColumbaException(e.errorCode(), "parameter " + (index + 1) + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
            // DateTimeException: text that is not a date ('1' for a DATE parameter was XX000, found by SQL fuzzing).
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "parameter " + (index + 1) + " (" + value + ", a "
                    + value.getClass().getSimpleName() + ") is not a value of type " + type.sqlName() + ": " + e.getMessage(), e);
        }
    }

    // ---- literals -------------------------------------------------------------------------------

    static Expr.Literal literal(RexLiteral literal) {
        RelDataType relType = literal.getType();
        if (relType.getSqlTypeName() == SqlTypeName.SYMBOL || SqlTypeName.INTERVAL_TYPES.contains(relType.getSqlTypeName())) {
            throw unsupported("the literal " + literal + " outside date arithmetic");
        }
        SqlType type = SqlTypes.fromRelType(relType);
        Object value = literalValue(literal, type);
        if (value instanceof String text && type instanceof SqlType.CharType character) {
            type = SqlType.character(literalLength(text, character.length()));
        }
        return value == null ? Expr.Literal.nullOf(type) : new Expr.Literal(value, type);
    }

    /**
     * The length in characters of a CHAR literal Calcite typed CHAR({@code precision}). Calcite
     * counts UTF-16 units ({@code 'a😀b'} is its CHAR(4)), Columba counts characters (code points,
     * CHAR(3)): taken as it is, the type would pad the literal with a space for each character
     * outside the Basic Multilingual Plane.
     */
    private static int literalLength(String text, int precision) {
        int surrogatePairs = text.length() - text.codePointCount(0, text.length());
        return text.length() == precision && surrogatePairs > 0 ? Math.max(1, precision - surrogatePairs) : precision;
    }

    /** The Java value of a literal as a value of {@code type} (see {@link SqlType}), or null. */
    public static Object literalValue(RexLiteral literal, SqlType type) {
        if (literal.isNull()) {
            return null;
        }
        return switch (type) {
            case SqlType.BooleanType ignored -> literal.getValueAs(Boolean.class);
            case SqlType.IntegerType ignored -> literal.getValueAs(BigDecimal.class).intValueExact();
            case SqlType.BigintType ignored -> literal.getValueAs(BigDecimal.class).longValueExact();
            case SqlType.DoubleType ignored -> literal.getValueAs(Double.class);
            case SqlType.DecimalType decimal -> literal.getValueAs(BigDecimal.class).setScale(decimal.scale(),
                    java.math.RoundingMode.HALF_UP);
            case SqlType.VarcharType ignored -> string(literal);
            case SqlType.CharType ignored -> string(literal);
            case SqlType.VarbinaryType ignored -> literal.getValueAs(ByteString.class).getBytes();
            case SqlType.BinaryType binary -> Arrays.copyOf(literal.getValueAs(ByteString.class).getBytes(), binary.length());
            case SqlType.UuidType ignored -> literal.getValueAs(UUID.class);
            case SqlType.DateType ignored -> LocalDate.parse(literal.getValueAs(DateString.class).toString());
            case SqlType.TimestampType ignored ->
                    LocalDateTime.parse(literal.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
        };
    }

    private static String string(RexLiteral literal) {
        Object value = literal.getValue();
        return value instanceof NlsString nls ? nls.getValue() : literal.getValueAs(String.class);
    }

    // ---- calls ----------------------------------------------------------------------------------

    private Expr call(RexCall call) {
        SqlKind kind = call.getKind();
        List<RexNode> operands = call.getOperands();
        return switch (kind) {
            case SEARCH -> translate(RexUtil.expandSearch(rexBuilder, null, call));
            case AND -> new Expr.And(translateAll(operands));
            case OR -> disjunction(call);
            case NOT -> new Expr.Not(translate(operands.getFirst()));
            case EQUALS -> comparison(ComparisonOperator.EQUAL, operands);
            case NOT_EQUALS -> comparison(ComparisonOperator.NOT_EQUAL, operands);
            case LESS_THAN -> comparison(ComparisonOperator.LESS_THAN, operands);
            case LESS_THAN_OR_EQUAL -> comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, operands);
            case GREATER_THAN -> comparison(ComparisonOperator.GREATER_THAN, operands);
            case GREATER_THAN_OR_EQUAL -> comparison(ComparisonOperator.GREATER_THAN_OR_EQUAL, operands);
            case IS_DISTINCT_FROM -> comparison(ComparisonOperator.IS_DISTINCT_FROM, operands);
            case IS_NOT_DISTINCT_FROM -> comparison(ComparisonOperator.IS_NOT_DISTINCT_FROM, operands);
            case IS_NULL -> new Expr.Is(translate(operands.getFirst()), IsCondition.NULL);
            case IS_NOT_NULL -> new Expr.Is(translate(operands.getFirst()), IsCondition.NOT_NULL);
            case IS_TRUE -> new Expr.Is(translate(operands.getFirst()), IsCondition.TRUE);
            case IS_NOT_TRUE -> new Expr.Is(translate(operands.getFirst()), IsCondition.NOT_TRUE);
            case IS_FALSE -> new Expr.Is(translate(operands.getFirst()), IsCondition.FALSE);
            case IS_NOT_FALSE -> new Expr.Is(translate(operands.getFirst()), IsCondition.NOT_FALSE);
            case PLUS -> isInterval(operands.get(1)) ? dateAdd(operands.get(0), operands.get(1), false)
                    : isInterval(operands.get(0)) ? dateAdd(operands.get(1), operands.get(0), false)
                    : arithmetic(ArithmeticOperator.ADD, call);
            case MINUS -> isInterval(operands.get(1)) && !isInterval(operands.get(0))
                    ? dateAdd(operands.get(0), operands.get(1), true)
                    : arithmetic(ArithmeticOperator.SUBTRACT, call);
            case TIMES -> arithmetic(ArithmeticOperator.MULTIPLY, call);
            case DIVIDE -> arithmetic(ArithmeticOperator.DIVIDE, call);
            case MOD -> arithmetic(ArithmeticOperator.MODULO, call);
            case MINUS_PREFIX -> new Expr.Negate(translate(operands.getFirst()));
            case PLUS_PREFIX -> translate(operands.getFirst());
            case CASE -> caseExpression(call);
            case COALESCE -> coalesce(call);
            case CAST -> cast(call);
            case LIKE -> like(call, false);
            case EXTRACT -> extract(call);
            case TRIM -> trim(call);
            case POSITION -> {
                if (operands.size() != 2) {
                    throw unsupported("POSITION with a start position");
                }
                yield new Expr.Call(ScalarFunction.POSITION, translateAll(operands));
            }
            case CEIL -> roundingToUnit(call, ScalarFunction.CEIL);
            case FLOOR -> roundingToUnit(call, ScalarFunction.FLOOR);
            case OTHER_FUNCTION, OTHER, TIMESTAMP_ADD -> namedFunction(call);
            default -> namedFunction(call);
        };
    }

    /**
     * OR; {@code x = 'a' OR x = 'b' ...} over one string expression and string literals (what an IN
     * list and Calcite's SEARCH of points expand to) is an IN list, so that {@code x} is evaluated
     * once per row instead of once per constant (TPC-H Q22's {@code SUBSTRING(c_phone, 1, 2)}
     * against seven country codes). Both have the same three-valued result.
     */
    private Expr disjunction(RexCall call) {
        List<RexNode> constants = new ArrayList<>();
        RexNode value = comparedWithConstants(call.getOperands(), constants);
        if (value != null && constants.size() > 1 && SqlTypeUtil.inCharFamily(value.getType())
                && constants.stream().allMatch(constant -> SqlTypeUtil.inCharFamily(constant.getType()))) {
            return new Expr.InList(translate(value), translateAll(constants), false);
        }
        return new Expr.Or(translateAll(call.getOperands()));
    }

    /**
     * The one expression that every operand compares equal with a literal, the literals added to
     * {@code constants}; null if the operands are anything else.
     */
    private static RexNode comparedWithConstants(List<RexNode> operands, List<RexNode> constants) {
        RexNode value = null;
        for (RexNode operand : operands) {
            if (!(operand instanceof RexCall equality) || equality.getKind() != SqlKind.EQUALS) {
                return null;
            }
            RexNode left = equality.getOperands().get(0);
            RexNode right = equality.getOperands().get(1);
            boolean literalRight = right instanceof RexLiteral && !(left instanceof RexLiteral);
            boolean literalLeft = left instanceof RexLiteral && !(right instanceof RexLiteral);
            if (!literalRight && !literalLeft) {
                return null;
            }
            RexNode compared = literalRight ? left : right;
            if (value != null && !value.equals(compared)) {
                return null;
            }
            value = compared;
            constants.add(literalRight ? right : left);
        }
        return value;
    }

    private Expr comparison(ComparisonOperator operator, List<RexNode> operands) {
        Expr left = translate(operands.get(0));
        Expr right = translate(operands.get(1));
        return new Expr.Comparison(operator, typedNull(left, right.type()), typedNull(right, left.type()));
    }

    private Expr arithmetic(ArithmeticOperator operator, RexCall call) {
        SqlType type = SqlTypes.fromRelType(call.getType());
        Expr left = typedNull(translate(call.getOperands().get(0)), type);
        Expr right = typedNull(translate(call.getOperands().get(1)), type);
        if (!TypeRules.isNumeric(type)) {
            throw unsupported("arithmetic producing " + call.getType().getFullTypeString() + ": " + call);
        }
        return new Expr.Arithmetic(operator, left, right, type);
    }

    private Expr caseExpression(RexCall call) {
        SqlType type = SqlTypes.fromRelType(call.getType());
        List<RexNode> operands = call.getOperands();
        List<Expr.Case.When> whens = new ArrayList<>();
        for (int index = 0; index + 1 < operands.size(); index += 2) {
            whens.add(new Expr.Case.When(translate(operands.get(index)), typedNull(translate(operands.get(index + 1)), type)));
        }
        Expr otherwise = typedNull(translate(operands.getLast()), type);
        return new Expr.Case(whens, otherwise, type);
    }

    private Expr coalesce(RexCall call) {
        SqlType type = SqlTypes.fromRelType(call.getType());
        List<Expr> operands = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            operands.add(typedNull(translate(operand), type));
        }
        return new Expr.Coalesce(operands, type);
    }

    private Expr cast(RexCall call) {
        SqlType type = SqlTypes.fromRelType(call.getType());
        RexNode operand = call.getOperands().getFirst();
        if (operand instanceof RexLiteral literal && literal.isNull()) {
            return Expr.Literal.nullOf(type);
        }
        if (isInterval(operand)) {
            throw unsupported("CAST of an interval");
        }
        Expr translated = translate(operand);
        if (translated.type().equals(type)) {
            return translated;
        }
        return new Expr.Cast(translated, type);
    }

    private Expr like(RexCall call, boolean negated) {
        List<RexNode> operands = call.getOperands();
        Expr value = translate(operands.get(0));
        Expr pattern = translate(operands.get(1));
        Expr escape = operands.size() > 2 ? translate(operands.get(2)) : null;
        if (call.getOperator().getName().toUpperCase(Locale.ROOT).contains("ILIKE")) {
            throw unsupported("ILIKE");
        }
        return new Expr.Like(value, pattern, escape, negated);
    }

    private Expr extract(RexCall call) {
        RexLiteral unit = (RexLiteral) call.getOperands().get(0);
        TimeUnitRange range = unit.getValueAs(TimeUnitRange.class);
        DateTimeField field = switch (range) {
            case YEAR -> DateTimeField.YEAR;
            case QUARTER -> DateTimeField.QUARTER;
            case MONTH -> DateTimeField.MONTH;
            case DAY -> DateTimeField.DAY;
            case DOW -> DateTimeField.DOW;
            case DOY -> DateTimeField.DOY;
            case HOUR -> DateTimeField.HOUR;
            case MINUTE -> DateTimeField.MINUTE;
            case SECOND -> DateTimeField.SECOND;
            default -> throw unsupported("EXTRACT(" + range + " FROM ...)");
        };
        RexNode operand = call.getOperands().get(1);
        if (isInterval(operand)) {
            throw unsupported("EXTRACT from an interval");
        }
        Expr extracted = new Expr.Extract(field, translate(operand));
        SqlType type = SqlTypes.fromRelType(call.getType());
        return type.equals(SqlType.BIGINT) ? extracted : new Expr.Cast(extracted, type);
    }

    private Expr trim(RexCall call) {
        List<RexNode> operands = call.getOperands();
        SqlTrimFunction.Flag flag = ((RexLiteral) operands.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        ScalarFunction function = switch (flag) {
            case BOTH -> ScalarFunction.TRIM;
            case LEADING -> ScalarFunction.LTRIM;
            case TRAILING -> ScalarFunction.RTRIM;
        };
        Expr characters = translate(operands.get(1));
        Expr string = translate(operands.get(2));
        return new Expr.Call(function, List.of(string, characters));
    }

    private Expr roundingToUnit(RexCall call, ScalarFunction function) {
        if (call.getOperands().size() != 1) {
            throw unsupported(function + " to a date-time unit");
        }
        return numericCall(function, call);
    }

    private Expr numericCall(ScalarFunction function, RexCall call) {
        Expr result = new Expr.Call(function, translateAll(call.getOperands()));
        SqlType type = SqlTypes.fromRelType(call.getType());
        return result.type().equals(type) || !TypeRules.isNumeric(type) ? result : new Expr.Cast(result, type);
    }

    private Expr namedFunction(RexCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<RexNode> operands = call.getOperands();
        return switch (name) {
            // OCTET_LENGTH is Calcite's length of a binary string, whose CHAR_LENGTH counts bytes.
            case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH", "LEN", "OCTET_LENGTH" ->
                    new Expr.Call(ScalarFunction.CHAR_LENGTH, translateAll(operands));
            case "UPPER" -> new Expr.Call(ScalarFunction.UPPER, translateAll(operands));
            case "LOWER" -> new Expr.Call(ScalarFunction.LOWER, translateAll(operands));
            case "SUBSTRING", "SUBSTR" -> new Expr.Call(ScalarFunction.SUBSTRING, translateAll(operands));
            case "LTRIM" -> new Expr.Call(ScalarFunction.LTRIM, translateAll(operands));
            case "RTRIM" -> new Expr.Call(ScalarFunction.RTRIM, translateAll(operands));
            case "BTRIM" -> new Expr.Call(ScalarFunction.TRIM, translateAll(operands));
            case "REPLACE" -> new Expr.Call(ScalarFunction.REPLACE, translateAll(operands));
            case "REPEAT" -> new Expr.Call(ScalarFunction.REPEAT, translateAll(operands));
            case "||" -> new Expr.Call(ScalarFunction.CONCAT, translateAll(operands));
            case "ABS" -> numericCall(ScalarFunction.ABS, call);
            case "ROUND" -> numericCall(ScalarFunction.ROUND, call);
            case "POWER" -> new Expr.Call(ScalarFunction.POWER, translateAll(operands));
            case "SQRT" -> new Expr.Call(ScalarFunction.SQRT, translateAll(operands));
            case "MOD" -> arithmetic(ArithmeticOperator.MODULO, call);
            case "CURRENT_DATE" -> new Expr.CurrentDate();
            case "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NOW" -> new Expr.CurrentTimestamp();
            case "TIMESTAMPADD" -> timestampAdd(call);
            case "DATEDIFF" -> new Expr.Call(ScalarFunction.DATEDIFF, translateAll(operands));
            default -> throw unsupported("the function or operator " + call.getOperator().getName()
                    + " (" + call + ")");
        };
    }

    private Expr timestampAdd(RexCall call) {
        TimeUnitRange range = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        IntervalUnit unit = switch (range) {
            case YEAR -> IntervalUnit.YEAR;
            case QUARTER -> IntervalUnit.QUARTER;
            case MONTH -> IntervalUnit.MONTH;
            case WEEK -> IntervalUnit.WEEK;
            case DAY -> IntervalUnit.DAY;
            case HOUR -> IntervalUnit.HOUR;
            case MINUTE -> IntervalUnit.MINUTE;
            case SECOND -> IntervalUnit.SECOND;
            case MILLISECOND -> IntervalUnit.MILLISECOND;
            case MICROSECOND -> IntervalUnit.MICROSECOND;
            default -> throw unsupported("TIMESTAMPADD by " + range);
        };
        return new Expr.DateAdd(translate(call.getOperands().get(2)), translate(call.getOperands().get(1)), unit);
    }

    // ---- date arithmetic ------------------------------------------------------------------------

    private static boolean isInterval(RexNode node) {
        return node.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME
                || node.getType().getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH
                || SqlTypeName.INTERVAL_TYPES.contains(node.getType().getSqlTypeName());
    }

    /** {@code datetime ± interval}: the interval is a literal, or a literal times an integer expression. */
    private Expr dateAdd(RexNode datetime, RexNode interval, boolean subtract) {
        Expr operand = translate(datetime);
        Amount amount = intervalAmount(interval);
        Expr count = amount.count();
        if (subtract) {
            count = new Expr.Negate(count);
        }
        return new Expr.DateAdd(operand, count, amount.unit());
    }

    private record Amount(Expr count, IntervalUnit unit) {
    }

    private Amount intervalAmount(RexNode interval) {
        if (interval instanceof RexLiteral literal) {
            if (literal.isNull()) {
                return new Amount(Expr.Literal.nullOf(SqlType.BIGINT), IntervalUnit.DAY);
            }
            BigDecimal value = literal.getValueAs(BigDecimal.class);
            return literalAmount(value, yearMonth(literal.getType()));
        }
        if (interval instanceof RexCall call && call.getKind() == SqlKind.TIMES) {
            RexNode first = call.getOperands().get(0);
            RexNode second = call.getOperands().get(1);
            RexLiteral literal = first instanceof RexLiteral l && isInterval(l) ? l
                    : second instanceof RexLiteral l2 && isInterval(l2) ? l2 : null;
            RexNode factor = literal == first ? second : first;
            if (literal != null && !literal.isNull()) {
                Amount unitAmount = literalAmount(literal.getValueAs(BigDecimal.class), yearMonth(literal.getType()));
                Expr times = translate(factor);
                if (!TypeRules.isInteger(times.type())) {
                    throw unsupported("an interval multiplied by a " + times.type().sqlName());
                }
                Expr widened = times.type().equals(SqlType.BIGINT) ? times : new Expr.Cast(times, SqlType.BIGINT);
                return new Amount(new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, widened, unitAmount.count(), SqlType.BIGINT),
                        unitAmount.unit());
            }
        }
        throw unsupported("date arithmetic with the interval " + interval);
    }

    private static boolean yearMonth(RelDataType type) {
        return type.getSqlTypeName().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH;
    }

    /** Calcite keeps year-month intervals in months and day-time intervals in milliseconds. */
    private static Amount literalAmount(BigDecimal value, boolean yearMonth) {
        long amount = value.longValueExact();
        if (yearMonth) {
            return new Amount(new Expr.Literal(amount, SqlType.BIGINT), IntervalUnit.MONTH);
        }
        IntervalUnit unit;
        long count;
        if (amount % MILLIS_PER_DAY == 0) {
            unit = IntervalUnit.DAY;
            count = amount / MILLIS_PER_DAY;
        } else if (amount % 3_600_000L == 0) {
            unit = IntervalUnit.HOUR;
            count = amount / 3_600_000L;
        } else if (amount % 60_000L == 0) {
            unit = IntervalUnit.MINUTE;
            count = amount / 60_000L;
        } else if (amount % 1000L == 0) {
            unit = IntervalUnit.SECOND;
            count = amount / 1000L;
        } else {
            unit = IntervalUnit.MILLISECOND;
            count = amount;
        }
        return new Amount(new Expr.Literal(count, SqlType.BIGINT), unit);
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** A NULL literal takes the type its context needs (Calcite types a bare NULL as NULL). */
    private static Expr typedNull(Expr expression, SqlType type) {
        if (expression instanceof Expr.Literal literal && literal.value() == null
                && TypeRules.family(literal.type()) != TypeRules.family(type)) {
            return Expr.Literal.nullOf(type);
        }
        return expression;
    }

    static ColumbaException unsupported(String what) {
        return new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "Columba cannot evaluate " + what + " yet");
    }
}
