package dev.columba.core.expr;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A scalar SQL expression over the columns of one input row: the closed family a planner builds
 * from Calcite's {@code RexNode}s. Every node knows its {@link SqlType}; constructors check the
 * operand types and throw {@link ColumbaException} with {@link ErrorCode#WRONG_TYPE} naming them.
 *
 * <p>Semantics are SQL's: NULL in, NULL out unless a node says otherwise; AND, OR and NOT use
 * three-valued logic; operands of different types within a family (numbers, strings, date-times)
 * are converted to their {@linkplain TypeRules#commonType common type} first. The meaning of every
 * node is defined by {@link Evaluator}, the reference evaluator; compiled kernels must agree with it.
 */
public sealed interface Expr {

    /** The type of the value this expression produces. */
    SqlType type();

    /** The operand expressions, in evaluation order. */
    default List<Expr> children() {
        return switch (this) {
            case ColumnReference ignored -> List.of();
            case Literal ignored -> List.of();
            case Comparison comparison -> List.of(comparison.left(), comparison.right());
            case Not not -> List.of(not.operand());
            case And and -> and.operands();
            case Or or -> or.operands();
            case Is is -> List.of(is.operand());
            case Arithmetic arithmetic -> List.of(arithmetic.left(), arithmetic.right());
            case Negate negate -> List.of(negate.operand());
            case Case caseExpression -> {
                List<Expr> children = new ArrayList<>();
                for (Case.When when : caseExpression.whens()) {
                    children.add(when.condition());
                    children.add(when.result());
                }
                children.add(caseExpression.otherwise());
                yield children;
            }
            case Cast cast -> List.of(cast.operand());
            case Like like -> like.escape() == null
                    ? List.of(like.value(), like.pattern())
                    : List.of(like.value(), like.pattern(), like.escape());
            case InList inList -> {
                List<Expr> children = new ArrayList<>();
                children.add(inList.value());
                children.addAll(inList.list());
                yield children;
            }
            case Between between -> List.of(between.value(), between.low(), between.high());
            case Coalesce coalesce -> coalesce.operands();
            case Call call -> call.arguments();
            case Extract extract -> List.of(extract.operand());
            case DateAdd dateAdd -> List.of(dateAdd.operand(), dateAdd.amount());
            case CurrentDate ignored -> List.of();
            case CurrentTimestamp ignored -> List.of();
        };
    }

    /** Column {@code index} of the input row, which must be of {@code type}. */
    record ColumnReference(int index, SqlType type) implements Expr {
        public ColumnReference {
            if (index < 0) {
                throw new IllegalArgumentException("column index must not be negative, was " + index);
            }
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * A constant in its Java representation (see {@link SqlType}), canonical for {@code type};
     * {@code null} is a typed NULL.
     */
    record Literal(Object value, SqlType type) implements Expr {
        public Literal {
            Objects.requireNonNull(type, "type");
            value = value == null ? null : Values.canonical(type, value);
        }

        public static Literal nullOf(SqlType type) {
            return new Literal(null, type);
        }
    }

    /** {@code left operator right} after converting both to their common type; BOOLEAN. */
    record Comparison(ComparisonOperator operator, Expr left, Expr right) implements Expr {
        public Comparison {
            Objects.requireNonNull(operator, "operator");
            TypeRules.commonType(left.type(), right.type());
        }

        /** The type both operands are compared in. */
        public SqlType operandType() {
            return TypeRules.commonType(left.type(), right.type());
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /** Three-valued NOT: NULL stays NULL. */
    record Not(Expr operand) implements Expr {
        public Not {
            requireBoolean(operand, "NOT");
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /**
     * Three-valued AND: FALSE if any operand is FALSE, else NULL if any is NULL, else TRUE.
     * Operands after the first are evaluated only for rows not yet FALSE, so {@code x <> 0 AND 1 / x > 0}
     * never divides by zero.
     */
    record And(List<Expr> operands) implements Expr {
        public And {
            operands = List.copyOf(operands);
            requireOperands(operands, "AND");
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /** Three-valued OR: TRUE if any operand is TRUE, else NULL if any is NULL, else FALSE; short-circuits like {@link And}. */
    record Or(List<Expr> operands) implements Expr {
        public Or {
            operands = List.copyOf(operands);
            requireOperands(operands, "OR");
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /** {@code operand IS [NOT] NULL | TRUE | FALSE}; never NULL. */
    record Is(Expr operand, IsCondition condition) implements Expr {
        public Is {
            Objects.requireNonNull(operand, "operand");
            Objects.requireNonNull(condition, "condition");
            if (condition != IsCondition.NULL && condition != IsCondition.NOT_NULL) {
                requireBoolean(operand, condition.sql());
            }
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /**
     * {@code left operator right} computed in {@code type}: INT and BIGINT results take integer
     * operands, DECIMAL results exact operands (the exact result is rounded half away from zero to
     * the type's scale), DOUBLE results any numbers. A result that does not fit is an error
     * (22003), as is division or modulo by zero (22012).
     */
    record Arithmetic(ArithmeticOperator operator, Expr left, Expr right, SqlType type) implements Expr {
        public Arithmetic {
            Objects.requireNonNull(operator, "operator");
            TypeRules.checkArithmetic(operator, left.type(), right.type(), type);
        }

        /** With the {@linkplain TypeRules#arithmeticType default result type}. */
        public static Arithmetic of(ArithmeticOperator operator, Expr left, Expr right) {
            return new Arithmetic(operator, left, right, TypeRules.arithmeticType(operator, left.type(), right.type()));
        }
    }

    /** Unary minus; negating the smallest INT or BIGINT is an overflow error (22003). */
    record Negate(Expr operand) implements Expr {
        public Negate {
            if (!TypeRules.isNumeric(operand.type())) {
                throw TypeRules.wrongType("a number to negate", operand.type());
            }
        }

        @Override
        public SqlType type() {
            return operand.type();
        }
    }

    /**
     * Searched CASE: the result of the first WHEN whose condition is TRUE, else {@code otherwise}
     * (a NULL literal when the SQL has no ELSE). Results convert to {@code type}; a branch is
     * evaluated only for the rows that take it.
     */
    record Case(List<When> whens, Expr otherwise, SqlType type) implements Expr {
        /** One {@code WHEN condition THEN result}. */
        public record When(Expr condition, Expr result) {
            public When {
                requireBoolean(condition, "CASE WHEN");
                Objects.requireNonNull(result, "result");
            }
        }

        public Case {
            whens = List.copyOf(whens);
            if (whens.isEmpty()) {
                throw new IllegalArgumentException("CASE needs at least one WHEN");
            }
            Objects.requireNonNull(otherwise, "otherwise (a NULL literal when there is no ELSE)");
            for (When when : whens) {
                requireConvertible(when.result(), type, "CASE");
            }
            requireConvertible(otherwise, type, "CASE");
        }

        /** With the common type of the results; a missing ELSE ({@code otherwise == null}) is NULL. */
        public static Case of(List<When> whens, Expr otherwise) {
            List<SqlType> types = new ArrayList<>();
            for (When when : whens) {
                types.add(when.result().type());
            }
            if (otherwise != null) {
                types.add(otherwise.type());
            }
            SqlType type = TypeRules.commonType(types);
            return new Case(whens, otherwise == null ? Literal.nullOf(type) : otherwise, type);
        }
    }

    /**
     * CAST to {@code type} (see {@link TypeRules#castable}). Numbers round half away from zero;
     * strings are truncated to the target length, CHAR is blank-padded. A value that does not
     * parse is an error (22018), one that does not fit is an error (22003); both name the value.
     */
    record Cast(Expr operand, SqlType type) implements Expr {
        public Cast {
            Objects.requireNonNull(type, "type");
            if (!TypeRules.castable(operand.type(), type)) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE,
                        "cannot cast " + operand.type().sqlName() + " to " + type.sqlName());
            }
        }
    }

    /**
     * {@code value [NOT] LIKE pattern [ESCAPE escape]}: {@code %} matches any run of characters,
     * {@code _} exactly one, the escape character makes the next one literal. Case-sensitive.
     * {@code escape} is null when there is none.
     */
    record Like(Expr value, Expr pattern, Expr escape, boolean negated) implements Expr {
        public Like {
            requireString(value, "LIKE");
            requireString(pattern, "LIKE pattern");
            if (escape != null) {
                requireString(escape, "LIKE ESCAPE");
            }
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /**
     * {@code value [NOT] IN (list)}: TRUE if equal to an element, else NULL if the value or an
     * element is NULL, else FALSE (NOT negates that).
     */
    record InList(Expr value, List<Expr> list, boolean negated) implements Expr {
        public InList {
            list = List.copyOf(list);
            if (list.isEmpty()) {
                throw new IllegalArgumentException("IN needs at least one element");
            }
            SqlType common = value.type();
            for (Expr element : list) {
                common = TypeRules.commonType(common, element.type());
            }
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /** {@code value [NOT] BETWEEN low AND high}, meaning {@code value >= low AND value <= high}. */
    record Between(Expr value, Expr low, Expr high, boolean negated) implements Expr {
        public Between {
            TypeRules.commonType(TypeRules.commonType(value.type(), low.type()), high.type());
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }
    }

    /** The first operand that is not NULL, converted to {@code type}; later operands are evaluated only where needed. */
    record Coalesce(List<Expr> operands, SqlType type) implements Expr {
        public Coalesce {
            operands = List.copyOf(operands);
            if (operands.isEmpty()) {
                throw new IllegalArgumentException("COALESCE needs at least one operand");
            }
            for (Expr operand : operands) {
                requireConvertible(operand, type, "COALESCE");
            }
        }

        /** With the common type of the operands. */
        public static Coalesce of(List<Expr> operands) {
            List<SqlType> types = new ArrayList<>();
            for (Expr operand : operands) {
                types.add(operand.type());
            }
            return new Coalesce(operands, TypeRules.commonType(types));
        }
    }

    /** A built-in function; its type follows from the function and the argument types. */
    record Call(ScalarFunction function, List<Expr> arguments) implements Expr {
        public Call {
            Objects.requireNonNull(function, "function");
            arguments = List.copyOf(arguments);
            function.resultType(types(arguments));
        }

        @Override
        public SqlType type() {
            return function.resultType(types(arguments));
        }
    }

    /** EXTRACT(field FROM operand) of a DATE or TIMESTAMP, as BIGINT. */
    record Extract(DateTimeField field, Expr operand) implements Expr {
        public Extract {
            Objects.requireNonNull(field, "field");
            if (!TypeRules.isDateTime(operand.type())) {
                throw TypeRules.wrongType("a DATE or TIMESTAMP to EXTRACT from", operand.type());
            }
        }

        @Override
        public SqlType type() {
            return SqlType.BIGINT;
        }
    }

    /**
     * {@code operand + amount unit} for a DATE or TIMESTAMP and an INT or BIGINT amount (negative
     * to subtract): date + integer days, timestamp + interval. A DATE moves only by whole days or
     * months (cast it to TIMESTAMP first for smaller units). A result outside years 1 to 9999 is
     * an error (22008).
     */
    record DateAdd(Expr operand, Expr amount, IntervalUnit unit) implements Expr {
        public DateAdd {
            Objects.requireNonNull(unit, "unit");
            if (!TypeRules.isDateTime(operand.type())) {
                throw TypeRules.wrongType("a DATE or TIMESTAMP to add an interval to", operand.type());
            }
            if (!TypeRules.isInteger(amount.type())) {
                throw TypeRules.wrongType("an INT or BIGINT number of " + unit, amount.type());
            }
            if (operand.type() instanceof SqlType.DateType && !unit.wholeDays()) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE,
                        "a DATE cannot move by " + unit + "; cast it to TIMESTAMP first");
            }
        }

        @Override
        public SqlType type() {
            return operand.type();
        }
    }

    /** CURRENT_DATE: the date of the statement's start on the query clock, the same for every row. */
    record CurrentDate() implements Expr {
        @Override
        public SqlType type() {
            return SqlType.DATE;
        }
    }

    /** CURRENT_TIMESTAMP / LOCALTIMESTAMP: the statement's start on the query clock, to the microsecond. */
    record CurrentTimestamp() implements Expr {
        @Override
        public SqlType type() {
            return SqlType.TIMESTAMP;
        }
    }

    private static List<SqlType> types(List<Expr> expressions) {
        List<SqlType> types = new ArrayList<>(expressions.size());
        for (Expr expression : expressions) {
            types.add(expression.type());
        }
        return types;
    }

    private static void requireBoolean(Expr operand, String where) {
        if (!(operand.type() instanceof SqlType.BooleanType)) {
            throw TypeRules.wrongType("a BOOLEAN operand of " + where, operand.type());
        }
    }

    private static void requireString(Expr operand, String where) {
        if (!TypeRules.isString(operand.type())) {
            throw TypeRules.wrongType("a string operand of " + where, operand.type());
        }
    }

    private static void requireOperands(List<Expr> operands, String where) {
        if (operands.isEmpty()) {
            throw new IllegalArgumentException(where + " needs at least one operand");
        }
        for (Expr operand : operands) {
            requireBoolean(operand, where);
        }
    }

    private static void requireConvertible(Expr operand, SqlType type, String where) {
        if (TypeRules.family(operand.type()) != TypeRules.family(type)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, where + " cannot turn " + operand.type().sqlName()
                    + " into " + type.sqlName());
        }
    }
}
