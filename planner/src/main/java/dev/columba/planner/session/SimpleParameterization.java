package dev.columba.planner.session;

import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * SQL Server's simple parameterization: an ad hoc statement that differs from an earlier one only
 * in its literals runs the earlier one's plan. The literals of the text are taken out
 * ({@link #parameterize}) and the text with a {@code ?} in each literal's place is planned once as
 * a prepared statement would be; every later text of the same shape runs that plan with its own
 * literals as the parameters' values.
 *
 * <p>A literal's value and type can matter to what the statement means, so this is conservative
 * in two steps (docs/design/planner.md, "Simple parameterization"):
 * <ol>
 * <li>Shape, once per parameterized text ({@link #bindings}): only a single-table SELECT (no
 *     join, subquery, set operation), INSERT ... VALUES, UPDATE and DELETE qualify, and each
 *     literal must stand where its value alone matters: an operand of a comparison, BETWEEN or IN
 *     list whose other side is a column, a value of a VALUES row or of an UPDATE's SET (these take
 *     the value converted; {@link Binding#EXACT_VALUE}), or an operand of {@code + - *} beside a
 *     column as the whole value of an UPDATE's SET (the literal's type takes part in the
 *     arithmetic's type; {@link Binding#SAME_TYPE}). A literal anywhere else (select list, LIKE
 *     pattern, function argument, TOP/FETCH, a type's length) keeps the text from being
 *     parameterized.</li>
 * <li>Value, at every execution ({@link #bind}): the literal becomes the value of the parameter
 *     the plan typed only if the conversion is exact (an integer in the type's range, a decimal
 *     without rounding, a string of no more characters than a VARCHAR's length and no trailing
 *     space, exactly a CHAR's length), or for {@code SAME_TYPE} only if the arithmetic keeps its
 *     type and value ({@link #sameTypeValue}). Otherwise the text is planned with its literals,
 *     as if parameterization did not exist.</li>
 * </ol>
 */
final class SimpleParameterization {
    private SimpleParameterization() {
    }

    /**
     * A statement text with its literals replaced by {@code ?}, normalized as
     * {@link PlanCache#normalize} normalizes; {@code literals} in the order of the markers.
     */
    record Parameterized(String text, List<Literal> literals) {
        Parameterized {
            literals = List.copyOf(literals);
        }
    }

    /**
     * A literal as written: an exact numeric ({@link BigDecimal}), an approximate numeric written
     * with an exponent ({@link Double}) or a character string ({@link String}).
     */
    record Literal(Object value) {
        Literal {
            if (!(value instanceof BigDecimal || value instanceof Double || value instanceof String)) {
                throw new IllegalArgumentException("a literal is a BigDecimal, Double or String, not " + value);
            }
        }
    }

    /** How a literal's value is given to the parameter in its place. */
    enum Binding {
        /** Converted to the parameter's type, only if no information is lost: a comparison or an assignment. */
        EXACT_VALUE,
        /** Only if the literal's own type is the parameter's: an operand of arithmetic, whose type it sets. */
        SAME_TYPE
    }

    /** Words after which a string literal is a typed literal ({@code DATE '2024-01-01'}), not a string. */
    private static final Set<String> TYPED_LITERAL_WORDS = Set.of("DATE", "TIME", "TIMESTAMP", "INTERVAL");

    /**
     * The text with its numeric and string literals taken out; empty when there are none, when the
     * text has {@code ?} markers already or a comment, or when a literal is of a kind left alone (a
     * typed literal such as {@code DATE '...'}, {@code N'...'}, {@code X'...'}, a number starting
     * with a point or running into a word).
     */
    static Optional<Parameterized> parameterize(String sql) {
        StringBuilder text = new StringBuilder(sql.length());
        List<Literal> literals = new ArrayList<>();
        boolean pendingSpace = false;
        int length = sql.length();
        int index = 0;
        while (index < length) {
            char character = sql.charAt(index);
            char next = index + 1 < length ? sql.charAt(index + 1) : 0;
            if (Character.isWhitespace(character)) {
                pendingSpace = !text.isEmpty();
                index++;
                continue;
            }
            if (character == '-' && next == '-' || character == '/' && next == '*' || character == '?') {
                return Optional.empty();
            }
            if (pendingSpace) {
                text.append(' ');
                pendingSpace = false;
            }
            if (character == '"' || character == '[') {
                char close = character == '[' ? ']' : '"';
                int end = sql.indexOf(close, index + 1);
                if (end < 0) {
                    return Optional.empty();
                }
                text.append(sql, index, end + 1);
                index = end + 1;
            } else if (character == '\'') {
                if (index > 0 && isWordCharacter(sql.charAt(index - 1)) || index > 0 && sql.charAt(index - 1) == '&'
                        || TYPED_LITERAL_WORDS.contains(lastWord(text))) {
                    return Optional.empty();
                }
                StringBuilder value = new StringBuilder();
                int position = index + 1;
                while (true) {
                    if (position >= length) {
                        return Optional.empty();
                    }
                    char inside = sql.charAt(position);
                    if (inside == '\'') {
                        if (position + 1 < length && sql.charAt(position + 1) == '\'') {
                            value.append('\'');
                            position += 2;
                            continue;
                        }
                        break;
                    }
                    value.append(inside);
                    position++;
                }
                literals.add(new Literal(value.toString()));
                text.append('?');
                index = position + 1;
            } else if (isDigit(character)) {
                int end = index;
                while (end < length && isDigit(sql.charAt(end))) {
                    end++;
                }
                if (end < length && sql.charAt(end) == '.') {
                    end++;
                    while (end < length && isDigit(sql.charAt(end))) {
                        end++;
                    }
                }
                boolean exponent = false;
                if (end < length && (sql.charAt(end) == 'e' || sql.charAt(end) == 'E')) {
                    exponent = true;
                    end++;
                    if (end < length && (sql.charAt(end) == '+' || sql.charAt(end) == '-')) {
                        end++;
                    }
                    int digits = end;
                    while (end < length && isDigit(sql.charAt(end))) {
                        end++;
                    }
                    if (end == digits) {
                        return Optional.empty();
                    }
                }
                if (end < length && (isWordCharacter(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    return Optional.empty();
                }
                String number = sql.substring(index, end);
                literals.add(new Literal(exponent ? (Object) Double.valueOf(number) : new BigDecimal(number)));
                text.append('?');
                index = end;
            } else if (isWordCharacter(character)) {
                int end = index;
                while (end < length && isWordCharacter(sql.charAt(end))) {
                    end++;
                }
                text.append(sql, index, end);
                index = end;
            } else if (character == '.' && isDigit(next)) {
                return Optional.empty();
            } else {
                text.append(character);
                index++;
            }
        }
        return literals.isEmpty() ? Optional.empty() : Optional.of(new Parameterized(text.toString(), literals));
    }

    private static boolean isDigit(char character) {
        return character >= '0' && character <= '9';
    }

    private static boolean isWordCharacter(char character) {
        return Character.isLetterOrDigit(character) || character == '_' || character == '$' || character == '@'
                || character == '#';
    }

    /** The word {@code text} ends with, ignoring one trailing space, upper-cased; empty if it ends otherwise. */
    private static String lastWord(StringBuilder text) {
        int end = text.length();
        if (end > 0 && text.charAt(end - 1) == ' ') {
            end--;
        }
        int start = end;
        while (start > 0 && isWordCharacter(text.charAt(start - 1))) {
            start--;
        }
        return text.substring(start, end).toUpperCase(Locale.ROOT);
    }

    // ---- shape ----------------------------------------------------------------------------------

    /**
     * How each {@code ?} of a parsed parameterized statement takes its literal, by marker index;
     * empty if the statement is not simple or a marker stands where its literal could matter to
     * the plan or to the meaning beyond its value (see the class comment).
     */
    static Optional<List<Binding>> bindings(SqlNode statement, int markers) {
        Binding[] bindings = new Binding[markers];
        boolean simple = switch (statement) {
            case SqlSelect select -> simpleSelect(select, bindings);
            case SqlOrderBy ordered -> ordered.query instanceof SqlSelect select && free(ordered.orderList)
                    && free(ordered.offset) && free(ordered.fetch) && simpleSelect(select, bindings);
            case SqlInsert insert -> insert.getTargetTable() instanceof SqlIdentifier
                    && simpleValues(insert.getSource(), bindings);
            case SqlUpdate update -> update.getTargetTable() instanceof SqlIdentifier
                    && simpleAssignments(update.getSourceExpressionList(), bindings)
                    && condition(update.getCondition(), bindings);
            case SqlDelete delete -> delete.getTargetTable() instanceof SqlIdentifier
                    && condition(delete.getCondition(), bindings);
            default -> false;
        };
        if (!simple || Arrays.asList(bindings).contains(null)) {
            return Optional.empty();
        }
        return Optional.of(List.of(bindings));
    }

    private static boolean simpleSelect(SqlSelect select, Binding[] bindings) {
        SqlNode from = select.getFrom();
        if (from != null && from.getKind() == SqlKind.AS) {
            from = ((SqlCall) from).operand(0);
        }
        return from instanceof SqlIdentifier
                && free(select.getSelectList()) && free(select.getGroup()) && free(select.getHaving())
                && free(select.getOrderList()) && free(select.getOffset()) && free(select.getFetch())
                && free(select.getWindowList()) && free(select.getQualify())
                && condition(select.getWhere(), bindings);
    }

    /** An INSERT's source: VALUES rows whose items are markers or expressions without markers. */
    private static boolean simpleValues(SqlNode source, Binding[] bindings) {
        if (source.getKind() != SqlKind.VALUES) {
            return false;
        }
        for (SqlNode row : ((SqlCall) source).getOperandList()) {
            if (row.getKind() != SqlKind.ROW) {
                return false;
            }
            for (SqlNode item : ((SqlCall) row).getOperandList()) {
                if (!assign(item, Binding.EXACT_VALUE, bindings) && !free(item)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** An UPDATE's SET values: a marker, {@code column + - * marker}, or an expression without markers. */
    private static boolean simpleAssignments(SqlNodeList values, Binding[] bindings) {
        for (SqlNode value : values) {
            if (assign(value, Binding.EXACT_VALUE, bindings)) {
                continue;
            }
            if (value instanceof SqlBasicCall call && isArithmetic(call.getKind()) && call.operandCount() == 2) {
                SqlNode left = call.operand(0);
                SqlNode right = call.operand(1);
                if (left instanceof SqlIdentifier && assign(right, Binding.SAME_TYPE, bindings)
                        || right instanceof SqlIdentifier && assign(left, Binding.SAME_TYPE, bindings)) {
                    continue;
                }
            }
            if (!free(value)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isArithmetic(SqlKind kind) {
        return kind == SqlKind.PLUS || kind == SqlKind.MINUS || kind == SqlKind.TIMES;
    }

    /**
     * A search condition of AND, OR and NOT over comparisons, BETWEEN and IN lists whose markers
     * each stand against a column; whatever else it holds has no marker.
     */
    private static boolean condition(SqlNode node, Binding[] bindings) {
        if (node == null) {
            return true;
        }
        if (!(node instanceof SqlBasicCall call)) {
            return free(node);
        }
        List<SqlNode> operands = call.getOperandList();
        switch (call.getKind()) {
            case AND, OR, NOT -> {
                for (SqlNode operand : operands) {
                    if (!condition(operand, bindings)) {
                        return false;
                    }
                }
                return true;
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                SqlNode left = operands.get(0);
                SqlNode right = operands.get(1);
                if (left instanceof SqlIdentifier && assign(right, Binding.EXACT_VALUE, bindings)) {
                    return true;
                }
                if (right instanceof SqlIdentifier && assign(left, Binding.EXACT_VALUE, bindings)) {
                    return true;
                }
                return free(call);
            }
            case BETWEEN -> {
                if (!(operands.get(0) instanceof SqlIdentifier)) {
                    return free(call);
                }
                for (SqlNode bound : operands.subList(1, operands.size())) {
                    if (!assign(bound, Binding.EXACT_VALUE, bindings) && !free(bound)) {
                        return false;
                    }
                }
                return true;
            }
            case IN, NOT_IN -> {
                if (!(operands.get(0) instanceof SqlIdentifier) || !(operands.get(1) instanceof SqlNodeList list)) {
                    return free(call);
                }
                for (SqlNode item : list) {
                    if (!assign(item, Binding.EXACT_VALUE, bindings) && !free(item)) {
                        return false;
                    }
                }
                return true;
            }
            default -> {
                return free(call);
            }
        }
    }

    /** If {@code node} is a marker, records how it binds. */
    private static boolean assign(SqlNode node, Binding binding, Binding[] bindings) {
        if (node instanceof SqlDynamicParam marker && marker.getIndex() < bindings.length
                && bindings[marker.getIndex()] == null) {
            bindings[marker.getIndex()] = binding;
            return true;
        }
        return false;
    }

    /** Whether {@code node} (null for an absent clause) holds neither a marker nor a subquery. */
    private static boolean free(SqlNode node) {
        if (node == null) {
            return true;
        }
        boolean[] found = new boolean[1];
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlDynamicParam param) {
                found[0] = true;
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.VALUES) {
                    found[0] = true;
                    return null;
                }
                return super.visit(call);
            }
        });
        return !found[0];
    }

    // ---- values ---------------------------------------------------------------------------------

    /**
     * The literals as the values of the plan's parameters of {@code types}; empty if one of them
     * does not bind as its {@code Binding} requires (the statement is then planned with its literals).
     */
    static Optional<List<Object>> bind(List<Literal> literals, List<SqlType> types, List<Binding> bindings) {
        if (literals.size() != types.size() || literals.size() != bindings.size()) {
            return Optional.empty();
        }
        Object[] values = new Object[literals.size()];
        for (int index = 0; index < values.length; index++) {
            Object literal = literals.get(index).value();
            SqlType type = types.get(index);
            Object value = switch (bindings.get(index)) {
                case EXACT_VALUE -> exactValue(literal, type);
                case SAME_TYPE -> sameTypeValue(literal, type);
            };
            if (value == null) {
                return Optional.empty();
            }
            values[index] = value;
        }
        return Optional.of(Arrays.asList(values));
    }

    /** {@code literal} as a value of {@code type} if it converts without losing anything, else null. */
    static Object exactValue(Object literal, SqlType type) {
        return switch (type) {
            case SqlType.IntegerType ignored -> {
                BigDecimal integral = integral(literal);
                yield integral != null && fits(integral, Integer.MIN_VALUE, Integer.MAX_VALUE) ? integral.intValueExact() : null;
            }
            case SqlType.BigintType ignored -> {
                BigDecimal integral = integral(literal);
                yield integral != null && fits(integral, Long.MIN_VALUE, Long.MAX_VALUE) ? integral.longValueExact() : null;
            }
            case SqlType.DecimalType decimal -> {
                if (!(literal instanceof BigDecimal number)) {
                    yield null;
                }
                BigDecimal scaled;
                try {
                    scaled = number.setScale(decimal.scale(), RoundingMode.UNNECESSARY);
                } catch (ArithmeticException e) {
                    yield null;
                }
                yield scaled.signum() == 0 || scaled.precision() <= decimal.precision() ? scaled : null;
            }
            case SqlType.DoubleType ignored -> switch (literal) {
                case Double number -> number;
                case BigDecimal number -> new BigDecimal(number.doubleValue()).compareTo(number) == 0 ? number.doubleValue() : null;
                default -> null;
            };
            case SqlType.VarcharType varchar -> literal instanceof String text && !text.endsWith(" ")
                    && text.codePointCount(0, text.length()) <= varchar.maxLength() ? text : null;
            case SqlType.CharType character -> literal instanceof String text && !text.endsWith(" ")
                    && text.codePointCount(0, text.length()) == character.length() ? text : null;
            case SqlType.BooleanType ignored -> null;
            case SqlType.VarbinaryType ignored -> null;
            case SqlType.BinaryType ignored -> null;
            case SqlType.UuidType ignored -> null;
            case SqlType.DateType ignored -> null;
            case SqlType.TimestampType ignored -> null;
        };
    }

    /**
     * {@code literal} as a value of {@code type} if arithmetic with it has the type and value it
     * has with the literal: an integer written without point or exponent (Calcite's INTEGER when it
     * fits 32 bits, else BIGINT) into an INTEGER it fits or a BIGINT (integer arithmetic's type is
     * the wider operand's, so an INTEGER literal beside a BIGINT column is BIGINT arithmetic either
     * way); anything else is null.
     */
    static Object sameTypeValue(Object literal, SqlType type) {
        if (!(literal instanceof BigDecimal number) || number.scale() > 0) {
            return null;
        }
        return switch (type) {
            case SqlType.IntegerType ignored -> fits(number, Integer.MIN_VALUE, Integer.MAX_VALUE) ? number.intValueExact() : null;
            case SqlType.BigintType ignored -> fits(number, Long.MIN_VALUE, Long.MAX_VALUE) ? number.longValueExact() : null;
            default -> null;
        };
    }

    /** The literal as an integral BigDecimal, or null if it has a fraction (or is not a number). */
    private static BigDecimal integral(Object literal) {
        BigDecimal number = switch (literal) {
            case BigDecimal decimal -> decimal;
            case Double approximate -> Double.isFinite(approximate) ? new BigDecimal(approximate) : null;
            default -> null;
        };
        if (number == null) {
            return null;
        }
        try {
            return number.setScale(0, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            return null;
        }
    }

    private static boolean fits(BigDecimal number, long min, long max) {
        return number.compareTo(BigDecimal.valueOf(min)) >= 0 && number.compareTo(BigDecimal.valueOf(max)) <= 0;
    }
}
