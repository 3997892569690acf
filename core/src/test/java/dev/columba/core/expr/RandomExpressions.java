package dev.columba.core.expr;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.RandomValues;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random well-typed expressions over a fixed schema with one column of every type, for testing
 * kernels against the reference evaluator. Leaves are columns and literals (some NULL); inner
 * nodes cover every {@link Expr} variant and function.
 */
final class RandomExpressions {
    static final TableSchema SCHEMA = TableSchema.of(
            Column.nullable("b", SqlType.BOOLEAN),
            Column.nullable("i", SqlType.INT),
            Column.nullable("j", SqlType.INT),
            Column.nullable("l", SqlType.BIGINT),
            Column.nullable("d", SqlType.DOUBLE),
            Column.nullable("m", SqlType.decimal(9, 2)),
            Column.nullable("n", SqlType.decimal(30, 5)),
            Column.nullable("s", SqlType.varchar(12)),
            Column.nullable("c", SqlType.character(4)),
            Column.nullable("t", SqlType.DATE),
            Column.nullable("u", SqlType.TIMESTAMP));

    private static final List<SqlType> TYPES = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE,
            SqlType.decimal(9, 2), SqlType.decimal(30, 5), SqlType.varchar(12), SqlType.character(4), SqlType.DATE,
            SqlType.TIMESTAMP);

    private final Random random;
    private final RandomValues values;

    RandomExpressions(Random random) {
        this.random = random;
        this.values = new RandomValues(random, 0.15);
    }

    SqlType anyType() {
        return TYPES.get(random.nextInt(TYPES.size()));
    }

    /** An expression whose type is {@code wanted}, or of the same kind for DECIMAL and strings. */
    Expr generate(SqlType wanted, int depth) {
        if (depth <= 0 || random.nextInt(4) == 0) {
            return leaf(wanted);
        }
        int choice = random.nextInt(10);
        if (choice == 0) {
            return caseOf(wanted, depth);
        }
        if (choice == 1) {
            return Expr.Coalesce.of(List.of(generate(wanted, depth - 1), generate(wanted, depth - 1)));
        }
        if (choice == 2) {
            return castTo(wanted, depth);
        }
        return switch (wanted) {
            case SqlType.BooleanType ignored -> bool(depth);
            case SqlType.IntegerType ignored -> integer(depth);
            case SqlType.BigintType ignored -> bigint(depth);
            case SqlType.DoubleType ignored -> floating(depth);
            case SqlType.DecimalType ignored -> decimal(depth);
            case SqlType.VarcharType ignored -> string(depth);
            case SqlType.CharType ignored -> string(depth);
            case SqlType.DateType ignored -> date(depth);
            case SqlType.TimestampType ignored -> timestamp(depth);
            case SqlType.VarbinaryType ignored -> leaf(wanted);
            case SqlType.BinaryType ignored -> leaf(wanted);
            case SqlType.UuidType ignored -> leaf(wanted);
        };
    }

    private Expr leaf(SqlType wanted) {
        List<Integer> columns = new ArrayList<>();
        for (int column = 0; column < SCHEMA.size(); column++) {
            if (SCHEMA.column(column).type().equals(wanted)) {
                columns.add(column);
            }
        }
        if (!columns.isEmpty() && random.nextInt(3) != 0) {
            int column = columns.get(random.nextInt(columns.size()));
            return new Expr.ColumnReference(column, wanted);
        }
        return new Expr.Literal(values.value(wanted), wanted);
    }

    private Expr caseOf(SqlType wanted, int depth) {
        List<Expr.Case.When> whens = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int when = 0; when < count; when++) {
            whens.add(new Expr.Case.When(generate(SqlType.BOOLEAN, depth - 1), generate(wanted, depth - 1)));
        }
        return Expr.Case.of(whens, random.nextBoolean() ? null : generate(wanted, depth - 1));
    }

    private Expr castTo(SqlType wanted, int depth) {
        for (int attempt = 0; attempt < 10; attempt++) {
            SqlType from = anyType();
            if (TypeRules.castable(from, wanted)) {
                return new Expr.Cast(generate(from, depth - 1), wanted);
            }
        }
        return leaf(wanted);
    }

    private Expr bool(int depth) {
        return switch (random.nextInt(9)) {
            case 0 -> {
                SqlType type = anyType();
                SqlType other = sameFamily(type);
                yield new Expr.Comparison(values.pick(ComparisonOperator.values()), generate(type, depth - 1), generate(other, depth - 1));
            }
            case 1 -> new Expr.And(List.of(generate(SqlType.BOOLEAN, depth - 1), generate(SqlType.BOOLEAN, depth - 1),
                    generate(SqlType.BOOLEAN, depth - 1)));
            case 2 -> new Expr.Or(List.of(generate(SqlType.BOOLEAN, depth - 1), generate(SqlType.BOOLEAN, depth - 1)));
            case 3 -> new Expr.Not(generate(SqlType.BOOLEAN, depth - 1));
            case 4 -> {
                IsCondition condition = values.pick(IsCondition.values());
                SqlType type = condition == IsCondition.NULL || condition == IsCondition.NOT_NULL ? anyType() : SqlType.BOOLEAN;
                yield new Expr.Is(generate(type, depth - 1), condition);
            }
            case 5 -> {
                String escape = random.nextInt(3) == 0 ? values.pick("!", "%", "a") : null;
                String pattern = values.likePattern();
                if (escape != null && random.nextBoolean()) {
                    pattern = pattern + escape + values.pick("%", "_", escape);
                }
                Expr patternExpression = random.nextInt(5) == 0
                        ? generate(SqlType.varchar(12), depth - 1)
                        : new Expr.Literal(pattern, SqlType.varchar(20));
                yield new Expr.Like(generate(SqlType.varchar(12), depth - 1), patternExpression,
                        escape == null ? null : new Expr.Literal(escape, SqlType.varchar(1)), random.nextBoolean());
            }
            case 6 -> {
                SqlType type = anyType();
                List<Expr> list = new ArrayList<>();
                int count = 1 + random.nextInt(4);
                for (int element = 0; element < count; element++) {
                    list.add(generate(sameFamily(type), depth - 1));
                }
                yield new Expr.InList(generate(type, depth - 1), list, random.nextBoolean());
            }
            case 7 -> {
                SqlType type = anyType();
                yield new Expr.Between(generate(type, depth - 1), generate(sameFamily(type), depth - 1),
                        generate(sameFamily(type), depth - 1), random.nextBoolean());
            }
            default -> leaf(SqlType.BOOLEAN);
        };
    }

    private SqlType sameFamily(SqlType type) {
        for (int attempt = 0; attempt < 20; attempt++) {
            SqlType other = anyType();
            if (TypeRules.family(other) == TypeRules.family(type)) {
                return other;
            }
        }
        return type;
    }

    private Expr numeric(int depth) {
        return generate(values.pick(SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE, SqlType.decimal(9, 2), SqlType.decimal(30, 5)), depth);
    }

    private Expr integer(int depth) {
        return switch (random.nextInt(7)) {
            case 0 -> new Expr.Arithmetic(values.pick(ArithmeticOperator.values()), generate(SqlType.INT, depth - 1),
                    generate(values.pick(SqlType.INT, SqlType.BIGINT), depth - 1), SqlType.INT);
            case 1 -> new Expr.Negate(generate(SqlType.INT, depth - 1));
            case 2 -> new Expr.Call(ScalarFunction.CHAR_LENGTH, List.of(generate(SqlType.varchar(12), depth - 1)));
            case 3 -> new Expr.Call(ScalarFunction.POSITION, List.of(generate(SqlType.varchar(12), depth - 1),
                    generate(SqlType.varchar(12), depth - 1)));
            case 4 -> new Expr.Call(values.pick(ScalarFunction.ABS, ScalarFunction.FLOOR, ScalarFunction.CEIL, ScalarFunction.ROUND),
                    List.of(generate(SqlType.INT, depth - 1)));
            case 5 -> new Expr.Call(ScalarFunction.ROUND, List.of(generate(SqlType.INT, depth - 1),
                    new Expr.Literal(values.pick(-1, -2, 0, 3), SqlType.INT)));
            default -> leaf(SqlType.INT);
        };
    }

    private Expr bigint(int depth) {
        return switch (random.nextInt(4)) {
            case 0 -> Expr.Arithmetic.of(values.pick(ArithmeticOperator.values()), generate(SqlType.BIGINT, depth - 1),
                    generate(values.pick(SqlType.INT, SqlType.BIGINT), depth - 1));
            case 1 -> new Expr.Extract(values.pick(DateTimeField.values()),
                    generate(values.pick(SqlType.DATE, SqlType.TIMESTAMP), depth - 1));
            case 2 -> new Expr.Call(ScalarFunction.ABS, List.of(generate(SqlType.BIGINT, depth - 1)));
            default -> new Expr.Negate(generate(SqlType.BIGINT, depth - 1));
        };
    }

    private Expr floating(int depth) {
        return switch (random.nextInt(5)) {
            case 0 -> new Expr.Arithmetic(values.pick(ArithmeticOperator.values()), numeric(depth - 1), numeric(depth - 1), SqlType.DOUBLE);
            case 1 -> new Expr.Call(values.pick(ScalarFunction.POWER), List.of(numeric(depth - 1), generate(SqlType.INT, depth - 1)));
            case 2 -> new Expr.Call(ScalarFunction.SQRT, List.of(numeric(depth - 1)));
            case 3 -> new Expr.Call(values.pick(ScalarFunction.ABS, ScalarFunction.FLOOR, ScalarFunction.CEIL, ScalarFunction.ROUND),
                    List.of(generate(SqlType.DOUBLE, depth - 1)));
            default -> new Expr.Negate(generate(SqlType.DOUBLE, depth - 1));
        };
    }

    private Expr decimal(int depth) {
        SqlType decimal = values.pick(SqlType.decimal(9, 2), SqlType.decimal(30, 5));
        return switch (random.nextInt(5)) {
            case 0 -> Expr.Arithmetic.of(values.pick(ArithmeticOperator.values()), generate(decimal, depth - 1),
                    generate(values.pick(SqlType.INT, SqlType.decimal(9, 2), SqlType.decimal(30, 5)), depth - 1));
            case 1 -> new Expr.Arithmetic(values.pick(ArithmeticOperator.values()), generate(decimal, depth - 1),
                    generate(SqlType.decimal(9, 2), depth - 1), values.pick(SqlType.decimal(12, 2), SqlType.decimal(18, 4),
                    SqlType.decimal(38, 10), SqlType.decimal(5, 0)));
            case 2 -> new Expr.Call(values.pick(ScalarFunction.ABS, ScalarFunction.FLOOR, ScalarFunction.CEIL, ScalarFunction.ROUND),
                    List.of(generate(decimal, depth - 1)));
            case 3 -> new Expr.Call(ScalarFunction.ROUND, List.of(generate(decimal, depth - 1),
                    new Expr.Literal(values.pick(-1, 0, 1, 4), SqlType.INT)));
            default -> new Expr.Negate(generate(decimal, depth - 1));
        };
    }

    private Expr string(int depth) {
        Expr text = generate(values.pick(SqlType.varchar(12), SqlType.character(4)), depth - 1);
        return switch (random.nextInt(8)) {
            case 0 -> new Expr.Call(ScalarFunction.SUBSTRING, random.nextBoolean()
                    ? List.of(text, generate(SqlType.INT, depth - 1))
                    : List.of(text, new Expr.Literal(random.nextInt(6) - 1, SqlType.INT),
                        new Expr.Literal((long) random.nextInt(5) - (random.nextInt(10) == 0 ? 3 : 0), SqlType.BIGINT)));
            case 1 -> new Expr.Call(values.pick(ScalarFunction.TRIM, ScalarFunction.LTRIM, ScalarFunction.RTRIM), random.nextBoolean()
                    ? List.of(text)
                    : List.of(text, new Expr.Literal(values.pick("a", " a", "é", "%_"), SqlType.varchar(3))));
            case 2 -> new Expr.Call(values.pick(ScalarFunction.UPPER, ScalarFunction.LOWER), List.of(text));
            case 3 -> new Expr.Call(ScalarFunction.CONCAT, List.of(text, generate(SqlType.varchar(12), depth - 1)));
            case 4 -> new Expr.Call(ScalarFunction.REPLACE, List.of(text, new Expr.Literal(values.pick("a", "", "é"), SqlType.varchar(2)),
                    generate(SqlType.character(4), depth - 1)));
            case 5 -> new Expr.Call(ScalarFunction.REPEAT, List.of(text, new Expr.Literal(random.nextInt(4) - 1, SqlType.INT)));
            case 6 -> new Expr.Cast(numeric(depth - 1), SqlType.varchar(random.nextInt(25) + 1));
            default -> new Expr.Cast(text, values.pick(SqlType.varchar(3), SqlType.character(6), SqlType.character(2)));
        };
    }

    private Expr date(int depth) {
        return switch (random.nextInt(3)) {
            case 0 -> new Expr.DateAdd(generate(SqlType.DATE, depth - 1), amount(depth),
                    values.pick(IntervalUnit.DAY, IntervalUnit.WEEK, IntervalUnit.MONTH, IntervalUnit.QUARTER, IntervalUnit.YEAR));
            case 1 -> new Expr.CurrentDate();
            default -> new Expr.Cast(generate(SqlType.TIMESTAMP, depth - 1), SqlType.DATE);
        };
    }

    private Expr timestamp(int depth) {
        return switch (random.nextInt(3)) {
            case 0 -> new Expr.DateAdd(generate(SqlType.TIMESTAMP, depth - 1), amount(depth), values.pick(IntervalUnit.values()));
            case 1 -> new Expr.CurrentTimestamp();
            default -> new Expr.Cast(generate(SqlType.DATE, depth - 1), SqlType.TIMESTAMP);
        };
    }

    private Expr amount(int depth) {
        return random.nextInt(3) == 0
                ? generate(values.pick(SqlType.INT, SqlType.BIGINT), depth - 1)
                : new Expr.Literal((long) random.nextInt(2001) - 1000, SqlType.BIGINT);
    }
}
