package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Compiles an {@link Expr} once per query into a tree of kernels ({@link CompiledExpression}).
 *
 * <p>Along the way it converts operands to the types kernels expect (the common type of a
 * comparison, the result type of arithmetic, CASE and COALESCE), folds constant subtrees into
 * literals (a subtree whose evaluation fails is left to fail at run time, and only for the rows
 * that reach it), and picks for each node a vectorized kernel or, where there is none, the
 * row-at-a-time fallback. What runs row by row:
 * <ul>
 *   <li>CAST to or from a string of another type (formatting and parsing), DOUBLE to DECIMAL;</li>
 *   <li>LIKE whose pattern or escape is not a constant;</li>
 *   <li>REPLACE, REPEAT, POSITION, two-argument ROUND, TRIM of characters that are not a constant
 *       ASCII set.</li>
 * </ul>
 * {@link #mode(Expr)} tells, before running anything, which of the two an expression gets.
 */
public final class ExpressionCompiler {
    private static final Object[] NO_COLUMNS = new Object[0];
    /** Constant folding never sees CURRENT_DATE/CURRENT_TIMESTAMP, so any time serves for analysis. */
    private static final EvaluationContext ANALYSIS = new EvaluationContext(LocalDateTime.of(1970, 1, 1, 0, 0));

    private final TableSchema input;
    private final EvaluationContext context;
    private final BufferAllocator allocator;
    private final boolean rowOnly;

    private ExpressionCompiler(TableSchema input, EvaluationContext context, BufferAllocator allocator, boolean rowOnly) {
        this.input = input;
        this.context = context;
        this.allocator = allocator;
        this.rowOnly = rowOnly;
    }

    /**
     * Compiles {@code expression} over rows of {@code input}. Kernel output vectors come from
     * {@code allocator} when first evaluated; closing the result releases them.
     *
     * @throws ColumbaException {@link ErrorCode#INTERNAL} when a column reference does not match {@code input}
     */
    public static CompiledExpression compile(Expr expression, TableSchema input, EvaluationContext context,
                                             BufferAllocator allocator) {
        return new CompiledExpression(new ExpressionCompiler(input, context, allocator, false).build(expression));
    }

    /** Compiles with every node that can run row by row running row by row: for testing the fallback. */
    static CompiledExpression compileRowByRow(Expr expression, TableSchema input, EvaluationContext context,
                                              BufferAllocator allocator) {
        return new CompiledExpression(new ExpressionCompiler(input, context, allocator, true).build(expression));
    }

    /** How {@link #compile} will run {@code expression}: BATCH, or ROW if any node falls back. */
    public static ExecutionMode mode(Expr expression) {
        try (Kernel kernel = new ExpressionCompiler(null, ANALYSIS, null, false).build(expression)) {
            return kernel.mode();
        }
    }

    private Kernel build(Expr expression) {
        if (!(expression instanceof Expr.Literal) && isConstant(expression)) {
            try {
                return literal(Evaluator.evaluate(expression, NO_COLUMNS, context), expression.type());
            } catch (ColumbaException e) {
                // Not folded: evaluated per row, it fails only if a row reaches it.
            }
        }
        return switch (expression) {
            case Expr.ColumnReference column -> column(column);
            case Expr.Literal literal -> literal(literal.value(), literal.type());
            case Expr.CurrentDate ignored -> literal(context.statementTime().toLocalDate(), SqlType.DATE);
            case Expr.CurrentTimestamp ignored -> literal(context.statementTime(), SqlType.TIMESTAMP);
            case Expr.Comparison comparison -> rowOnly
                    ? row(comparison)
                    : comparison(comparison.operator(), comparison.left(), build(comparison.left()),
                            comparison.right(), build(comparison.right()));
            case Expr.Not not -> rowOnly ? row(not) : new LogicKernels.NotKernel(build(not.operand()), allocator);
            case Expr.And and -> new LogicKernels.JunctionKernel(true, buildAll(and.operands()), allocator);
            case Expr.Or or -> new LogicKernels.JunctionKernel(false, buildAll(or.operands()), allocator);
            case Expr.Is is -> rowOnly ? row(is) : new LogicKernels.IsKernel(build(is.operand()), is.condition(), allocator);
            case Expr.Arithmetic arithmetic -> rowOnly ? row(arithmetic) : arithmetic(arithmetic);
            case Expr.Negate negate -> rowOnly ? row(negate) : new NumericKernels.SignKernel(NumericKernels.SignKernel.Sign.NEGATE, build(negate.operand()), allocator);
            case Expr.Case caseExpression -> caseKernel(caseExpression);
            case Expr.Cast cast -> rowOnly ? row(cast) : convert(cast.operand(), build(cast.operand()), cast.type());
            case Expr.Like like -> rowOnly ? row(like) : like(like);
            case Expr.InList inList -> rowOnly ? row(inList) : inList(inList);
            case Expr.Between between -> rowOnly ? row(between) : between(between);
            case Expr.Coalesce coalesce -> {
                List<Kernel> operands = new ArrayList<>();
                for (Expr operand : coalesce.operands()) {
                    operands.add(convert(operand, build(operand), coalesce.type()));
                }
                yield new ChoiceKernels.CoalesceKernel(operands, coalesce.type(), allocator);
            }
            case Expr.Call call -> rowOnly ? row(call) : call(call);
            case Expr.Extract extract -> rowOnly
                    ? row(extract)
                    : new DateTimeKernels.ExtractKernel(extract.field(), build(extract.operand()), allocator);
            case Expr.DateAdd dateAdd -> rowOnly
                    ? row(dateAdd)
                    : new DateTimeKernels.DateAddKernel(build(dateAdd.operand()),
                            convert(dateAdd.amount(), build(dateAdd.amount()), SqlType.BIGINT), dateAdd.unit(), allocator);
        };
    }

    private List<Kernel> buildAll(List<Expr> expressions) {
        List<Kernel> kernels = new ArrayList<>(expressions.size());
        for (Expr expression : expressions) {
            kernels.add(build(expression));
        }
        return kernels;
    }

    /** Whether {@code expression} reads no column and no clock, so it has one value for the whole query. */
    private static boolean isConstant(Expr expression) {
        if (expression instanceof Expr.ColumnReference || expression instanceof Expr.CurrentDate
                || expression instanceof Expr.CurrentTimestamp) {
            return false;
        }
        for (Expr child : expression.children()) {
            if (!isConstant(child)) {
                return false;
            }
        }
        return true;
    }

    private Kernel column(Expr.ColumnReference reference) {
        if (input != null) {
            if (reference.index() >= input.size()) {
                throw new ColumbaException(ErrorCode.INTERNAL, "column reference $" + reference.index()
                        + " is past the " + input.size() + " input columns");
            }
            Column column = input.column(reference.index());
            if (!column.type().arrowType().equals(reference.type().arrowType())) {
                throw new ColumbaException(ErrorCode.INTERNAL, "column reference $" + reference.index() + " typed "
                        + reference.type().sqlName() + " but input column " + column.name() + " is " + column.type().sqlName());
            }
        }
        return new LeafKernels.ColumnKernel(reference.index(), reference.type());
    }

    private Kernel literal(Object value, SqlType type) {
        return new LeafKernels.LiteralKernel(value, type, allocator);
    }

    private Kernel row(Expr expression) {
        return new RowKernel(expression, buildAll(expression.children()), context, allocator);
    }

    /** {@code kernel} (computing {@code expression}) converted to {@code type}: a cast kernel, a folded constant, or the row fallback. */
    private Kernel convert(Expr expression, Kernel kernel, SqlType type) {
        if (CastKernel.isIdentity(kernel.type, type)) {
            return kernel;
        }
        if (kernel instanceof LeafKernels.LiteralKernel literal) {
            try {
                Object converted = Casts.cast(literal.value(), literal.type, type);
                literal.close();
                return literal(converted, type);
            } catch (ColumbaException e) {
                // Left to fail at run time for the rows that reach it.
            }
        }
        Kernel cast = rowOnly ? null : CastKernel.create(kernel, type, allocator);
        if (cast != null) {
            return cast;
        }
        return new RowKernel(new Expr.Cast(typedAs(expression, kernel.type), type), List.of(kernel), context, allocator);
    }

    /** An expression of {@code type} standing for {@code expression}, for the row fallback of a cast, which only needs the type. */
    private static Expr typedAs(Expr expression, SqlType type) {
        return expression.type().equals(type) ? expression : Expr.Literal.nullOf(type);
    }

    private Kernel comparison(ComparisonOperator operator, Expr leftExpression, Kernel left, Expr rightExpression, Kernel right) {
        SqlType leftType = left.type;
        SqlType rightType = right.type;
        SqlType domain = null;
        switch (TypeRules.family(leftType)) {
            case NUMERIC -> {
                if (leftType instanceof SqlType.DoubleType || rightType instanceof SqlType.DoubleType) {
                    domain = SqlType.DOUBLE;
                } else if (TypeRules.isInteger(leftType) && TypeRules.isInteger(rightType)) {
                    domain = leftType.equals(rightType) ? null : SqlType.BIGINT;
                } else {
                    left = convert(leftExpression, left, TypeRules.asDecimal(leftType));
                    right = convert(rightExpression, right, TypeRules.asDecimal(rightType));
                }
            }
            case DATETIME -> domain = leftType.equals(rightType) ? null : SqlType.TIMESTAMP;
            case STRING, BOOLEAN -> domain = null;
        }
        if (domain != null) {
            left = convert(leftExpression, left, domain);
            right = convert(rightExpression, right, domain);
        }
        return new ComparisonKernel(operator, left, right, allocator);
    }

    private Kernel arithmetic(Expr.Arithmetic arithmetic) {
        Kernel left = build(arithmetic.left());
        Kernel right = build(arithmetic.right());
        SqlType type = arithmetic.type();
        return switch (type) {
            case SqlType.IntegerType ignored -> integerArithmetic(arithmetic, left, right);
            case SqlType.BigintType ignored -> integerArithmetic(arithmetic, left, right);
            case SqlType.DoubleType ignored -> new ArithmeticKernels.DoubleKernel(arithmetic.operator(),
                    convert(arithmetic.left(), left, SqlType.DOUBLE), convert(arithmetic.right(), right, SqlType.DOUBLE), allocator);
            case SqlType.DecimalType ignored -> new ArithmeticKernels.DecimalKernel(arithmetic,
                    convert(arithmetic.left(), left, TypeRules.asDecimal(left.type)),
                    convert(arithmetic.right(), right, TypeRules.asDecimal(right.type)), context, allocator);
            default -> throw new IllegalStateException("arithmetic typed " + type.sqlName());
        };
    }

    private Kernel integerArithmetic(Expr.Arithmetic arithmetic, Kernel left, Kernel right) {
        if (!(left.type instanceof SqlType.IntegerType && right.type instanceof SqlType.IntegerType)) {
            left = convert(arithmetic.left(), left, SqlType.BIGINT);
            right = convert(arithmetic.right(), right, SqlType.BIGINT);
        }
        return new ArithmeticKernels.IntegerKernel(arithmetic.operator(), left, right, arithmetic.type(), allocator);
    }

    private Kernel caseKernel(Expr.Case caseExpression) {
        List<Kernel> conditions = new ArrayList<>();
        List<Kernel> results = new ArrayList<>();
        for (Expr.Case.When when : caseExpression.whens()) {
            conditions.add(build(when.condition()));
            results.add(convert(when.result(), build(when.result()), caseExpression.type()));
        }
        Kernel otherwise = convert(caseExpression.otherwise(), build(caseExpression.otherwise()), caseExpression.type());
        return new ChoiceKernels.CaseKernel(conditions, results, otherwise, caseExpression.type(), allocator);
    }

    private Kernel like(Expr.Like like) {
        Kernel value = build(like.value());
        Kernel pattern = build(like.pattern());
        Kernel escape = like.escape() == null ? null : build(like.escape());
        if (pattern instanceof LeafKernels.LiteralKernel patternLiteral
                && (escape == null || escape instanceof LeafKernels.LiteralKernel)) {
            Object escapeValue = escape == null ? null : ((LeafKernels.LiteralKernel) escape).value();
            boolean nullPattern = patternLiteral.value() == null || (escape != null && escapeValue == null);
            pattern.close();
            if (escape != null) {
                escape.close();
            }
            return new StringKernels.LikeKernel(value, (String) patternLiteral.value(), (String) escapeValue,
                    nullPattern, like.negated(), allocator);
        }
        List<Kernel> operands = new ArrayList<>(List.of(value, pattern));
        if (escape != null) {
            operands.add(escape);
        }
        return new RowKernel(like, operands, context, allocator);
    }

    private Kernel inList(Expr.InList inList) {
        if (TypeRules.family(inList.value().type()) == TypeRules.Family.STRING
                && inList.list().stream().allMatch(element -> element instanceof Expr.Literal literal
                        && (literal.value() == null || literal.value() instanceof String))) {
            List<String> constants = new ArrayList<>();
            for (Expr element : inList.list()) {
                constants.add((String) ((Expr.Literal) element).value());
            }
            return new StringKernels.InConstantsKernel(build(inList.value()), constants, inList.negated(), allocator);
        }
        List<Expr> operandExpressions = new ArrayList<>();
        operandExpressions.add(inList.value());
        operandExpressions.addAll(inList.list());
        List<Kernel> operands = buildAll(operandExpressions);
        List<LeafKernels.HeldKernel> held = hold(operands);
        List<Kernel> equalities = new ArrayList<>();
        for (int element = 1; element < held.size(); element++) {
            equalities.add(comparison(ComparisonOperator.EQUAL, inList.value(), held.getFirst(),
                    inList.list().get(element - 1), held.get(element)));
        }
        Kernel logic = equalities.size() == 1 ? equalities.getFirst()
                : new LogicKernels.JunctionKernel(false, equalities, allocator);
        if (inList.negated()) {
            logic = new LogicKernels.NotKernel(logic, allocator);
        }
        return new HoldingKernel(operands, held, logic, allocator);
    }

    private Kernel between(Expr.Between between) {
        List<Kernel> operands = buildAll(List.of(between.value(), between.low(), between.high()));
        List<LeafKernels.HeldKernel> held = hold(operands);
        Kernel logic = new LogicKernels.JunctionKernel(true, List.of(
                comparison(ComparisonOperator.GREATER_THAN_OR_EQUAL, between.value(), held.get(0), between.low(), held.get(1)),
                comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, between.value(), held.get(0), between.high(), held.get(2))),
                allocator);
        if (between.negated()) {
            logic = new LogicKernels.NotKernel(logic, allocator);
        }
        return new HoldingKernel(operands, held, logic, allocator);
    }

    private static List<LeafKernels.HeldKernel> hold(List<Kernel> operands) {
        List<LeafKernels.HeldKernel> held = new ArrayList<>();
        for (Kernel operand : operands) {
            held.add(new LeafKernels.HeldKernel(operand.type));
        }
        return held;
    }

    private Kernel call(Expr.Call call) {
        List<Expr> arguments = call.arguments();
        return switch (call.function()) {
            case CHAR_LENGTH -> new StringKernels.CharLengthKernel(build(arguments.getFirst()), allocator);
            case UPPER -> new StringKernels.CaseMappingKernel(build(arguments.getFirst()), true, call.type(), allocator);
            case LOWER -> new StringKernels.CaseMappingKernel(build(arguments.getFirst()), false, call.type(), allocator);
            case SUBSTRING -> {
                List<Kernel> operands = new ArrayList<>();
                operands.add(build(arguments.getFirst()));
                for (Expr position : arguments.subList(1, arguments.size())) {
                    operands.add(convert(position, build(position), SqlType.BIGINT));
                }
                yield new StringKernels.SubstringKernel(operands, call.type(), allocator);
            }
            case TRIM -> trim(call, true, true);
            case LTRIM -> trim(call, true, false);
            case RTRIM -> trim(call, false, true);
            case CONCAT -> new StringKernels.ConcatKernel(buildAll(arguments), call.type(), allocator);
            case ABS -> new NumericKernels.SignKernel(NumericKernels.SignKernel.Sign.ABSOLUTE, build(arguments.getFirst()), allocator);
            case ROUND -> arguments.size() == 1 ? rounding(call) : row(call);
            case FLOOR, CEIL -> rounding(call);
            case POWER -> new NumericKernels.DoubleFunctionKernel(true, List.of(
                    convert(arguments.get(0), build(arguments.get(0)), SqlType.DOUBLE),
                    convert(arguments.get(1), build(arguments.get(1)), SqlType.DOUBLE)), allocator);
            case SQRT -> new NumericKernels.DoubleFunctionKernel(false, List.of(
                    convert(arguments.getFirst(), build(arguments.getFirst()), SqlType.DOUBLE)), allocator);
            case REPLACE, REPEAT, POSITION, DATEDIFF -> row(call);
        };
    }

    private Kernel rounding(Expr.Call call) {
        Kernel operand = build(call.arguments().getFirst());
        if (TypeRules.isInteger(operand.type)) {
            return operand;
        }
        return new NumericKernels.RoundingKernel(call, operand, context, allocator);
    }

    private Kernel trim(Expr.Call call, boolean leading, boolean trailing) {
        Kernel value = build(call.arguments().getFirst());
        String characters = " ";
        if (call.arguments().size() == 2) {
            Kernel set = build(call.arguments().get(1));
            if (!(set instanceof LeafKernels.LiteralKernel literal) || literal.value() == null
                    || !StringKernels.TrimKernel.supports((String) literal.value())) {
                return new RowKernel(call, List.of(value, set), context, allocator);
            }
            characters = (String) literal.value();
            set.close();
        }
        return new StringKernels.TrimKernel(value, characters, leading, trailing, call.type(), allocator);
    }
}
