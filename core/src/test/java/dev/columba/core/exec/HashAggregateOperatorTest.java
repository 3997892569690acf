package dev.columba.core.exec;

import static dev.columba.core.exec.AggregateFunction.AVG;
import static dev.columba.core.exec.AggregateFunction.COUNT;
import static dev.columba.core.exec.AggregateFunction.MAX;
import static dev.columba.core.exec.AggregateFunction.MIN;
import static dev.columba.core.exec.AggregateFunction.SUM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ArithmeticOperator;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.Expr;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HashAggregateOperatorTest extends OperatorTestBase {
    private static final List<List<Integer>> KEY_CHOICES = List.of(List.of(), List.of(0), List.of(1), List.of(0, 1),
            List.of(4, 5), List.of(1, 3), List.of(2, 6, 0));

    static final List<AggregateCall> AGGREGATES = List.of(
            AggregateCall.countStar("n"),
            AggregateCall.of(COUNT, 1, false, SCHEMA, "count_s"),
            AggregateCall.of(SUM, 2, false, SCHEMA, "sum_d"),
            AggregateCall.of(AVG, 2, false, SCHEMA, "avg_d"),
            AggregateCall.of(MIN, 1, false, SCHEMA, "min_s"),
            AggregateCall.of(MAX, 1, false, SCHEMA, "max_s"),
            AggregateCall.of(MIN, 4, false, SCHEMA, "min_t"),
            AggregateCall.of(MAX, 3, false, SCHEMA, "max_x"),
            AggregateCall.of(SUM, 6, false, SCHEMA, "sum_l"),
            AggregateCall.of(AVG, 0, false, SCHEMA, "avg_k"),
            AggregateCall.of(SUM, 3, false, SCHEMA, "sum_x"),
            AggregateCall.of(AVG, 3, false, SCHEMA, "avg_x"),
            AggregateCall.of(COUNT, 1, true, SCHEMA, "distinct_s"),
            AggregateCall.of(SUM, 0, true, SCHEMA, "distinct_sum_k"),
            AggregateCall.of(MAX, 5, false, SCHEMA, "max_b"),
            AggregateCall.of(MIN, 2, false, SCHEMA, "min_d"),
            AggregateCall.of(MAX, 6, false, SCHEMA, "max_l"),
            new AggregateCall(COUNT, AggregateCall.NO_ARGUMENT, false, 5, SqlType.BIGINT, "count_if_b"),
            new AggregateCall(SUM, 2, false, 5, SqlType.decimal(22, 2), "sum_d_if_b"),
            new AggregateCall(SUM, 0, false, AggregateCall.NO_FILTER, SqlType.INT, "sum_k_as_int"),
            new AggregateCall(AVG, 2, true, AggregateCall.NO_FILTER, SqlType.decimal(12, 2), "avg_distinct_d"),
            new AggregateCall(MIN, 4, true, AggregateCall.NO_FILTER, SqlType.DATE, "min_distinct_t"));

    private List<Integer> keys;
    private boolean distinctRows;

    @Override
    Operator create(List<Operator> inputs) {
        distinctRows = random.nextInt(8) == 0;
        if (distinctRows) {
            keys = List.of(0, 1, 2, 3, 4, 5, 6);
            return HashAggregateOperator.distinct(inputs.getFirst());
        }
        keys = KEY_CHOICES.get(random.nextInt(KEY_CHOICES.size()));
        return new HashAggregateOperator(inputs.getFirst(), keys, AGGREGATES);
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        return reference(inputs.getFirst(), keys, distinctRows ? List.of() : AGGREGATES);
    }

    /** GROUP BY on Java lists: groups in order of first appearance, aggregates as SQL defines them. */
    static List<Object[]> reference(List<Object[]> rows, List<Integer> keys, List<AggregateCall> aggregates) {
        Map<List<Object>, List<Object[]>> groups = new LinkedHashMap<>();
        if (keys.isEmpty()) {
            groups.put(List.of(), new ArrayList<>());
        }
        for (Object[] row : rows) {
            List<Object> key = new ArrayList<>();
            for (int column : keys) {
                key.add(normalized(row[column]));
            }
            groups.computeIfAbsent(key, ignored -> new ArrayList<>()).add(row);
        }
        List<Object[]> result = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Object[]>> group : groups.entrySet()) {
            List<Object> output = new ArrayList<>();
            Object[] first = group.getValue().isEmpty() ? null : group.getValue().getFirst();
            for (int column : keys) {
                output.add(first[column]);
            }
            for (AggregateCall call : aggregates) {
                output.add(aggregate(call, group.getValue()));
            }
            result.add(output.toArray());
        }
        return result;
    }

    private static Object normalized(Object value) {
        return value instanceof Double number && number == 0 ? 0.0 : value;
    }

    private static Object aggregate(AggregateCall call, List<Object[]> rows) {
        List<Object> values = new ArrayList<>();
        Set<Object> seen = new LinkedHashSet<>();
        for (Object[] row : rows) {
            if (call.filter() != AggregateCall.NO_FILTER && !Boolean.TRUE.equals(row[call.filter()])) {
                continue;
            }
            Object value = call.argument() == AggregateCall.NO_ARGUMENT ? Boolean.TRUE : row[call.argument()];
            if (value != null && (!call.distinct() || seen.add(normalized(value)))) {
                values.add(value);
            }
        }
        SqlType argumentType = call.argument() == AggregateCall.NO_ARGUMENT ? null : SCHEMA.column(call.argument()).type();
        return switch (call.function()) {
            case COUNT -> (long) values.size();
            case STRING_AGG -> values.isEmpty() ? null
                    : String.join(call.separator(), values.stream().map(Object::toString).toList());
            case MIN, MAX -> values.stream().reduce((a, b) -> {
                int comparison = Comparisons.compare(b, a);
                return (call.function() == MIN ? comparison < 0 : comparison > 0) ? b : a;
            }).orElse(null);
            case SUM, AVG -> {
                if (values.isEmpty()) {
                    yield null;
                }
                if (argumentType instanceof SqlType.DoubleType) {
                    double sum = 0;
                    for (Object value : values) {
                        sum += (Double) value;
                    }
                    yield call.function() == SUM ? sum : sum / values.size();
                }
                BigDecimal sum = BigDecimal.ZERO;
                for (Object value : values) {
                    sum = sum.add(value instanceof BigDecimal decimal ? decimal : BigDecimal.valueOf(((Number) value).longValue()));
                }
                SqlType type = call.type();
                if (call.function() == SUM) {
                    yield Evaluator.cast(sum, SqlType.decimal(38, Math.max(sum.scale(), 0)), type);
                }
                BigDecimal count = BigDecimal.valueOf(values.size());
                yield switch (type) {
                    case SqlType.DoubleType ignored -> sum.divide(count, MathContext.DECIMAL128).doubleValue();
                    case SqlType.DecimalType decimal -> Evaluator.cast(sum.divide(count, decimal.scale(), RoundingMode.HALF_UP),
                            SqlType.decimal(38, decimal.scale()), type);
                    default -> Evaluator.cast(sum.divide(count, 0, RoundingMode.HALF_UP), SqlType.decimal(38, 0), type);
                };
            }
        };
    }

    /**
     * Once it has returned its last group an aggregation holds no memory any more: its keys,
     * states and output batch go back before the operators above need theirs (a final merge above
     * a worker's partial one), not only when the plan closes; and asking again still ends.
     */
    @Test
    void anAggregateFreesItsGroupsOnceItReturnedTheLast() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.BIGINT), Column.nullable("name", SqlType.varchar(20)));
        List<Object[]> rows = new ArrayList<>();
        for (long row = 0; row < 20_000; row++) {
            rows.add(new Object[] {row % 5_000 * 7, "name " + row % 5_000});
        }
        HashAggregateOperator count = new HashAggregateOperator(ListSource.of(schema, rows, 1024), List.of(0, 1),
                List.of(AggregateCall.of(COUNT, 0, false, schema, "n")));
        count.open(context(1024));
        try {
            int groups = 0;
            for (dev.columba.core.batch.Batch batch = count.next(); batch != null; batch = count.next()) {
                groups += batch.selectedCount();
                assertEquals(true, count.allocator.getAllocatedMemory() > 0, "the groups are held while they are returned");
            }
            assertEquals(5_000, groups);
            assertEquals(0, count.allocator.getAllocatedMemory(), "nothing held after the last group");
            assertEquals(null, count.next());
        } finally {
            count.close();
        }
    }

    @Test
    void anAggregateToldItsGroupsKeepsShuffledKeysInTheDenseArray() {
        // 10,000 keys four apart, each twice, in a shuffled order (TPC-H Q13's customers after a
        // join probed by the orders): untold, the first far key ends the dense array.
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.BIGINT));
        List<Long> keys = new ArrayList<>();
        for (long key = 0; key < 10_000; key++) {
            keys.add(key * 4);
            keys.add(key * 4);
        }
        java.util.Collections.shuffle(keys, new java.util.Random(7));
        List<Object[]> rows = keys.stream().map(key -> new Object[] {key}).toList();
        for (boolean told : new boolean[] {false, true}) {
            HashAggregateOperator count = new HashAggregateOperator(ListSource.of(schema, rows, 1024), List.of(0),
                    List.of(AggregateCall.of(COUNT, 0, false, schema, "n")));
            if (told) {
                count.expectGroups(10_000);
            }
            List<Object[]> result = new ArrayList<>();
            count.open(context(1024));
            try {
                for (dev.columba.core.batch.Batch batch = count.next(); batch != null; batch = count.next()) {
                    result.addAll(TestBatches.rows(batch, count.schema()));
                }
                assertEquals(told, count.groupsDense(), "told: " + told);
            } finally {
                count.close();
            }
            assertEquals(10_000, result.size(), "told: " + told);
            for (Object[] row : result) {
                assertEquals(0L, (Long) row[0] % 4, "told: " + told);
                assertEquals(2L, row[1], "told: " + told);
            }
        }
    }

    @Test
    void withoutGroupByAnEmptyInputStillGivesOneRow() {
        List<Object[]> rows = run(new HashAggregateOperator(ListSource.of(SCHEMA, List.of(), 8), List.of(), AGGREGATES), context(8));
        assertEquals(1, rows.size());
        assertEquals(0L, rows.getFirst()[0], "COUNT(*)");
        assertEquals(0L, rows.getFirst()[17], "COUNT(*) FILTER");
        assertEquals(Arrays.asList(rows.getFirst()).subList(2, 12), Arrays.asList(new Object[10]), "SUM, AVG, MIN, MAX of nothing are NULL");
        assertEquals(0, run(new HashAggregateOperator(ListSource.of(SCHEMA, List.of(), 8), List.of(0), AGGREGATES), context(8)).size(),
                "with GROUP BY, no rows");
    }

    @Test
    void resultTypesAndNullability() {
        TableSchema schema = new HashAggregateOperator(ListSource.of(SCHEMA, List.of(), 8), List.of(1), AGGREGATES).schema();
        assertEquals(new Column("s", SqlType.varchar(8), true), schema.column(0));
        assertEquals(new Column("n", SqlType.BIGINT, false), schema.column(1));
        assertEquals(new Column("sum_d", SqlType.decimal(22, 2), true), schema.column(3));
        assertEquals(new Column("avg_d", SqlType.decimal(22, 12), true), schema.column(4));
        assertEquals(new Column("sum_l", SqlType.decimal(38, 0), true), schema.column(9));
        assertEquals(new Column("avg_k", SqlType.DOUBLE, true), schema.column(10));
        ColumbaException wrong = assertThrows(ColumbaException.class, () -> new HashAggregateOperator(ListSource.of(SCHEMA, List.of(), 8),
                List.of(), List.of(new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "sum_s"))));
        assertEquals(ErrorCode.WRONG_TYPE, wrong.errorCode());
    }

    @Test
    void anIntegerSumThatDoesNotFitItsTypeIsAnError() {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3; row++) {
            rows.add(new Object[] {Integer.MAX_VALUE, null, null, null, null, null, null});
        }
        HashAggregateOperator sum = new HashAggregateOperator(ListSource.of(SCHEMA, rows, 2), List.of(),
                List.of(new AggregateCall(SUM, 0, false, AggregateCall.NO_FILTER, SqlType.INT, "total")));
        ColumbaException overflow = assertThrows(ColumbaException.class, () -> run(sum, context(2)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, overflow.errorCode());
        assertEquals("22003", overflow.errorCode().sqlState());
        assertEquals(List.of(6442450941L), run(new HashAggregateOperator(ListSource.of(SCHEMA, rows, 2), List.of(),
                List.of(AggregateCall.of(SUM, 0, false, SCHEMA, "total"))), context(2)).stream().map(row -> row[0]).toList());
    }

    /**
     * SUM and AVG of one column read it in one pass (the later call reads the earlier one's
     * state): each still writes its own function and type, in either order, beside a FILTERed SUM
     * of the same column that must not share, and a SUM whose type is too small is still 22003.
     */
    @Test
    void aSumAndAnAverageOfOneColumnShareAPassYetEachWritesItsOwnResult() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("v", SqlType.decimal(12, 2)),
                Column.nullable("b", SqlType.BOOLEAN));
        List<Object[]> rows = new ArrayList<>();
        Map<Integer, BigDecimal> totals = new LinkedHashMap<>();
        Map<Integer, BigDecimal> filtered = new LinkedHashMap<>();
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        for (int row = 0; row < 101; row++) {
            int group = row % 3;
            BigDecimal value = row % 5 == 0 ? null : BigDecimal.valueOf(row * 137L - 4000, 2);
            boolean flag = row % 2 == 0;
            rows.add(new Object[] {group, value, flag});
            totals.putIfAbsent(group, null);
            if (value != null) {
                totals.merge(group, value, BigDecimal::add);
                counts.merge(group, 1, Integer::sum);
                if (flag) {
                    filtered.merge(group, value, BigDecimal::add);
                }
            }
        }
        List<AggregateCall> calls = List.of(
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(22, 4), "mean"),
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(22, 2), "total"),
                new AggregateCall(SUM, 1, false, 2, SqlType.decimal(22, 2), "flagged"),
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.DOUBLE, "mean_double"));
        List<List<Object>> expected = new ArrayList<>();
        for (int group = 0; group < 3; group++) {
            BigDecimal total = totals.get(group);
            BigDecimal count = BigDecimal.valueOf(counts.get(group));
            expected.add(List.of(group, total.divide(count, 4, RoundingMode.HALF_UP), total, filtered.get(group),
                    total.divide(count, MathContext.DECIMAL128).doubleValue()));
        }
        assertEquals(expected, run(new HashAggregateOperator(ListSource.of(schema, rows, 8), List.of(0), calls), context(8))
                .stream().map(Arrays::asList).toList());
        assertEquals(expected, run(HashAggregateOperator.merging(
                HashAggregateOperator.partial(ListSource.of(schema, rows, 8), List.of(0), calls), 1, calls,
                HashAggregateOperator.argumentTypes(schema, calls)), context(8))
                .stream().map(Arrays::asList).toList(), "partial states written by the shared accumulator, merged per call");
        List<AggregateCall> tooSmall = List.of(
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(22, 4), "mean"),
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(3, 2), "total"));
        ColumbaException overflow = assertThrows(ColumbaException.class,
                () -> run(new HashAggregateOperator(ListSource.of(schema, rows, 8), List.of(0), tooSmall), context(8)));
        assertEquals("22003", overflow.errorCode().sqlState());
    }

    /**
     * STRING_AGG joins a group's values in the order they arrive, skips NULLs, is NULL over none,
     * keeps multi-byte characters and an empty separator; split into two partial aggregations and
     * a merge, each group holds the same values (the order of the workers' texts is not defined).
     */
    @Test
    void stringAggJoinsTheValuesOfEachGroupInArrivalOrder() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("s", SqlType.varchar(8)));
        List<Object[]> rows = new ArrayList<>();
        Map<Integer, StringBuilder> joined = new LinkedHashMap<>();
        Map<Integer, StringBuilder> bare = new LinkedHashMap<>();
        Map<Integer, Long> counts = new LinkedHashMap<>();
        for (int row = 0; row < 333; row++) {
            int group = row % 4;
            counts.merge(group, 1L, Long::sum);
            String value = group == 3 || row % 7 == 0 ? null : (row % 11 == 0 ? "é" : "") + "v" + row;
            rows.add(new Object[] {group, value});
            joined.putIfAbsent(group, null);
            bare.putIfAbsent(group, null);
            if (value != null) {
                joined.put(group, joined.get(group) == null ? new StringBuilder(value) : joined.get(group).append(", ").append(value));
                bare.put(group, bare.get(group) == null ? new StringBuilder(value) : bare.get(group).append(value));
            }
        }
        List<AggregateCall> calls = List.of(AggregateCall.stringAgg(1, ", ", "joined"), AggregateCall.stringAgg(1, "", "bare"),
                AggregateCall.countStar("n"));
        List<List<Object>> expected = new ArrayList<>();
        for (int group = 0; group < 4; group++) {
            expected.add(Arrays.asList(group, joined.get(group) == null ? null : joined.get(group).toString(),
                    bare.get(group) == null ? null : bare.get(group).toString(), counts.get(group)));
        }
        assertEquals(expected, run(new HashAggregateOperator(ListSource.of(schema, rows, 16), List.of(0), calls), context(16))
                .stream().map(Arrays::asList).toList());
        List<Operator> partials = List.of(
                HashAggregateOperator.partial(ListSource.of(schema, rows.subList(0, 150), 16), List.of(0), calls),
                HashAggregateOperator.partial(ListSource.of(schema, rows.subList(150, rows.size()), 16), List.of(0), calls));
        List<Object[]> merged = run(HashAggregateOperator.merging(new GatherOperator(partials), 1, calls,
                HashAggregateOperator.argumentTypes(schema, calls)), context(16));
        assertEquals(4, merged.size());
        for (Object[] row : merged) {
            int group = (Integer) row[0];
            assertEquals(expected.get(group).get(3), row[3]);
            if (joined.get(group) == null) {
                assertEquals(null, row[1]);
                continue;
            }
            List<String> values = new ArrayList<>(List.of(joined.get(group).toString().split(", ")));
            List<String> mergedValues = new ArrayList<>(List.of(((String) row[1]).split(", ")));
            values.sort(null);
            mergedValues.sort(null);
            assertEquals(values, mergedValues, "group " + group);
            assertEquals(bare.get(group).length(), ((String) row[2]).length());
        }
        assertThrows(IllegalArgumentException.class,
                () -> new AggregateCall(AggregateFunction.STRING_AGG, 1, false, AggregateCall.NO_FILTER, SqlType.varchar(9), "x"));
        ColumbaException notText = assertThrows(ColumbaException.class, () -> run(new HashAggregateOperator(
                ListSource.of(schema, rows, 16), List.of(1), List.of(AggregateCall.stringAgg(0, ",", "x"))), context(16)));
        assertEquals(ErrorCode.WRONG_TYPE, notText.errorCode());
    }

    /**
     * MIN and MAX of whole numbers take a loop per width that reads no validity in batches without
     * NULLs: the extremes of each type, -1 and 0, batches with and without NULLs, several groups.
     */
    @Test
    void wholeNumberExtremesAtTheEndsOfTheirRangesWithAndWithoutNulls() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("i", SqlType.INT),
                Column.nullable("l", SqlType.BIGINT));
        long[] longs = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 42};
        int[] ints = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 7, -7, Integer.MIN_VALUE + 1, 3};
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 96; row++) {
            // Rows 0-31 have no NULLs (four batches of 8), then every fifth row is NULL.
            boolean nullRow = row >= 32 && row % 5 == 0;
            rows.add(new Object[] {row % 4, nullRow ? null : ints[(row * 3) % ints.length],
                    nullRow ? null : longs[(row * 5 + row / 8) % longs.length]});
        }
        rows.add(new Object[] {9, null, null});
        List<AggregateCall> calls = List.of(AggregateCall.of(MIN, 1, false, schema, "min_i"), AggregateCall.of(MAX, 1, false, schema, "max_i"),
                AggregateCall.of(MIN, 2, false, schema, "min_l"), AggregateCall.of(MAX, 2, false, schema, "max_l"));
        for (List<Integer> keys : List.of(List.<Integer>of(), List.of(0))) {
            assertEquals(reference(rows, keys, calls).stream().map(Arrays::asList).toList(),
                    run(new HashAggregateOperator(ListSource.of(schema, rows, 8), keys, calls), context(8))
                            .stream().map(Arrays::asList).toList(), "keys " + keys);
        }
    }

    /**
     * Aggregates the input computed itself ({@link HashAggregateOperator#foldFrom}) add to those over
     * the rows it returned, as a partial state would: counts add, extremes compete, totals and their
     * counts add (an AVG sharing a SUM's pass is not added twice), NULL folded values change
     * nothing, and a total that no longer fits the SUM's type is 22003.
     */
    @Test
    void foldedAggregatesAddToThoseOverTheRows() {
        TableSchema schema = TableSchema.of(Column.nullable("v", SqlType.decimal(12, 2)), Column.nullable("t", SqlType.DATE));
        List<Object[]> rows = List.of(new Object[] {new BigDecimal("1.50"), java.time.LocalDate.of(1995, 1, 1)},
                new Object[] {null, java.time.LocalDate.of(1990, 1, 1)}, new Object[] {new BigDecimal("-2.25"), null});
        List<AggregateCall> calls = List.of(AggregateCall.countStar("n"), AggregateCall.of(COUNT, 0, false, schema, "nv"),
                AggregateCall.of(SUM, 0, false, schema, "total"), AggregateCall.of(AVG, 0, false, schema, "mean"),
                AggregateCall.of(MIN, 1, false, schema, "first"), AggregateCall.of(MAX, 1, false, schema, "last"),
                AggregateCall.of(MAX, 0, false, schema, "top"));
        List<FoldedAggregate> folded = List.of(new FoldedAggregate(10, null), new FoldedAggregate(8, null),
                new FoldedAggregate(8, new BigDecimal("100.00")), new FoldedAggregate(8, new BigDecimal("100.00")),
                new FoldedAggregate(0, java.time.LocalDate.of(1992, 6, 1)), new FoldedAggregate(0, java.time.LocalDate.of(1998, 12, 1)),
                new FoldedAggregate(0, null));
        HashAggregateOperator aggregate = new HashAggregateOperator(ListSource.of(schema, rows, 2), List.of(), calls);
        aggregate.foldFrom(() -> folded);
        assertEquals(List.of(Arrays.asList(13L, 10L, new BigDecimal("99.25"), new BigDecimal("9.925000000000"),
                        java.time.LocalDate.of(1990, 1, 1), java.time.LocalDate.of(1998, 12, 1), new BigDecimal("1.50"))),
                run(aggregate, context(2)).stream().map(Arrays::asList).toList());

        // 10001.00 folded + (1.50 - 2.25) over the rows = 10000.25: past DECIMAL(6, 2), though the rows alone fit.
        List<AggregateCall> narrow = List.of(new AggregateCall(SUM, 0, false, AggregateCall.NO_FILTER, SqlType.decimal(6, 2), "total"));
        HashAggregateOperator overflowing = new HashAggregateOperator(ListSource.of(schema, rows, 2), List.of(), narrow);
        overflowing.foldFrom(() -> List.of(new FoldedAggregate(5, new BigDecimal("10001.00"))));
        ColumbaException overflow = assertThrows(ColumbaException.class, () -> run(overflowing, context(2)));
        assertEquals("22003", overflow.errorCode().sqlState());
        assertThrows(ColumbaException.class, () -> new HashAggregateOperator(ListSource.of(schema, rows, 2), List.of(0), narrow)
                .foldFrom(() -> List.of()), "not with GROUP BY");
    }

    @Test
    void decimalSumsNearTenToTheEighteenPassSixtyFourBitsExactly() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("v", SqlType.decimal(18, 0)));
        BigDecimal max = new BigDecimal("999999999999999999");
        List<Object[]> rows = new ArrayList<>();
        Map<Integer, BigDecimal> totals = new LinkedHashMap<>();
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        for (int row = 0; row < 61; row++) {
            int group = row % 3;
            BigDecimal value = switch (group) {
                case 0 -> max;
                case 1 -> row % 2 == 0 ? null : max.negate();
                default -> row % 4 == 0 ? max : BigDecimal.valueOf(-row);
            };
            rows.add(new Object[] {group, value});
            if (value != null) {
                totals.merge(group, value, BigDecimal::add);
                counts.merge(group, 1, Integer::sum);
            }
        }
        List<AggregateCall> calls = List.of(
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "total"),
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "mean"));
        // Batches of 5 rows: both running sums of a group pass 2^63 and spill, within and across batches.
        List<Object[]> result = run(new HashAggregateOperator(ListSource.of(schema, rows, 5), List.of(0), calls), context(5));
        List<List<Object>> expected = new ArrayList<>();
        for (int group = 0; group < 3; group++) {
            BigDecimal total = totals.get(group);
            expected.add(List.of(group, total, total.divide(BigDecimal.valueOf(counts.get(group)), 2, RoundingMode.HALF_UP)));
        }
        assertEquals(expected, result.stream().map(Arrays::asList).toList());
        assertEquals(0, totals.get(0).compareTo(max.multiply(BigDecimal.valueOf(21))));
    }

    @Test
    void aBigintSumPastSixtyFourBitsIsExactAndGroupsWithOnlyNullsSumToNull() {
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 5; row++) {
            rows.add(new Object[] {1, null, null, null, null, null, Long.MAX_VALUE - row});
            rows.add(new Object[] {2, null, null, null, null, null, Long.MIN_VALUE + row});
            rows.add(new Object[] {3, null, null, null, null, null, null});
            rows.add(new Object[] {4, null, null, null, null, null, row % 2 == 0 ? Long.MAX_VALUE : -1L});
        }
        List<AggregateCall> sums = List.of(
                new AggregateCall(SUM, 6, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "exact"),
                new AggregateCall(AVG, 6, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 1), "mean"));
        List<Object[]> result = run(new HashAggregateOperator(ListSource.of(SCHEMA, rows, 3), List.of(0), sums), context(3));
        BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
        BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
        BigInteger fourth = max.multiply(BigInteger.valueOf(3)).subtract(BigInteger.TWO);
        assertEquals(List.of(
                List.of(1, new BigDecimal(max.multiply(BigInteger.valueOf(5)).subtract(BigInteger.valueOf(10))),
                        new BigDecimal(max.multiply(BigInteger.valueOf(5)).subtract(BigInteger.valueOf(10))).divide(BigDecimal.valueOf(5), 1, RoundingMode.HALF_UP)),
                List.of(2, new BigDecimal(min.multiply(BigInteger.valueOf(5)).add(BigInteger.valueOf(10))),
                        new BigDecimal(min.multiply(BigInteger.valueOf(5)).add(BigInteger.valueOf(10))).divide(BigDecimal.valueOf(5), 1, RoundingMode.HALF_UP)),
                Arrays.asList(3, null, null),
                List.of(4, new BigDecimal(fourth), new BigDecimal(fourth).divide(BigDecimal.valueOf(5), 1, RoundingMode.HALF_UP))),
                result.stream().map(Arrays::asList).toList());
    }

    @Test
    void aDecimalSumPastSixtyFourBitsIsExactAndOnlyTheResultTypeLimitsIt() {
        // DECIMAL(18, 0) values of 18 nines: ten of them pass 2^63, so the running sums spill to 128 bits often.
        TableSchema schema = TableSchema.of(Column.nullable("d", SqlType.decimal(18, 0)));
        BigDecimal largest = new BigDecimal("999999999999999999");
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            rows.add(new Object[] {row % 3 == 0 ? largest.negate() : row % 7 == 0 ? null : largest});
        }
        long positives = rows.stream().filter(row -> row[0] != null && ((BigDecimal) row[0]).signum() > 0).count();
        BigDecimal expected = largest.multiply(BigDecimal.valueOf(positives - 1000));
        assertEquals(List.of(expected), run(new HashAggregateOperator(ListSource.of(schema, rows, 64), List.of(),
                List.of(new AggregateCall(SUM, 0, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "total"))), context(64))
                .stream().map(row -> row[0]).toList());
        ColumbaException overflow = assertThrows(ColumbaException.class, () -> run(new HashAggregateOperator(
                ListSource.of(schema, rows, 64), List.of(),
                List.of(new AggregateCall(SUM, 0, false, AggregateCall.NO_FILTER, SqlType.decimal(18, 0), "total"))), context(64)));
        assertEquals("22003", overflow.errorCode().sqlState());
    }
    /**
     * Batches without NULLs take the DECIMAL loop that reads no validity: values that need 128
     * bits, running sums that pass 2^63, an odd number of rows a batch (the last row after the
     * pairs) and three groups, against totals in BigDecimal.
     */
    @Test
    void decimalSumsOfBatchesWithoutNullsAreExactWithWideValuesAndOddBatches() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("v", SqlType.decimal(30, 0)));
        BigDecimal wide = new BigDecimal("1" + "0".repeat(25));
        BigDecimal nearLongMax = new BigDecimal(Long.MAX_VALUE - 5);
        List<Object[]> rows = new ArrayList<>();
        Map<Integer, BigDecimal> totals = new LinkedHashMap<>();
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        for (int row = 0; row < 97; row++) {
            int group = (row * 7) % 3;
            BigDecimal value = switch (row % 5) {
                case 0 -> wide.add(BigDecimal.valueOf(row));
                case 1 -> wide.negate().subtract(BigDecimal.valueOf(row));
                case 2, 3 -> nearLongMax;
                default -> BigDecimal.valueOf(-row);
            };
            rows.add(new Object[] {group, value});
            totals.merge(group, value, BigDecimal::add);
            counts.merge(group, 1, Integer::sum);
        }
        List<AggregateCall> calls = List.of(
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "total"),
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "mean"));
        List<Object[]> result = run(new HashAggregateOperator(ListSource.of(schema, rows, 7), List.of(0), calls), context(7));
        List<List<Object>> expected = new ArrayList<>();
        for (int group : totals.keySet()) {
            BigDecimal total = totals.get(group);
            expected.add(List.of(group, total, total.divide(BigDecimal.valueOf(counts.get(group)), 2, RoundingMode.HALF_UP)));
        }
        assertEquals(expected, result.stream().map(Arrays::asList).toList());
    }

    /**
     * Many groups: once the table passes {@code PAIRED_GROUPS} the sums and counts fold their odd
     * halves in and keep one array each, and the 128-bit part is allocated at the first sum past
     * 64 bits. Sums already past 64 bits and split between both halves before the fold, sums that
     * pass 64 bits only after it, NULLs, COUNT(*) and COUNT(column), against BigDecimal totals.
     */
    @Test
    void manyGroupsFoldTheirPairedSumsAndCountsExactly() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("v", SqlType.BIGINT));
        int early = 1000;
        int groups = Accumulators.ExactSumAccumulator.PAIRED_GROUPS * 3;
        List<Object[]> rows = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            for (int group = 0; group < early; group++) {
                rows.add(new Object[] {group, group % 3 == 0 ? Long.MAX_VALUE - round : (long) round});
            }
        }
        for (int group = 0; group < groups; group++) {
            rows.add(new Object[] {group, group % 11 == 0 ? null : (long) group});
        }
        for (int round = 0; round < 3; round++) {
            for (int group = groups - 50; group < groups; group++) {
                rows.add(new Object[] {group, Long.MIN_VALUE + round});
            }
        }
        Map<Integer, BigDecimal> totals = new TreeMap<>();
        Map<Integer, Long> values = new TreeMap<>();
        Map<Integer, Long> stars = new TreeMap<>();
        for (Object[] row : rows) {
            int group = (Integer) row[0];
            stars.merge(group, 1L, Long::sum);
            values.merge(group, row[1] == null ? 0L : 1L, Long::sum);
            if (row[1] != null) {
                totals.merge(group, BigDecimal.valueOf((Long) row[1]), BigDecimal::add);
            }
        }
        List<AggregateCall> calls = List.of(
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "total"),
                AggregateCall.countStar("n"),
                AggregateCall.of(COUNT, 1, false, schema, "counted"));
        List<Object[]> result = new ArrayList<>(run(new HashAggregateOperator(ListSource.of(schema, rows, 1001), List.of(0),
                calls), context(1001)));
        result.sort(Comparator.comparingInt(row -> (Integer) row[0]));
        assertEquals(groups, result.size());
        for (Object[] row : result) {
            int group = (Integer) row[0];
            assertEquals(Arrays.asList(group, totals.get(group), stars.get(group), values.get(group)), Arrays.asList(row),
                    "group " + group);
        }
    }

    /**
     * Sums over few groups in batches of hundreds of rows (TPC-H Q1's shape): INT, BIGINT and
     * DECIMAL sums that pass 2^63 and spill, DECIMAL values wider than a long, negative values,
     * NULL keys, NULLs in some batches only, a DOUBLE sum (added in input order, so equal to the
     * sequential sum exactly), COUNT(*) and COUNT(column); once in one aggregation and once split
     * over two workers and merged (MAXDOP 2), against BigDecimal totals; a total past the result
     * type is 22003.
     */
    @Test
    void fewGroupsSumExactlyInOneAggregationAndSplitOverTwoWorkers() {
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("i", SqlType.INT),
                Column.nullable("b", SqlType.BIGINT), Column.nullable("d", SqlType.decimal(18, 2)),
                Column.nullable("w", SqlType.decimal(30, 0)), Column.nullable("x", SqlType.DOUBLE));
        BigDecimal largest = new BigDecimal("9999999999999999.99");
        BigDecimal wide = new BigDecimal("1" + "0".repeat(25));
        java.util.Random random = new java.util.Random(11);
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            Integer key = row % 97 == 0 ? null : random.nextInt(4);
            boolean nulls = row >= 1024 && row < 1536 && row % 3 == 0;
            rows.add(new Object[] {
                key,
                nulls ? null : (row % 2 == 0 ? Integer.MAX_VALUE - row : -row),
                nulls ? null : (row % 5 == 0 ? -row : Long.MAX_VALUE - row),
                nulls ? null : (row % 4 == 3 ? largest.negate() : row % 4 == 1 ? BigDecimal.valueOf(-row, 2) : largest),
                row % 11 == 0 ? wide.negate().subtract(BigDecimal.valueOf(row)) : row % 7 == 0 ? wide : BigDecimal.valueOf(row),
                nulls ? null : (row % 13) / 8.0 - 0.7
            });
        }
        List<AggregateCall> calls = List.of(
                AggregateCall.countStar("n"),
                new AggregateCall(COUNT, 3, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "count_d"),
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "sum_i"),
                new AggregateCall(SUM, 2, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "sum_b"),
                new AggregateCall(SUM, 3, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "sum_d"),
                new AggregateCall(AVG, 3, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "avg_d"),
                new AggregateCall(SUM, 4, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "sum_w"),
                new AggregateCall(SUM, 5, false, AggregateCall.NO_FILTER, SqlType.DOUBLE, "sum_x"));
        Map<Integer, List<Object[]>> groups = new LinkedHashMap<>();
        for (Object[] row : rows) {
            groups.computeIfAbsent((Integer) row[0], ignored -> new ArrayList<>()).add(row);
        }
        Map<Integer, List<Object>> expected = new java.util.HashMap<>();
        for (Map.Entry<Integer, List<Object[]>> group : groups.entrySet()) {
            long counted = 0;
            BigDecimal[] totals = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
            double doubleSum = 0;
            for (Object[] row : group.getValue()) {
                for (int column = 1; column <= 4; column++) {
                    if (row[column] != null) {
                        totals[column - 1] = totals[column - 1].add(row[column] instanceof BigDecimal decimal
                                ? decimal : BigDecimal.valueOf(((Number) row[column]).longValue()));
                    }
                }
                counted += row[3] == null ? 0 : 1;
                doubleSum += row[5] == null ? 0 : (Double) row[5];
            }
            expected.put(group.getKey(), Arrays.asList((long) group.getValue().size(), counted, totals[0], totals[1],
                    totals[2].setScale(2), totals[2].divide(BigDecimal.valueOf(counted), 2, RoundingMode.HALF_UP), totals[3], doubleSum));
        }
        for (int workers : new int[] {1, 2}) {
            Operator aggregate;
            if (workers == 1) {
                aggregate = new HashAggregateOperator(ListSource.of(schema, rows, 256), List.of(0), calls);
            } else {
                List<Operator> partials = List.of(
                        HashAggregateOperator.partial(ListSource.of(schema, rows.subList(0, 1400), 256), List.of(0), calls),
                        HashAggregateOperator.partial(ListSource.of(schema, rows.subList(1400, rows.size()), 200), List.of(0), calls));
                aggregate = HashAggregateOperator.merging(new GatherOperator(partials), 1, calls,
                        HashAggregateOperator.argumentTypes(schema, calls));
            }
            List<Object[]> result = run(aggregate, context(256));
            assertEquals(groups.size(), result.size(), workers + " workers");
            for (Object[] row : result) {
                List<Object> values = Arrays.asList(row).subList(1, row.length);
                List<Object> wanted = new ArrayList<>(expected.get((Integer) row[0]));
                if (workers == 2) {
                    // Two workers' DOUBLE sums are added in another order: compared to the nearest thousandth.
                    assertEquals((Double) wanted.getLast(), (Double) values.getLast(), 1e-3, "sum_x of group " + row[0]);
                    wanted.set(wanted.size() - 1, values.getLast());
                }
                assertEquals(wanted, values, "group " + row[0] + ", " + workers + " workers");
            }
        }
        ColumbaException overflow = assertThrows(ColumbaException.class, () -> run(new HashAggregateOperator(
                ListSource.of(schema, rows, 256), List.of(0),
                List.of(new AggregateCall(SUM, 3, false, AggregateCall.NO_FILTER, SqlType.decimal(18, 2), "total"))), context(256)));
        assertEquals("22003", overflow.errorCode().sqlState(), overflow.getMessage());
    }

    /**
     * SUM and AVG over products of DECIMAL columns and literal ± column factors, which the
     * aggregation takes over from the projection and computes at native width
     * ({@code DecimalProducts}), against BigDecimal: negative values, batches with NULLs, batches
     * with a product beyond a long (computed by the kernels instead), one aggregation and two
     * workers' partial aggregations; overflow of a product's or a factor's precision is 22003.
     */
    @Test
    void productsSummedByTheAggregationMatchBigDecimal() {
        long seed = Long.getLong("columba.test.seed", 20261127L);
        System.out.println("productsSummedByTheAggregationMatchBigDecimal seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        SqlType money = SqlType.decimal(15, 2);
        SqlType whole = SqlType.decimal(18, 0);
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("p", money),
                Column.nullable("d", money), Column.nullable("t", money), Column.nullable("b", whole));
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            int batch = row / 256;
            BigDecimal price = BigDecimal.valueOf(random.nextLong(-10_000_000L, 10_000_000L), 2);
            BigDecimal discount = BigDecimal.valueOf(random.nextInt(-150, 150), 2);
            BigDecimal tax = BigDecimal.valueOf(random.nextInt(-9, 9), 2);
            BigDecimal large = BigDecimal.valueOf(random.nextLong(-1000, 1000));
            if (batch == 3 && row % 50 == 7) {
                // Products past 2^63 in this batch: the kernels compute it.
                price = new BigDecimal("9999999999999.99");
                discount = new BigDecimal("-9999999999999.99");
                // 1 + tax is 0.01, unscaled 1: a discounted price past 2^63 keeps the charge's product in range.
                tax = new BigDecimal("-0.99");
            }
            if (batch == 6 && row % 40 == 3) {
                large = new BigDecimal("-999999999999999999");
            }
            boolean nulls = batch == 5 && row % 3 == 0;
            rows.add(new Object[] {random.nextInt(4), price, nulls ? null : discount, tax, row % 17 == 0 && batch == 8 ? null : large});
        }
        Expr p = new Expr.ColumnReference(1, money);
        Expr d = new Expr.ColumnReference(2, money);
        Expr t = new Expr.ColumnReference(3, money);
        Expr b = new Expr.ColumnReference(4, whole);
        Expr one = new Expr.Literal(1, SqlType.INT);
        Expr discounted = Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, p, Expr.Arithmetic.of(ArithmeticOperator.SUBTRACT, one, d));
        List<Expr> expressions = List.of(new Expr.ColumnReference(0, SqlType.INT),
                discounted,
                Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, discounted, Expr.Arithmetic.of(ArithmeticOperator.ADD, one, t)),
                Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, b, d),
                Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, Expr.Arithmetic.of(ArithmeticOperator.ADD, t,
                        new Expr.Literal(new BigDecimal("0.5"), SqlType.decimal(2, 1))), p));
        List<AggregateCall> calls = new ArrayList<>();
        for (int column = 1; column < expressions.size(); column++) {
            int scale = ((SqlType.DecimalType) expressions.get(column).type()).scale();
            calls.add(new AggregateCall(SUM, column, false, AggregateCall.NO_FILTER, SqlType.decimal(38, scale), "sum" + column));
            calls.add(new AggregateCall(AVG, column, false, AggregateCall.NO_FILTER, SqlType.decimal(38, scale), "avg" + column));
        }
        calls.add(AggregateCall.countStar("n"));
        Map<Integer, List<Object>> expected = new java.util.HashMap<>();
        for (int key = 0; key < 4; key++) {
            List<Object> wanted = new ArrayList<>();
            for (int column = 1; column < expressions.size(); column++) {
                int scale = ((SqlType.DecimalType) expressions.get(column).type()).scale();
                BigDecimal total = BigDecimal.ZERO;
                long counted = 0;
                for (Object[] row : rows) {
                    BigDecimal product = (int) row[0] == key ? product(column, row) : null;
                    if (product != null) {
                        total = total.add(product);
                        counted++;
                    }
                }
                wanted.add(counted == 0 ? null : total.setScale(scale));
                wanted.add(counted == 0 ? null : total.divide(BigDecimal.valueOf(counted), scale, RoundingMode.HALF_UP));
            }
            final int group = key;
            wanted.add(rows.stream().filter(row -> (int) row[0] == group).count());
            expected.put(key, wanted);
        }
        for (int workers : new int[] {1, 2}) {
            List<HashAggregateOperator> aggregations = new ArrayList<>();
            Operator aggregate;
            if (workers == 1) {
                HashAggregateOperator complete = new HashAggregateOperator(project(schema, rows, expressions), List.of(0), calls);
                aggregations.add(complete);
                aggregate = complete;
            } else {
                aggregations.add(HashAggregateOperator.partial(project(schema, rows.subList(0, 1300), expressions), List.of(0), calls));
                aggregations.add(HashAggregateOperator.partial(project(schema, rows.subList(1300, rows.size()), expressions),
                        List.of(0), calls));
                List<Operator> partials = new ArrayList<>(aggregations);
                TableSchema projected = aggregations.getFirst().inputSchema();
                aggregate = HashAggregateOperator.merging(new GatherOperator(partials), 1, calls,
                        HashAggregateOperator.argumentTypes(projected, calls));
            }
            for (HashAggregateOperator aggregation : aggregations) {
                // Each of the four products is computed by the aggregation (its AVG shares the SUM).
                assertEquals(4, aggregation.productsSummed(), workers + " workers");
            }
            List<Object[]> result = run(aggregate, context(256));
            assertEquals(4, result.size(), workers + " workers");
            for (Object[] row : result) {
                assertEquals(expected.get((Integer) row[0]), Arrays.asList(row).subList(1, row.length),
                        "group " + row[0] + ", " + workers + " workers");
            }
        }
        // A product's and a factor's precision passed: the kernels raise 22003 for the batch.
        Expr narrowProduct = new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, p, p, SqlType.decimal(12, 4));
        Expr narrowFactor = new Expr.Arithmetic(ArithmeticOperator.MULTIPLY, p,
                new Expr.Arithmetic(ArithmeticOperator.SUBTRACT, one, d, SqlType.decimal(3, 2)), SqlType.decimal(38, 4));
        List<Object[]> overflowing = List.of(new Object[] {1, new BigDecimal("0.50"), new BigDecimal("0.10"), BigDecimal.ZERO, BigDecimal.ONE},
                new Object[] {1, new BigDecimal("100000.00"), new BigDecimal("-9.00"), BigDecimal.ZERO, BigDecimal.ONE});
        for (Expr product : List.of(narrowProduct, narrowFactor)) {
            List<AggregateCall> sum = List.of(new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 4), "total"));
            assertEquals(List.<Object>of(new BigDecimal(product == narrowProduct ? "0.2500" : "0.4500")),
                    Arrays.asList(run(new HashAggregateOperator(project(schema, overflowing.subList(0, 1),
                            List.of(new Expr.ColumnReference(0, SqlType.INT), product)), List.of(), sum), context(256)).getFirst()));
            HashAggregateOperator failing = new HashAggregateOperator(project(schema, overflowing,
                    List.of(new Expr.ColumnReference(0, SqlType.INT), product)), List.of(), sum);
            assertEquals(1, failing.productsSummed());
            ColumbaException overflow = assertThrows(ColumbaException.class, () -> run(failing, context(256)));
            assertEquals("22003", overflow.errorCode().sqlState(), overflow.getMessage());
        }
    }

    /**
     * Columns handed on as stored longs ({@code NativeLongs}, as a columnstore scan hands on the
     * columns an aggregation only sums) give the answers their vectors give: SUM and AVG of a
     * narrow DECIMAL, of a BIGINT whose sums pass 2^63 and of an INT, negative values, and the
     * products of a projection, over batches with selection vectors; batches with a NULL carry no
     * longs, and a group whose values are all NULL sums to NULL; calls that read the vector (MIN,
     * COUNT of the column) and a projection computing over the column ask for it; one aggregation
     * and two workers' partial aggregations. The source leaves a deferred vector all NULL, so a
     * reader that does not ask gets a wrong answer.
     */
    @Test
    void columnsHandedOnAsStoredLongsSumAsTheirVectorsDo() {
        long seed = Long.getLong("columba.test.seed", 20261127L);
        System.out.println("columnsHandedOnAsStoredLongsSumAsTheirVectorsDo seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        SqlType money = SqlType.decimal(15, 2);
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("q", money),
                Column.nullable("b", SqlType.BIGINT), Column.nullable("i", SqlType.INT), Column.nullable("d", money),
                Column.nullable("t", money));
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            boolean nullRegion = row >= 1280 && row < 1536;
            // Group 4 only where its q is NULL: its SUM(q) is NULL, its other sums are not.
            int key = nullRegion && row % 5 == 0 ? 4 : random.nextInt(4);
            BigDecimal quantity = key == 4 || (nullRegion && row % 3 == 0) ? null
                    : BigDecimal.valueOf(random.nextLong(-10_000_000L, 10_000_000L), 2);
            long big = row % 7 == 0 ? -random.nextLong(1L << 62) : (1L << 62) + random.nextLong(1L << 40);
            rows.add(new Object[] {key, quantity, big, random.nextInt(-1000, 1000),
                    BigDecimal.valueOf(random.nextInt(-150, 150), 2), BigDecimal.valueOf(random.nextInt(-9, 9), 2)});
        }
        List<AggregateCall> plain = List.of(
                new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "sum_q"),
                new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "avg_q"),
                new AggregateCall(SUM, 2, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 0), "sum_b"),
                new AggregateCall(AVG, 3, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 3), "avg_i"),
                new AggregateCall(SUM, 3, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "sum_i"),
                new AggregateCall(MIN, 4, false, AggregateCall.NO_FILTER, money, "min_d"),
                new AggregateCall(COUNT, 5, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "count_t"),
                new AggregateCall(SUM, 5, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 2), "sum_t"),
                AggregateCall.countStar("n"));
        int[] handed = {1, 2, 3, 4, 5};
        for (int workers : new int[] {1, 2}) {
            assertEquals(sorted(run(aggregated(schema, rows, null, plain, workers, handed), context(256))),
                    sorted(run(aggregated(schema, rows, null, plain, workers), context(256))), workers + " workers");
        }
        Expr q = new Expr.ColumnReference(1, money);
        Expr d = new Expr.ColumnReference(4, money);
        Expr t = new Expr.ColumnReference(5, money);
        Expr one = new Expr.Literal(1, SqlType.INT);
        Expr discounted = Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, q, Expr.Arithmetic.of(ArithmeticOperator.SUBTRACT, one, d));
        Expr charge = Expr.Arithmetic.of(ArithmeticOperator.MULTIPLY, discounted, Expr.Arithmetic.of(ArithmeticOperator.ADD, one, t));
        List<AggregateCall> products = new ArrayList<>();
        List<Expr> expressions = List.of(new Expr.ColumnReference(0, SqlType.INT), discounted, charge, d);
        for (int column = 1; column < expressions.size(); column++) {
            int scale = ((SqlType.DecimalType) expressions.get(column).type()).scale();
            products.add(new AggregateCall(SUM, column, false, AggregateCall.NO_FILTER, SqlType.decimal(38, scale), "sum" + column));
        }
        // The products as the aggregation computes them from the longs; then a projection that
        // computes over the columns itself (a sum, not a product), which must ask for the vectors.
        List<Expr> computed = List.of(new Expr.ColumnReference(0, SqlType.INT),
                Expr.Arithmetic.of(ArithmeticOperator.ADD, q, d), d);
        for (List<Expr> projected : List.of(expressions, computed)) {
            List<AggregateCall> calls = projected == expressions ? products : products.subList(0, 1);
            for (int workers : new int[] {1, 2}) {
                assertEquals(sorted(run(aggregated(schema, rows, projected, calls, workers), context(256))),
                        sorted(run(aggregated(schema, rows, projected, calls, workers, handed), context(256))),
                        projected + ", " + workers + " workers");
            }
        }
        // A BIGINT total past its type is 22003 from the stored longs as from the vector.
        List<AggregateCall> bigintSum = List.of(new AggregateCall(SUM, 2, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "sum_b"));
        ColumbaException overflow = assertThrows(ColumbaException.class,
                () -> run(aggregated(schema, rows, null, bigintSum, 1, handed), context(256)));
        assertEquals("22003", overflow.errorCode().sqlState(), overflow.getMessage());
        // A product past a long in one batch is computed by the kernels, which ask for the vectors.
        List<Object[]> wide = new ArrayList<>(rows.subList(0, 600));
        wide.set(300, new Object[] {1, new BigDecimal("9999999999999.99"), 5L, 1, new BigDecimal("-9999999999999.99"),
                new BigDecimal("-0.99")});
        for (int workers : new int[] {1, 2}) {
            assertEquals(sorted(run(aggregated(schema, wide, expressions, products, workers), context(256))),
                    sorted(run(aggregated(schema, wide, expressions, products, workers, handed), context(256))), "wide products");
        }
    }

    /**
     * A projection widening an INT column to BIGINT ({@code CAST(i AS BIGINT)}, the peers suite's
     * four sums) hands the column's stored longs on while its source defers the vector: the
     * projection's batches carry them, defined and deferred, without the source's vector or the
     * cast's being written; the sums and averages from them equal those of the vectors, and a MIN of
     * the widened column (which reads the vector) asks for it. Batches with a NULL carry no longs and
     * are cast as before; a cast that two outputs share is computed (and asks for the vector).
     */
    @Test
    void widenedIntColumnsHandOnTheirStoredLongs() {
        long seed = Long.getLong("columba.test.seed", 20261128L);
        System.out.println("widenedIntColumnsHandOnTheirStoredLongs seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("i", SqlType.INT),
                Column.nullable("j", SqlType.INT));
        List<Object[]> rows = new ArrayList<>();
        List<Object[]> complete = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            boolean nullRegion = row >= 1280 && row < 1536;
            int value = random.nextInt();
            int key = random.nextInt(4);
            Object extreme = row % 2 == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE;
            rows.add(new Object[] {key, nullRegion && row % 3 == 0 ? null : value, extreme});
            complete.add(new Object[] {key, value, extreme});
        }
        long sumJ = 0;
        for (Object[] row : rows) {
            sumJ += (Integer) row[2];
        }
        assertEquals(-1500L, sumJ);
        Expr k = new Expr.ColumnReference(0, SqlType.INT);
        Expr widenedI = new Expr.Cast(new Expr.ColumnReference(1, SqlType.INT), SqlType.BIGINT);
        Expr widenedJ = new Expr.Cast(new Expr.ColumnReference(2, SqlType.INT), SqlType.BIGINT);
        // MIN of the widened column itself (its vector written from the longs when asked), then of a
        // second output with the same cast, which the projection computes once for both.
        for (int minimum : new int[] {1, 3}) {
            List<AggregateCall> calls = List.of(
                    new AggregateCall(SUM, 1, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "sum_i"),
                    new AggregateCall(AVG, 1, false, AggregateCall.NO_FILTER, SqlType.decimal(38, 6), "avg_i"),
                    new AggregateCall(SUM, 2, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "sum_j"),
                    new AggregateCall(MIN, minimum, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "min"),
                    AggregateCall.countStar("n"));
            List<Expr> projected = minimum == 1 ? List.of(k, widenedI, widenedJ) : List.of(k, widenedI, widenedJ, widenedJ);
            for (List<Object[]> input : List.of(rows, complete)) {
                for (int workers : new int[] {1, 2}) {
                    List<List<Object>> expected = sorted(run(aggregated(schema, input, projected, calls, workers), context(256)));
                    assertEquals(expected, sorted(run(aggregated(schema, input, projected, calls, workers, 1, 2), context(256))),
                            projected + ", " + workers + " workers");
                    assertEquals(sumJ, expected.stream().mapToLong(row -> (Long) row.get(3)).sum());
                }
            }
        }
        // The projection's own batches: the widened column's longs handed on, nothing written until
        // asked; over rows with NULLs and no selection, then over rows without and with selections.
        for (List<Object[]> input : List.of(rows, complete)) {
            java.util.Random selections = input == rows ? null : new java.util.Random(7);
            ProjectOperator projection = new ProjectOperator(new ListSource(schema, input, 256, selections, -1).handOnLongs(1),
                    List.of(k, widenedI), List.of("k", "wide_i"));
            projection.open(context(256));
            try {
                int handedOn = 0;
                int rowIndex = 0;
                for (Batch batch = projection.next(); batch != null; batch = projection.next()) {
                    dev.columba.core.batch.NativeLongs longs = batch.longs(1);
                    List<Object[]> live = input.subList(rowIndex, rowIndex + batch.selectedCount());
                    List<Object> widened = live.stream().map(row -> row[1] == null ? null : (Object) ((Integer) row[1]).longValue()).toList();
                    if (live.stream().anyMatch(row -> row[1] == null)) {
                        assertTrue(longs == null || !longs.defined(), "a batch with a NULL hands on no longs");
                    } else {
                        handedOn++;
                        assertTrue(longs != null && longs.defined() && longs.deferred(), "handed on, vector deferred");
                        assertEquals(widened.getFirst(), longs.values()[batch.selectedRow(0)]);
                        longs.materialize();
                        assertTrue(!longs.deferred());
                    }
                    assertEquals(widened, TestBatches.rows(batch, projection.schema()).stream().map(row -> row[1]).toList(),
                            "rows from " + rowIndex);
                    rowIndex += batch.selectedCount();
                }
                assertEquals(input.size(), rowIndex);
                assertTrue(input == rows ? handedOn >= 8 : handedOn == (input.size() + 255) / 256, handedOn + " batches handed on");
            } finally {
                projection.close();
            }
        }
    }

    /**
     * MIN and MAX of strings compared by their first eight bytes first ({@code
     * ExtremeAccumulator.prefix}) are those of unsigned byte-wise comparison: strings shorter than
     * eight bytes, strings that differ only past the eighth byte, a zero byte against the end of a
     * shorter string ("a" and "a\0"), bytes above 0x7F, the empty string and NULLs; the prefixes
     * read from a vector's bytes equal those of the byte arrays, and wherever two prefixes differ
     * they order the strings as the bytes do.
     */
    @Test
    void minAndMaxOfStringsByPrefixAreThoseOfTheBytes() {
        String[] pool = {"", "a", "a\0", "a\0\0\0\0\0\0\0x", "a\0\0\0\0\0\0\0", "abcdefgh", "abcdefgh\0", "abcdefghi",
            "abcdefgg\u00ff", "abcdefg", "\u00e9", "\u00e9t\u00e9", "zzzzzzzz", "zzzzzzzz\u0001", "zzzzzzzy\u007f",
            "\uD83D\uDE00", "\uFF61", "\u007f\u007f\u007f\u007f\u007f\u007f\u007f\u007f\u007f"};
        byte[][] utf8 = new byte[pool.length][];
        for (int index = 0; index < pool.length; index++) {
            utf8[index] = pool[index].getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        try (org.apache.arrow.vector.VarCharVector vector = new org.apache.arrow.vector.VarCharVector("s", queryAllocator)) {
            vector.allocateNew();
            for (int index = 0; index < pool.length; index++) {
                vector.setSafe(index, utf8[index]);
            }
            vector.setValueCount(pool.length);
            for (int left = 0; left < pool.length; left++) {
                long prefix = Accumulators.ExtremeAccumulator.prefix(utf8[left]);
                assertEquals(prefix, Accumulators.ExtremeAccumulator.prefix(vector.getDataBuffer(),
                        vector.getStartOffset(left), vector.getEndOffset(left)), pool[left]);
                for (int right = 0; right < pool.length; right++) {
                    int byPrefix = Long.compareUnsigned(prefix, Accumulators.ExtremeAccumulator.prefix(utf8[right]));
                    if (byPrefix != 0) {
                        assertEquals(Integer.signum(Arrays.compareUnsigned(utf8[left], utf8[right])), Integer.signum(byPrefix),
                                pool[left] + " against " + pool[right]);
                    }
                }
            }
        }
        long seed = Long.getLong("columba.test.seed", 20261128L);
        System.out.println("minAndMaxOfStringsByPrefixAreThoseOfTheBytes seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("s", SqlType.varchar(20)));
        List<Object[]> rows = new ArrayList<>();
        Map<Integer, byte[][]> extremes = new TreeMap<>();
        for (int row = 0; row < 3000; row++) {
            int key = random.nextInt(5);
            String value = key == 4 || random.nextInt(8) == 0 ? null : pool[random.nextInt(pool.length)];
            rows.add(new Object[] {key, value});
            byte[][] best = extremes.computeIfAbsent(key, ignored -> new byte[2][]);
            if (value != null) {
                byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                if (best[0] == null || Arrays.compareUnsigned(bytes, best[0]) < 0) {
                    best[0] = bytes;
                }
                if (best[1] == null || Arrays.compareUnsigned(bytes, best[1]) > 0) {
                    best[1] = bytes;
                }
            }
        }
        List<List<Object>> expected = new ArrayList<>();
        for (Map.Entry<Integer, byte[][]> entry : extremes.entrySet()) {
            byte[][] best = entry.getValue();
            expected.add(Arrays.asList(entry.getKey(),
                    best[0] == null ? null : new String(best[0], java.nio.charset.StandardCharsets.UTF_8),
                    best[1] == null ? null : new String(best[1], java.nio.charset.StandardCharsets.UTF_8)));
        }
        SqlType text = SqlType.varchar(20);
        List<AggregateCall> calls = List.of(new AggregateCall(MIN, 1, false, AggregateCall.NO_FILTER, text, "min_s"),
                new AggregateCall(MAX, 1, false, AggregateCall.NO_FILTER, text, "max_s"));
        for (int workers : new int[] {1, 2}) {
            assertEquals(expected, sorted(run(aggregated(schema, rows, null, calls, workers), context(256))), workers + " workers");
        }
    }

    /**
     * MIN and MAX of strings taken from dictionary codes ({@code CodedStrings}, as a columnstore scan
     * hands on the strings it defers) give the answers the strings give: code point order (U+1F600
     * after U+FF61, though UTF-16 orders them the other way), prefixes, the empty string, NULLs, a
     * group whose values are all NULL, codes in two interleaved ordered runs and batches whose
     * codes have no known order, over batches with selection vectors; with FILTER and DISTINCT
     * calls and COUNT of the column (which read the strings), without groups, with a few groups and
     * with more groups than the codes' pass serves; one aggregation and two workers' partial ones.
     * The source leaves a deferred vector holding empty strings, so a reader that does not ask for
     * the strings gets a wrong answer.
     */
    @Test
    void minAndMaxOfCodedStringsAreThoseOfTheStrings() {
        long seed = Long.getLong("columba.test.seed", 20261128L);
        System.out.println("minAndMaxOfCodedStringsAreThoseOfTheStrings seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        String[] pool = {"b", "ab", "a", "abc", "\uD83D\uDE00", "\uFF61", "\u00E9t\u00E9", "zz", "z", "m\u00FCller", "mu"};
        TableSchema schema = TableSchema.of(Column.nullable("k", SqlType.INT), Column.nullable("s", SqlType.varchar(20)),
                Column.nullable("f", SqlType.BOOLEAN), Column.nullable("wide", SqlType.INT));
        List<Object[]> rows = new ArrayList<>();
        for (int row = 0; row < 3000; row++) {
            boolean nullRegion = row >= 1024 && row < 1536;
            int key = nullRegion && row % 5 == 0 ? 4 : random.nextInt(4);
            String value = key == 4 || (nullRegion && row % 3 != 0) || random.nextInt(10) == 0 ? null
                    : key == 3 && random.nextInt(20) == 0 ? "" : random.nextInt(4) == 0
                    ? pool[random.nextInt(pool.length)] + random.nextInt(1000) : pool[random.nextInt(pool.length)];
            rows.add(new Object[] {key, value, random.nextBoolean(), row % 1500});
        }
        SqlType text = SqlType.varchar(20);
        List<AggregateCall> calls = List.of(
                new AggregateCall(MIN, 1, false, AggregateCall.NO_FILTER, text, "min_s"),
                new AggregateCall(MAX, 1, false, AggregateCall.NO_FILTER, text, "max_s"),
                new AggregateCall(MIN, 1, false, 2, text, "min_s_where_f"),
                new AggregateCall(MAX, 1, true, AggregateCall.NO_FILTER, text, "max_distinct_s"),
                new AggregateCall(COUNT, 1, false, AggregateCall.NO_FILTER, SqlType.BIGINT, "count_s"));
        for (List<Integer> keys : List.of(List.<Integer>of(), List.of(0), List.of(3))) {
            for (int workers : new int[] {1, 2}) {
                // A DISTINCT call cannot be split between workers.
                List<AggregateCall> used = workers == 1 ? calls : calls.stream().filter(call -> !call.distinct()).toList();
                List<List<Object>> expected = sortedRows(run(aggregatedBy(keys, schema, rows, used, workers, false), context(256)));
                List<List<Object>> actual = sortedRows(run(aggregatedBy(keys, schema, rows, used, workers, true), context(256)));
                assertEquals(expected, actual, "keys " + keys + ", " + workers + " workers");
                if (keys.equals(List.of(0))) {
                    // The codes must decide: group 0's extremes are no empty string, group 4's are NULL.
                    assertEquals(List.of(0, "a"), expected.getFirst().subList(0, 2), "group 0");
                    assertTrue(((String) expected.getFirst().get(2)).startsWith("\uD83D\uDE00"), "group 0: " + expected.getFirst());
                    assertEquals(Arrays.asList(4, null, null, null), expected.getLast().subList(0, 4), "group 4");
                    assertEquals(0L, expected.getLast().getLast(), "group 4");
                }
            }
        }
    }

    /** An aggregation by {@code keys} of {@code rows}, alone or as two workers' partial aggregations merged; column 1 handed on as codes when {@code coded}. */
    private static Operator aggregatedBy(List<Integer> keys, TableSchema schema, List<Object[]> rows, List<AggregateCall> calls,
                                         int workers, boolean coded) {
        List<Operator> inputs = new ArrayList<>();
        int half = rows.size() / 2;
        for (List<Object[]> share : workers == 1 ? List.of(rows) : List.of(rows.subList(0, half), rows.subList(half, rows.size()))) {
            inputs.add(new ListSource(schema, share, 256, new java.util.Random(share.size()), -1).handOnCodes(coded ? new int[] {1} : new int[0]));
        }
        if (workers == 1) {
            return new HashAggregateOperator(inputs.getFirst(), keys, calls);
        }
        List<Operator> partials = new ArrayList<>();
        for (Operator input : inputs) {
            partials.add(HashAggregateOperator.partial(input, keys, calls));
        }
        return HashAggregateOperator.merging(new GatherOperator(partials), keys.size(), calls,
                HashAggregateOperator.argumentTypes(inputs.getFirst().schema(), calls));
    }

    /** The rows as lists, in the order of their text. */
    private static List<List<Object>> sortedRows(List<Object[]> rows) {
        return rows.stream().map(Arrays::asList).sorted(java.util.Comparator.comparing(Object::toString)).toList();
    }

    /**
     * An aggregation by {@code k} (column 0) of {@code rows}, through a projection of {@code
     * expressions} unless null, alone or as two workers' partial aggregations merged; the source
     * hands columns {@code longs} on as stored longs.
     */
    private static Operator aggregated(TableSchema schema, List<Object[]> rows, List<Expr> expressions, List<AggregateCall> calls,
                                       int workers, int... longs) {
        List<Operator> inputs = new ArrayList<>();
        int half = rows.size() / 2;
        for (List<Object[]> share : workers == 1 ? List.of(rows) : List.of(rows.subList(0, half), rows.subList(half, rows.size()))) {
            Operator source = new ListSource(schema, share, 256, new java.util.Random(share.size()), -1).handOnLongs(longs);
            if (expressions != null) {
                List<String> names = new ArrayList<>();
                for (int column = 0; column < expressions.size(); column++) {
                    names.add("c" + column);
                }
                source = new ProjectOperator(source, expressions, names);
            }
            inputs.add(source);
        }
        if (workers == 1) {
            return new HashAggregateOperator(inputs.getFirst(), List.of(0), calls);
        }
        List<Operator> partials = new ArrayList<>();
        for (Operator input : inputs) {
            partials.add(HashAggregateOperator.partial(input, List.of(0), calls));
        }
        return HashAggregateOperator.merging(new GatherOperator(partials), 1, calls,
                HashAggregateOperator.argumentTypes(inputs.getFirst().schema(), calls));
    }

    /** The rows as lists, ordered by their first column (a group key). */
    private static List<List<Object>> sorted(List<Object[]> rows) {
        return rows.stream().sorted(java.util.Comparator.comparingInt(row -> (Integer) row[0])).map(Arrays::asList).toList();
    }

    private static ProjectOperator project(TableSchema schema, List<Object[]> rows, List<Expr> expressions) {
        List<String> names = new ArrayList<>();
        for (int column = 0; column < expressions.size(); column++) {
            names.add("c" + column);
        }
        return new ProjectOperator(ListSource.of(schema, rows, 256), expressions, names);
    }

    /** The product of column {@code column} of {@link #productsSummedByTheAggregationMatchBigDecimal}'s projection, or null. */
    private static BigDecimal product(int column, Object[] row) {
        BigDecimal p = (BigDecimal) row[1];
        BigDecimal d = (BigDecimal) row[2];
        BigDecimal t = (BigDecimal) row[3];
        BigDecimal b = (BigDecimal) row[4];
        return switch (column) {
            case 1 -> d == null ? null : p.multiply(BigDecimal.ONE.subtract(d));
            case 2 -> d == null ? null : p.multiply(BigDecimal.ONE.subtract(d)).multiply(BigDecimal.ONE.add(t));
            case 3 -> d == null || b == null ? null : b.multiply(d);
            case 4 -> t.add(new BigDecimal("0.5")).multiply(p);
            default -> throw new IllegalArgumentException("column " + column);
        };
    }
}
