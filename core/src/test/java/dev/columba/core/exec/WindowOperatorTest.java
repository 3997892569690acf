package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The window operator against a reference on Java lists (the contract tests of
 * {@link OperatorTestBase}: NULLs in partition and order keys, ties, empty input, partitions
 * spanning many small batches, selection vectors), with random windows: partitionings, orders,
 * ROWS and RANGE frames (offsets included) and every function; plus hand-checked cases.
 */
class WindowOperatorTest extends OperatorTestBase {
    private static final int K = 0;
    private static final int S = 1;
    private static final int D = 2;
    private static final int X = 3;
    private static final int T = 4;
    private static final int L = 6;

    List<WindowGroup> groups;

    @Override
    Operator create(List<Operator> inputs) {
        groups = new ArrayList<>();
        int groupCount = 1 + random.nextInt(3);
        List<Integer> sharedPartition = randomPartition();
        List<SortKey> sharedOrder = randomOrder();
        for (int group = 0; group < groupCount; group++) {
            boolean shared = random.nextBoolean();
            List<Integer> partition = shared ? sharedPartition : randomPartition();
            List<SortKey> order = shared ? sharedOrder : randomOrder();
            WindowFrame frame = randomFrame(order);
            List<WindowCall> calls = new ArrayList<>();
            int callCount = 1 + random.nextInt(4);
            for (int call = 0; call < callCount; call++) {
                calls.add(randomCall("w" + group + "_" + call));
            }
            groups.add(new WindowGroup(partition, order, frame, calls));
        }
        return new WindowOperator(inputs.getFirst(), groups);
    }

    private List<Integer> randomPartition() {
        return switch (random.nextInt(4)) {
            case 0 -> List.of();
            case 1 -> List.of(K);
            case 2 -> List.of(S);
            default -> List.of(5, K);
        };
    }

    private List<SortKey> randomOrder() {
        List<SortKey> order = new ArrayList<>();
        int count = random.nextInt(3);
        for (int key = 0; key < count; key++) {
            int column = List.of(K, S, D, X, T, L).get(random.nextInt(6));
            order.add(new SortKey(column, random.nextBoolean(), random.nextBoolean()));
        }
        return order;
    }

    private WindowFrame randomFrame(List<SortKey> order) {
        boolean rows = random.nextBoolean();
        boolean rangeOffsets = !rows && order.size() == 1 && order.getFirst().column() != S;
        WindowFrame.Bound lower = randomBound(rows || rangeOffsets, true);
        WindowFrame.Bound upper = randomBound(rows || rangeOffsets, false);
        return new WindowFrame(rows, lower, upper);
    }

    private WindowFrame.Bound randomBound(boolean offsets, boolean lower) {
        int choice = random.nextInt(offsets ? 4 : 2);
        return switch (choice) {
            case 0 -> lower ? WindowFrame.Bound.UNBOUNDED_PRECEDING : WindowFrame.Bound.UNBOUNDED_FOLLOWING;
            case 1 -> WindowFrame.Bound.CURRENT_ROW;
            case 2 -> WindowFrame.Bound.preceding(random.nextInt(4));
            default -> WindowFrame.Bound.following(random.nextInt(4));
        };
    }

    private WindowCall randomCall(String name) {
        WindowFunction function = WindowFunction.values()[random.nextInt(WindowFunction.values().length)];
        int argument = List.of(K, S, D, X, T, L).get(random.nextInt(6));
        return switch (function) {
            case ROW_NUMBER, RANK, DENSE_RANK -> WindowCall.of(function, SqlType.BIGINT, name);
            case NTILE -> new WindowCall(function, WindowCall.NO_ARGUMENT, 1 + random.nextInt(5), null, SqlType.INT, name);
            case LAG, LEAD -> new WindowCall(function, K, random.nextInt(3), random.nextBoolean() ? null : -1, SqlType.INT, name);
            case FIRST_VALUE, LAST_VALUE, MIN, MAX -> WindowCall.of(function, argument, SCHEMA.column(argument).type(), name);
            case COUNT -> random.nextBoolean() ? WindowCall.of(function, SqlType.BIGINT, name)
                    : WindowCall.of(function, argument, SqlType.BIGINT, name);
            case SUM, SUM0, AVG -> {
                int numeric = List.of(K, D, X, L).get(random.nextInt(4));
                AggregateFunction aggregate = function == WindowFunction.AVG ? AggregateFunction.AVG : AggregateFunction.SUM;
                yield WindowCall.of(function, numeric, AggregateCall.defaultType(aggregate, SCHEMA.column(numeric).type()), name);
            }
        };
    }

    @Override
    List<Object[]> expected(List<List<Object[]>> inputs) {
        List<Object[]> rows = inputs.getFirst();
        int columns = SCHEMA.size();
        int callCount = groups.stream().mapToInt(group -> group.calls().size()).sum();
        List<Object[]> result = new ArrayList<>();
        for (Object[] row : rows) {
            result.add(Arrays.copyOf(row, columns + callCount));
        }
        int column = columns;
        for (WindowGroup group : groups) {
            Integer[] order = new Integer[rows.size()];
            for (int index = 0; index < order.length; index++) {
                order[index] = index;
            }
            Comparator<Object[]> partitionOrder = comparator(group.partition().stream().map(SortKey::ascending).toList());
            Comparator<Object[]> peerOrder = comparator(group.order());
            Arrays.sort(order, (left, right) -> {
                int comparison = partitionOrder.compare(rows.get(left), rows.get(right));
                return comparison != 0 ? comparison : peerOrder.compare(rows.get(left), rows.get(right));
            });
            int start = 0;
            while (start < order.length) {
                int end = start + 1;
                while (end < order.length && partitionOrder.compare(rows.get(order[start]), rows.get(order[end])) == 0) {
                    end++;
                }
                List<Object[]> partition = new ArrayList<>();
                for (int index = start; index < end; index++) {
                    partition.add(rows.get(order[index]));
                }
                for (int call = 0; call < group.calls().size(); call++) {
                    for (int index = 0; index < partition.size(); index++) {
                        result.get(order[start + index])[column + call] = value(group, group.calls().get(call), partition, index, peerOrder);
                    }
                }
                start = end;
            }
            column += group.calls().size();
        }
        return result;
    }

    private static Comparator<Object[]> comparator(List<SortKey> keys) {
        return (left, right) -> {
            for (SortKey key : keys) {
                Object a = left[key.column()];
                Object b = right[key.column()];
                if (a == null || b == null) {
                    if (a == b) {
                        continue;
                    }
                    return (a == null) == key.nullsFirst() ? -1 : 1;
                }
                int comparison = Comparisons.compare(a, b);
                if (comparison != 0) {
                    return key.descending() ? -comparison : comparison;
                }
            }
            return 0;
        };
    }

    /** The function's value for row {@code index} of the sorted partition, computed the slow way. */
    private static Object value(WindowGroup group, WindowCall call, List<Object[]> partition, int index, Comparator<Object[]> peers) {
        int size = partition.size();
        int peerStart = index;
        while (peerStart > 0 && peers.compare(partition.get(peerStart - 1), partition.get(index)) == 0) {
            peerStart--;
        }
        int peerEnd = index + 1;
        while (peerEnd < size && peers.compare(partition.get(peerEnd), partition.get(index)) == 0) {
            peerEnd++;
        }
        return switch (call.function()) {
            case ROW_NUMBER -> (long) index + 1;
            case RANK -> (long) peerStart + 1;
            case DENSE_RANK -> {
                long rank = 1;
                for (int row = 1; row <= index; row++) {
                    if (peers.compare(partition.get(row - 1), partition.get(row)) != 0) {
                        rank++;
                    }
                }
                yield rank;
            }
            case NTILE -> {
                // Deal the rows out one bucket at a time: bucket b gets size / n rows, one more while extra rows remain.
                int bucket = 1;
                int row = 0;
                long buckets = call.offset();
                while (true) {
                    long take = size / buckets + (bucket <= size % buckets ? 1 : 0);
                    if (index < row + take) {
                        yield bucket;
                    }
                    row += (int) take;
                    bucket++;
                }
            }
            case LAG, LEAD -> {
                long source = index + (call.function() == WindowFunction.LAG ? -call.offset() : call.offset());
                yield source >= 0 && source < size ? partition.get((int) source)[call.argument()] : call.defaultValue();
            }
            default -> {
                List<Object[]> frame = new ArrayList<>();
                for (int row = 0; row < size; row++) {
                    if (inFrame(group, partition, index, row, peerStart, peerEnd)) {
                        frame.add(partition.get(row));
                    }
                }
                yield aggregate(call, frame);
            }
        };
    }

    private static boolean inFrame(WindowGroup group, List<Object[]> partition, int index, int row, int peerStart, int peerEnd) {
        WindowFrame frame = group.frame();
        if (frame.rows()) {
            return afterLower(frame.lower(), row - index) && beforeUpper(frame.upper(), row - index);
        }
        boolean offsets = frame.lower().hasOffset() || frame.upper().hasOffset();
        if (!offsets) {
            boolean lowerOk = frame.lower().kind() == WindowFrame.BoundKind.UNBOUNDED_PRECEDING || row >= peerStart;
            boolean upperOk = frame.upper().kind() == WindowFrame.BoundKind.UNBOUNDED_FOLLOWING || row < peerEnd;
            return lowerOk && upperOk;
        }
        SortKey key = group.order().getFirst();
        Object current = partition.get(index)[key.column()];
        Object other = partition.get(row)[key.column()];
        if (current == null) {
            // A NULL key's offset bounds stop at its peers; unbounded ends still reach the partition's edges.
            return (frame.lower().kind() == WindowFrame.BoundKind.UNBOUNDED_PRECEDING || row >= peerStart)
                    && (frame.upper().kind() == WindowFrame.BoundKind.UNBOUNDED_FOLLOWING || row < peerEnd);
        }
        if (other == null) {
            // A valued row's offset bounds lie among the valued rows: the NULL rows (first or last) are on one side of them.
            boolean lowerOk = switch (frame.lower().kind()) {
                case UNBOUNDED_PRECEDING -> true;
                case CURRENT_ROW -> row >= peerStart;
                case PRECEDING, FOLLOWING -> !key.nullsFirst();
                case UNBOUNDED_FOLLOWING -> false;
            };
            boolean upperOk = switch (frame.upper().kind()) {
                case UNBOUNDED_FOLLOWING -> true;
                case CURRENT_ROW -> row < peerEnd;
                case PRECEDING, FOLLOWING -> key.nullsFirst();
                case UNBOUNDED_PRECEDING -> false;
            };
            return lowerOk && upperOk;
        }
        BigDecimal distance = number(other).subtract(number(current));
        if (key.descending()) {
            distance = distance.negate();
        }
        return afterLowerValue(frame.lower(), distance, row, peerStart) && beforeUpperValue(frame.upper(), distance, row, peerEnd);
    }

    private static boolean afterLower(WindowFrame.Bound bound, long distance) {
        return switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> true;
            case PRECEDING -> distance >= -bound.offset().longValue();
            case CURRENT_ROW -> distance >= 0;
            case FOLLOWING -> distance >= bound.offset().longValue();
            case UNBOUNDED_FOLLOWING -> false;
        };
    }

    private static boolean beforeUpper(WindowFrame.Bound bound, long distance) {
        return switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> false;
            case PRECEDING -> distance <= -bound.offset().longValue();
            case CURRENT_ROW -> distance <= 0;
            case FOLLOWING -> distance <= bound.offset().longValue();
            case UNBOUNDED_FOLLOWING -> true;
        };
    }

    private static boolean afterLowerValue(WindowFrame.Bound bound, BigDecimal distance, int row, int peerStart) {
        return switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> true;
            case PRECEDING -> distance.compareTo(bound.offset().negate()) >= 0;
            case CURRENT_ROW -> row >= peerStart;
            case FOLLOWING -> distance.compareTo(bound.offset()) >= 0;
            case UNBOUNDED_FOLLOWING -> false;
        };
    }

    private static boolean beforeUpperValue(WindowFrame.Bound bound, BigDecimal distance, int row, int peerEnd) {
        return switch (bound.kind()) {
            case UNBOUNDED_PRECEDING -> false;
            case PRECEDING -> distance.compareTo(bound.offset().negate()) <= 0;
            case CURRENT_ROW -> row < peerEnd;
            case FOLLOWING -> distance.compareTo(bound.offset()) <= 0;
            case UNBOUNDED_FOLLOWING -> true;
        };
    }

    private static BigDecimal number(Object value) {
        return switch (value) {
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case Double number -> new BigDecimal(number);
            case BigDecimal number -> number;
            case LocalDate date -> BigDecimal.valueOf(Values.dateToDays(date));
            default -> throw new IllegalArgumentException(String.valueOf(value));
        };
    }

    private static Object aggregate(WindowCall call, List<Object[]> frame) {
        List<Object> values = new ArrayList<>();
        for (Object[] row : frame) {
            Object value = call.argument() == WindowCall.NO_ARGUMENT ? Boolean.TRUE : row[call.argument()];
            if (value != null || call.function() == WindowFunction.FIRST_VALUE || call.function() == WindowFunction.LAST_VALUE) {
                values.add(value);
            }
        }
        SqlType argumentType = call.argument() == WindowCall.NO_ARGUMENT ? null : SCHEMA.column(call.argument()).type();
        return switch (call.function()) {
            case FIRST_VALUE -> values.isEmpty() ? null : values.getFirst();
            case LAST_VALUE -> values.isEmpty() ? null : values.getLast();
            case COUNT -> (long) values.size();
            case MIN -> values.stream().min(Comparisons::compare).orElse(null);
            case MAX -> values.stream().max(Comparisons::compare).orElse(null);
            case SUM, SUM0, AVG -> {
                if (values.isEmpty()) {
                    yield call.function() == WindowFunction.SUM0 ? Evaluator.cast(0, SqlType.INT, call.type()) : null;
                }
                if (argumentType instanceof SqlType.DoubleType) {
                    double sum = 0;
                    for (Object value : values) {
                        sum += (Double) value;
                    }
                    yield call.function() == WindowFunction.AVG ? sum / values.size() : sum;
                }
                BigDecimal total = BigDecimal.ZERO;
                for (Object value : values) {
                    total = total.add(number(value));
                }
                int scale = argumentType instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
                total = total.setScale(scale, RoundingMode.UNNECESSARY);
                if (call.function() != WindowFunction.AVG) {
                    yield Evaluator.cast(total, SqlType.decimal(38, scale), call.type());
                }
                BigDecimal divisor = BigDecimal.valueOf(values.size());
                yield switch (call.type()) {
                    case SqlType.DoubleType ignored -> total.divide(divisor, MathContext.DECIMAL128).doubleValue();
                    case SqlType.DecimalType decimal -> Evaluator.cast(total.divide(divisor, decimal.scale(), RoundingMode.HALF_UP),
                            SqlType.decimal(38, decimal.scale()), call.type());
                    default -> Evaluator.cast(total.divide(divisor, 0, RoundingMode.HALF_UP), SqlType.decimal(38, 0), call.type());
                };
            }
            default -> throw new IllegalStateException(call.function().toString());
        };
    }

    /** Runs one window over given rows (in batches of {@code batchSize}) and returns the added column in input order. */
    private List<Object> window(List<Object[]> rows, int batchSize, WindowGroup group) {
        Operator operator = new WindowOperator(new ListSource(SCHEMA, rows, batchSize, null, -1), List.of(group));
        List<Object[]> output = run(operator, context(batchSize));
        // Identify rows by their k column (unique in the hand-written cases) to return the results in input order.
        List<Object> byInput = new ArrayList<>();
        for (Object[] row : rows) {
            for (Object[] out : output) {
                if (Objects.equals(out[K], row[K])) {
                    byInput.add(out[SCHEMA.size()]);
                }
            }
        }
        return byInput;
    }

    private static Object[] row(int k, String s, String d) {
        return new Object[] {k, s, d == null ? null : new BigDecimal(d), null, null, null, null};
    }

    @Test
    void theDefaultFrameWithOrderIncludesPeers() {
        List<Object[]> rows = List.of(row(1, "a", "1.00"), row(2, "a", "2.00"), row(3, "a", "2.00"), row(4, "a", "5.00"),
                row(5, "b", "7.00"), row(6, "b", null));
        WindowGroup running = new WindowGroup(List.of(S), List.of(SortKey.ascending(D)), WindowFrame.DEFAULT,
                List.of(WindowCall.of(WindowFunction.SUM, D, SqlType.decimal(22, 2), "running")));
        // Rows 2 and 3 are peers (d = 2.00): both see 1 + 2 + 2. Row 6's NULL sorts last and is its own peer group.
        assertEquals(List.of(new BigDecimal("1.00"), new BigDecimal("5.00"), new BigDecimal("5.00"), new BigDecimal("10.00"),
                new BigDecimal("7.00"), new BigDecimal("7.00")), window(rows, 2, running));
        WindowGroup rowsFrame = new WindowGroup(List.of(S), List.of(SortKey.ascending(D)),
                new WindowFrame(true, WindowFrame.Bound.UNBOUNDED_PRECEDING, WindowFrame.Bound.CURRENT_ROW),
                List.of(WindowCall.of(WindowFunction.SUM, D, SqlType.decimal(22, 2), "running")));
        assertEquals(List.of(new BigDecimal("1.00"), new BigDecimal("3.00"), new BigDecimal("5.00"), new BigDecimal("10.00"),
                new BigDecimal("7.00"), new BigDecimal("7.00")), window(rows, 3, rowsFrame));
    }

    @Test
    void rankingFunctionsOverTiesAndNullPartitions() {
        List<Object[]> rows = List.of(row(1, null, "3.00"), row(2, null, "3.00"), row(3, null, "4.00"), row(4, "x", "1.00"),
                row(5, null, null));
        WindowGroup group = new WindowGroup(List.of(S), List.of(SortKey.ascending(D)), WindowFrame.DEFAULT,
                List.of(WindowCall.of(WindowFunction.RANK, SqlType.BIGINT, "r")));
        // The NULL partition is one partition: 3.00, 3.00, 4.00, NULL.
        assertEquals(List.of(1L, 1L, 3L, 1L, 4L), window(rows, 1, group));
        WindowGroup dense = new WindowGroup(List.of(S), List.of(SortKey.ascending(D)), WindowFrame.DEFAULT,
                List.of(WindowCall.of(WindowFunction.DENSE_RANK, SqlType.BIGINT, "r")));
        assertEquals(List.of(1L, 1L, 2L, 1L, 3L), window(rows, 4, dense));
        WindowGroup ntile = new WindowGroup(List.of(), List.of(SortKey.ascending(K)), WindowFrame.DEFAULT,
                List.of(new WindowCall(WindowFunction.NTILE, WindowCall.NO_ARGUMENT, 2, null, SqlType.INT, "n")));
        assertEquals(List.of(1, 1, 1, 2, 2), window(rows, 2, ntile));
    }

    @Test
    void lagAndLeadStayInsideTheirPartitionAndUseTheDefault() {
        List<Object[]> rows = List.of(row(1, "a", "1.00"), row(2, "a", null), row(3, "a", "3.00"), row(4, "b", "4.00"));
        WindowGroup lag = new WindowGroup(List.of(S), List.of(SortKey.ascending(K)), WindowFrame.DEFAULT,
                List.of(new WindowCall(WindowFunction.LAG, D, 1, new BigDecimal("-1.00"), SqlType.decimal(12, 2), "previous")));
        // Row 3's previous value is NULL (a value, not a missing row): the default is for rows past the edge only.
        assertEquals(Arrays.asList(new BigDecimal("-1.00"), new BigDecimal("1.00"), null, new BigDecimal("-1.00")),
                window(rows, 1, lag));
        WindowGroup lead = new WindowGroup(List.of(S), List.of(SortKey.ascending(K)), WindowFrame.DEFAULT,
                List.of(new WindowCall(WindowFunction.LEAD, D, 2, null, SqlType.decimal(12, 2), "next")));
        assertEquals(Arrays.asList(new BigDecimal("3.00"), null, null, null), window(rows, 3, lead));
    }

    @Test
    void lastValueWithTheDefaultFrameIsTheLastPeer() {
        List<Object[]> rows = List.of(row(1, "a", "1.00"), row(2, "a", "1.00"), row(3, "a", "2.00"));
        WindowGroup group = new WindowGroup(List.of(), List.of(SortKey.ascending(D)), WindowFrame.DEFAULT,
                List.of(WindowCall.of(WindowFunction.LAST_VALUE, K, SqlType.INT, "last")));
        assertEquals(List.of(2, 2, 3), window(rows, 2, group));
        WindowGroup whole = new WindowGroup(List.of(), List.of(SortKey.ascending(D)),
                new WindowFrame(false, WindowFrame.Bound.UNBOUNDED_PRECEDING, WindowFrame.Bound.UNBOUNDED_FOLLOWING),
                List.of(WindowCall.of(WindowFunction.LAST_VALUE, K, SqlType.INT, "last")));
        assertEquals(List.of(3, 3, 3), window(rows, 2, whole));
    }

    @Test
    void emptyFramesGiveNullOrZero() {
        List<Object[]> rows = List.of(row(1, "a", "1.00"), row(2, "a", "2.00"));
        WindowFrame before = new WindowFrame(true, WindowFrame.Bound.preceding(3), WindowFrame.Bound.preceding(2));
        WindowGroup group = new WindowGroup(List.of(), List.of(SortKey.ascending(K)), before,
                List.of(WindowCall.of(WindowFunction.COUNT, SqlType.BIGINT, "c")));
        assertEquals(List.of(0L, 0L), window(rows, 2, group));
        WindowGroup sum = new WindowGroup(List.of(), List.of(SortKey.ascending(K)), before,
                List.of(WindowCall.of(WindowFunction.SUM, D, SqlType.decimal(22, 2), "total")));
        assertEquals(Arrays.asList(null, null), window(rows, 2, sum));
    }

    @Test
    void rangeOffsetsNeedOneNumericOrderKey() {
        WindowFrame frame = new WindowFrame(false, WindowFrame.Bound.preceding(1), WindowFrame.Bound.CURRENT_ROW);
        WindowGroup group = new WindowGroup(List.of(), List.of(SortKey.ascending(S)), frame,
                List.of(WindowCall.of(WindowFunction.COUNT, SqlType.BIGINT, "c")));
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> new WindowOperator(new ListSource(SCHEMA, List.of(), 1, null, -1), List.of(group)));
        assertEquals(ErrorCode.WRONG_TYPE, error.errorCode());
    }
}
