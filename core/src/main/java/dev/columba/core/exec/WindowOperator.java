package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;

/**
 * Window functions ({@code f(...) OVER (PARTITION BY ... ORDER BY ... frame)}): returns every input
 * row with one more column per function. Materializes its whole input, then per distinct
 * (partitioning, order) sorts the row numbers once (stably, partition columns first) and computes
 * every function of every {@link WindowGroup} with that sort, partition by partition; the rows come
 * out in the order of the last sort.
 *
 * <p>Frames: a row's frame is a range of its partition's sorted rows, found from its position
 * (ROWS), its peers (RANGE CURRENT ROW) or a binary search on the order key (RANGE with an
 * offset, which needs one numeric or DATE order key; a row whose key is NULL has its peers as
 * frame). Aggregates over frames use the hash aggregate's {@link Accumulators} (so decimal sums are
 * exact and converted alike), one accumulator group per frame: as long as a row's frame starts
 * where the last one started, the rows it adds to it are added to the same group (the default
 * frame, or UNBOUNDED PRECEDING to n FOLLOWING, take one pass over the partition); a frame that
 * starts later starts a new group over its rows, so a sliding frame of w rows costs w additions per
 * row. Peers with the same frame share one result.
 *
 * <p>Memory: the input rows in Arrow vectors, each function's result column, and on the heap int
 * arrays of the row count (six, plus two per distinct sort) and the accumulators' groups (one per
 * distinct frame start), all charged to the query's
 * limit; exceeding it is {@code OUT_OF_MEMORY} (53200), there is no spilling. Each returned batch
 * is the operator's own, valid until the next {@code next()}.
 */
public final class WindowOperator extends BaseOperator {
    private final Operator input;
    private final List<WindowGroup> groups;
    private final int inputColumns;
    private RowBuffer buffer;
    private MemoryCharge charge;
    /** Per function (in output order), its results: row p is the value of the p-th row of its group's sort. */
    private FieldVector[] results;
    /** Per function, the positions in its results of the rows in output order; null where that is its own sort's order. */
    private int[][] resultPositions;
    private int[] outputOrder;
    private int[] identity;
    private boolean computed;
    private Batch output;
    private int emitted;

    public WindowOperator(Operator input, List<WindowGroup> groups) {
        super(outputSchema(input.schema(), groups), List.of(input));
        this.input = input;
        this.groups = List.copyOf(groups);
        this.inputColumns = input.schema().size();
        if (groups.isEmpty()) {
            throw new IllegalArgumentException("a window operator needs at least one window group");
        }
        for (WindowGroup group : groups) {
            validate(input.schema(), group);
        }
    }

    private static TableSchema outputSchema(TableSchema input, List<WindowGroup> groups) {
        List<Column> columns = new ArrayList<>(input.columns());
        for (WindowGroup group : groups) {
            for (WindowCall call : group.calls()) {
                columns.add(Column.nullable(call.name(), call.type()));
            }
        }
        return new TableSchema(columns);
    }

    private static void validate(TableSchema schema, WindowGroup group) {
        for (int column : group.partition()) {
            checkColumn(schema, column, "partition");
        }
        for (SortKey key : group.order()) {
            checkColumn(schema, key.column(), "order");
        }
        WindowFrame frame = group.frame();
        if (!frame.rows() && (frame.lower().hasOffset() || frame.upper().hasOffset())) {
            if (group.order().size() != 1 || !rangeKey(schema.column(group.order().getFirst().column()).type())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "a RANGE frame with an offset needs exactly one ORDER BY key "
                        + "of a number or DATE type: " + frame);
            }
        }
        for (WindowCall call : group.calls()) {
            if (call.argument() != WindowCall.NO_ARGUMENT) {
                checkColumn(schema, call.argument(), call.function().toString());
            }
            AggregateFunction aggregate = call.function().aggregate();
            if ((aggregate == AggregateFunction.SUM || aggregate == AggregateFunction.AVG)
                    && !numeric(schema.column(call.argument()).type())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, call.function() + " needs a number, got "
                        + schema.column(call.argument()).type().sqlName());
            }
        }
    }

    private static void checkColumn(TableSchema schema, int column, String what) {
        if (column >= schema.size()) {
            throw new ColumbaException(ErrorCode.INTERNAL, "window " + what + " column " + column + " is past the "
                    + schema.size() + " input columns");
        }
    }

    private static boolean numeric(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DecimalType || type instanceof SqlType.DoubleType;
    }

    private static boolean rangeKey(SqlType type) {
        return numeric(type) || type instanceof SqlType.DateType;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
        buffer = new RowBuffer(input.schema(), allocator);
        charge = new MemoryCharge(allocator, name() + " window sorts");
    }

    @Override
    Batch produce() {
        if (!computed) {
            compute();
            computed = true;
        }
        int size = buffer.size();
        if (emitted >= size) {
            return null;
        }
        if (output == null) {
            output = Batch.create(schema(), allocator);
        }
        Vectors.rewind(output);
        int count = Math.min(context.batchSize(), size - emitted);
        for (int columnIndex = 0; columnIndex < inputColumns; columnIndex++) {
            VectorCopy.gather(buffer.column(columnIndex), outputOrder, emitted, count, output.column(columnIndex), 0);
        }
        for (int call = 0; call < results.length; call++) {
            int[] positions = resultPositions[call] == null ? identity : resultPositions[call];
            VectorCopy.gather(results[call], positions, emitted, count, output.column(inputColumns + call), 0);
        }
        output.setRowCount(count);
        emitted += count;
        return output;
    }

    /** Reads the input and computes every function's results, one sort per distinct partitioning and order. */
    private void compute() {
        int[] positions = new int[0];
        for (Batch batch = input.next(); batch != null; batch = input.next()) {
            positions = Vectors.livePositions(batch, positions);
            buffer.append(batch, positions, batch.selectedCount());
        }
        // Sets the vectors' value counts: the accumulators read null counts.
        buffer.asBatch();
        int size = buffer.size();
        Map<List<SortKey>, List<Integer>> sorts = new LinkedHashMap<>();
        for (int group = 0; group < groups.size(); group++) {
            sorts.computeIfAbsent(groups.get(group).sortKeys(), keys -> new ArrayList<>()).add(group);
        }
        int[] firstCall = new int[groups.size()];
        int callCount = 0;
        for (int group = 0; group < groups.size(); group++) {
            firstCall[group] = callCount;
            callCount += groups.get(group).calls().size();
        }
        // Per row: the sort's order and scratch, the peers' bounds, and per distinct sort kept for the output's order.
        charge.ensure((long) Integer.BYTES * size * (6L + 2L * sorts.size()));
        results = new FieldVector[callCount];
        resultPositions = new int[callCount][];
        identity = new int[size];
        for (int row = 0; row < size; row++) {
            identity[row] = row;
        }
        int[] scratch = new int[size];
        List<int[]> sortOrders = new ArrayList<>();
        List<List<Integer>> sortGroups = new ArrayList<>(sorts.values());
        Frames frames = new Frames(size);
        for (Map.Entry<List<SortKey>, List<Integer>> sort : sorts.entrySet()) {
            int[] rows = identity.clone();
            if (!sort.getKey().isEmpty()) {
                RowOrder order = new RowOrder(sort.getKey(), input.schema());
                order.bind(buffer);
                order.sort(rows, scratch, size);
            }
            sortOrders.add(rows);
            for (int group : sort.getValue()) {
                computeGroup(groups.get(group), rows, firstCall[group], frames);
            }
        }
        outputOrder = sortOrders.getLast();
        // Functions of earlier sorts: their results are in their sort's order; map the output's order onto it.
        int[] inverse = scratch;
        for (int sort = 0; sort < sortOrders.size() - 1; sort++) {
            int[] rows = sortOrders.get(sort);
            for (int position = 0; position < size; position++) {
                inverse[rows[position]] = position;
            }
            int[] mapped = new int[size];
            for (int position = 0; position < size; position++) {
                mapped[position] = inverse[outputOrder[position]];
            }
            for (int group : sortGroups.get(sort)) {
                for (int call = 0; call < groups.get(group).calls().size(); call++) {
                    resultPositions[firstCall[group] + call] = mapped;
                }
            }
        }
    }

    /** Per-row bounds of the current partition's peers, and the rows an aggregate adds at once; reused across groups. */
    private static final class Frames {
        final int[] peerStart;
        final int[] peerEnd;
        final int[] addPositions;
        final int[] addGroups;

        Frames(int size) {
            peerStart = new int[size];
            peerEnd = new int[size];
            addPositions = new int[size];
            addGroups = new int[size];
        }
    }

    private void computeGroup(WindowGroup group, int[] rows, int firstCall, Frames frames) {
        int size = rows.length;
        List<SortKey> partitionKeys = new ArrayList<>();
        for (int column : group.partition()) {
            partitionKeys.add(SortKey.ascending(column));
        }
        RowOrder partitionOrder = new RowOrder(partitionKeys, input.schema());
        partitionOrder.bind(buffer);
        RowOrder peerOrder = new RowOrder(group.order(), input.schema());
        peerOrder.bind(buffer);
        List<CallState> calls = new ArrayList<>();
        try {
            for (int call = 0; call < group.calls().size(); call++) {
                WindowCall windowCall = group.calls().get(call);
                FieldVector result = VectorValues.newVector(windowCall.name(), windowCall.type(), allocator);
                results[firstCall + call] = result;
                calls.add(new CallState(windowCall, result));
            }
            int partitionStart = 0;
            while (partitionStart < size) {
                int partitionEnd = partitionStart + 1;
                while (partitionEnd < size && partitionOrder.compare(rows[partitionStart], rows[partitionEnd]) == 0) {
                    partitionEnd++;
                }
                int peerGroupStart = partitionStart;
                for (int position = partitionStart + 1; position <= partitionEnd; position++) {
                    if (position == partitionEnd || peerOrder.compare(rows[position - 1], rows[position]) != 0) {
                        for (int peer = peerGroupStart; peer < position; peer++) {
                            frames.peerStart[peer] = peerGroupStart;
                            frames.peerEnd[peer] = position;
                        }
                        peerGroupStart = position;
                    }
                }
                Partition partition = new Partition(rows, partitionStart, partitionEnd, frames, group);
                for (CallState call : calls) {
                    call.compute(partition);
                }
                partitionStart = partitionEnd;
            }
            for (CallState call : calls) {
                call.result.setValueCount(size);
            }
        } finally {
            for (CallState call : calls) {
                call.close();
            }
        }
    }

    /** One partition of a group's sort: its sorted rows {@code [start, end)} and the frame bounds within it. */
    private final class Partition {
        final int[] rows;
        final int start;
        final int end;
        final Frames frames;
        final WindowFrame frame;
        final SortKey rangeKey;
        /** RANGE with an offset: the sorted positions whose order key is not NULL. */
        int valuedStart;
        int valuedEnd;

        Partition(int[] rows, int start, int end, Frames frames, WindowGroup group) {
            this.rows = rows;
            this.start = start;
            this.end = end;
            this.frames = frames;
            this.frame = group.frame();
            boolean offsets = !frame.rows() && (frame.lower().hasOffset() || frame.upper().hasOffset());
            this.rangeKey = offsets ? group.order().getFirst() : null;
            if (rangeKey != null) {
                FieldVector key = buffer.column(rangeKey.column());
                valuedStart = start;
                while (valuedStart < end && key.isNull(rows[valuedStart])) {
                    valuedStart++;
                }
                valuedEnd = end;
                while (valuedEnd > valuedStart && key.isNull(rows[valuedEnd - 1])) {
                    valuedEnd--;
                }
            }
        }

        /** The first sorted position of the frame of the row at {@code position}. */
        int frameStart(int position) {
            WindowFrame.Bound bound = frame.lower();
            return switch (bound.kind()) {
                case UNBOUNDED_PRECEDING -> start;
                case CURRENT_ROW -> frame.rows() ? position : frames.peerStart[position];
                case PRECEDING, FOLLOWING -> frame.rows() ? clamp(position + signedRows(bound)) : rangeBound(position, bound, true);
                case UNBOUNDED_FOLLOWING -> end;
            };
        }

        /** One past the last sorted position of the frame of the row at {@code position}. */
        int frameEnd(int position) {
            WindowFrame.Bound bound = frame.upper();
            return switch (bound.kind()) {
                case UNBOUNDED_FOLLOWING -> end;
                case CURRENT_ROW -> frame.rows() ? position + 1 : frames.peerEnd[position];
                case PRECEDING, FOLLOWING -> frame.rows() ? clamp(position + signedRows(bound) + 1) : rangeBound(position, bound, false);
                case UNBOUNDED_PRECEDING -> start;
            };
        }

        private long signedRows(WindowFrame.Bound bound) {
            long offset = bound.offset().min(BigDecimal.valueOf(Integer.MAX_VALUE)).longValue();
            return bound.kind() == WindowFrame.BoundKind.PRECEDING ? -offset : offset;
        }

        private int clamp(long position) {
            return (int) Math.max(start, Math.min(end, position));
        }

        /**
         * RANGE n PRECEDING / FOLLOWING: the first position whose key (in the sort's direction)
         * reaches the current key moved by n, for a lower bound; the first past it, for an upper one.
         */
        private int rangeBound(int position, WindowFrame.Bound bound, boolean lower) {
            FieldVector key = buffer.column(rangeKey.column());
            if (key.isNull(rows[position])) {
                return lower ? frames.peerStart[position] : frames.peerEnd[position];
            }
            SqlType type = input.schema().column(rangeKey.column()).type();
            BigDecimal direction = rangeKey.descending() ? BigDecimal.ONE.negate() : BigDecimal.ONE;
            BigDecimal offset = bound.kind() == WindowFrame.BoundKind.PRECEDING ? bound.offset().negate() : bound.offset();
            BigDecimal target = keyValue(key, type, rows[position]).multiply(direction).add(offset);
            int low = valuedStart;
            int high = valuedEnd;
            while (low < high) {
                int middle = (low + high) >>> 1;
                int comparison = keyValue(key, type, rows[middle]).multiply(direction).compareTo(target);
                if (lower ? comparison < 0 : comparison <= 0) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }
    }

    private static BigDecimal keyValue(FieldVector key, SqlType type, int row) {
        Object value = VectorValues.get(key, row, type);
        return switch (value) {
            case Integer number -> BigDecimal.valueOf(number);
            case Long number -> BigDecimal.valueOf(number);
            case BigDecimal number -> number;
            case Double number when Double.isFinite(number) -> new BigDecimal(number);
            case LocalDate date -> BigDecimal.valueOf(Values.dateToDays(date));
            default -> throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a RANGE frame with an offset cannot order by "
                    + value);
        };
    }

    /** One function's computation over a group's partitions, writing its results in sorted order. */
    private final class CallState implements AutoCloseable {
        final WindowCall call;
        final FieldVector result;
        final SqlType argumentType;
        final FieldVector argument;
        final boolean converts;
        final int[] single = new int[1];
        /** Aggregates: the accumulator (one group per frame start), the type it writes, and a one-row vector it writes to. */
        Accumulators.Accumulator accumulator;
        MemoryCharge accumulatorCharge;
        SqlType accumulatedType;
        FieldVector scratch;
        int nextGroup;

        CallState(WindowCall call, FieldVector result) {
            this.call = call;
            this.result = result;
            boolean hasArgument = call.argument() != WindowCall.NO_ARGUMENT;
            this.argumentType = hasArgument ? input.schema().column(call.argument()).type() : null;
            this.argument = hasArgument ? buffer.column(call.argument()) : null;
            AggregateFunction aggregate = call.function().aggregate();
            if (aggregate != null) {
                accumulatorCharge = new MemoryCharge(allocator, name() + " " + call.name() + " frames");
                accumulatedType = switch (aggregate) {
                    case COUNT -> SqlType.BIGINT;
                    case MIN, MAX -> argumentType;
                    case SUM, AVG -> call.type();
                    case STRING_AGG -> throw new ColumbaException(ErrorCode.INTERNAL, "no window function is STRING_AGG");
                };
                AggregateCall aggregateCall = new AggregateCall(aggregate, call.argument(), false, AggregateCall.NO_FILTER,
                        accumulatedType, call.name());
                accumulator = Accumulators.create(aggregateCall, argumentType, accumulatorCharge);
                scratch = VectorValues.newVector(call.name(), accumulatedType, allocator);
                this.converts = !accumulatedType.arrowType().equals(call.type().arrowType());
            } else {
                this.converts = hasArgument && !argumentType.arrowType().equals(call.type().arrowType());
            }
        }

        void compute(Partition partition) {
            switch (call.function()) {
                case ROW_NUMBER -> {
                    for (int position = partition.start; position < partition.end; position++) {
                        setWhole(position, position - partition.start + 1);
                    }
                }
                case RANK -> {
                    for (int position = partition.start; position < partition.end; position++) {
                        setWhole(position, partition.frames.peerStart[position] - partition.start + 1);
                    }
                }
                case DENSE_RANK -> {
                    long rank = 0;
                    for (int position = partition.start; position < partition.end; position++) {
                        if (partition.frames.peerStart[position] == position) {
                            rank++;
                        }
                        setWhole(position, rank);
                    }
                }
                case NTILE -> {
                    long rows = partition.end - partition.start;
                    long buckets = call.offset();
                    long small = rows / buckets;
                    long large = rows % buckets;
                    for (int position = partition.start; position < partition.end; position++) {
                        long index = position - partition.start;
                        long bucket = index < large * (small + 1) ? index / (small + 1) : large + (index - large * (small + 1)) / small;
                        setWhole(position, bucket + 1);
                    }
                }
                case LAG, LEAD -> {
                    long step = call.function() == WindowFunction.LAG ? -call.offset() : call.offset();
                    for (int position = partition.start; position < partition.end; position++) {
                        long source = position + step;
                        if (source >= partition.start && source < partition.end) {
                            copyValue(partition.rows[(int) source], position);
                        } else {
                            VectorValues.set(result, position, call.type(), call.defaultValue());
                        }
                    }
                }
                case FIRST_VALUE, LAST_VALUE -> {
                    boolean first = call.function() == WindowFunction.FIRST_VALUE;
                    for (int position = partition.start; position < partition.end; position++) {
                        int frameStart = partition.frameStart(position);
                        int frameEnd = partition.frameEnd(position);
                        copyValue(frameStart >= frameEnd ? -1 : partition.rows[first ? frameStart : frameEnd - 1], position);
                    }
                }
                case COUNT, SUM, SUM0, AVG, MIN, MAX -> aggregate(partition);
            }
        }

        /**
         * An aggregate over each row's frame. The group being filled covers sorted rows
         * {@code [groupStart, groupEnd)}; a frame starting at the same row extends it.
         */
        private void aggregate(Partition partition) {
            int group = -1;
            int groupStart = 0;
            int groupEnd = 0;
            int lastStart = -1;
            int lastEnd = -1;
            for (int position = partition.start; position < partition.end; position++) {
                int frameStart = partition.frameStart(position);
                int frameEnd = Math.max(frameStart, partition.frameEnd(position));
                if (frameStart != lastStart || frameEnd != lastEnd) {
                    if (group < 0 || frameStart != groupStart || frameEnd < groupEnd) {
                        group = nextGroup++;
                        accumulator.ensureGroups(nextGroup);
                        groupStart = frameStart;
                        groupEnd = frameStart;
                    }
                    add(partition, groupEnd, frameEnd, group);
                    groupEnd = frameEnd;
                    accumulator.write(scratch, accumulatedType, group, 1);
                    if (call.function() == WindowFunction.SUM0 && scratch.isNull(0)) {
                        VectorValues.set(scratch, 0, accumulatedType, Evaluator.cast(0, SqlType.INT, accumulatedType));
                    }
                    lastStart = frameStart;
                    lastEnd = frameEnd;
                }
                if (converts) {
                    Object value = VectorValues.get(scratch, 0, accumulatedType);
                    VectorValues.set(result, position, call.type(), value == null ? null
                            : Evaluator.cast(value, accumulatedType, call.type()));
                } else {
                    single[0] = 0;
                    VectorCopy.gather(scratch, single, 0, 1, result, position);
                }
            }
        }

        /** Adds sorted rows {@code [from, to)} of the partition to {@code group}. */
        private void add(Partition partition, int from, int to, int group) {
            int count = to - from;
            if (count <= 0) {
                return;
            }
            int[] positions = partition.frames.addPositions;
            int[] groupIds = partition.frames.addGroups;
            System.arraycopy(partition.rows, from, positions, 0, count);
            Arrays.fill(groupIds, 0, count, group);
            accumulator.add(argument, positions, groupIds, count);
        }

        /** Writes the argument of buffer row {@code row} (-1: NULL) at {@code position} of the results. */
        private void copyValue(int row, int position) {
            if (converts) {
                Object value = row < 0 ? null : VectorValues.get(argument, row, argumentType);
                VectorValues.set(result, position, call.type(), value == null ? null : Evaluator.cast(value, argumentType, call.type()));
                return;
            }
            single[0] = row;
            VectorCopy.gather(argument, single, 0, 1, result, position);
        }

        private void setWhole(int position, long value) {
            switch (call.type()) {
                case SqlType.BigintType ignored -> VectorValues.set(result, position, call.type(), value);
                case SqlType.IntegerType ignored -> VectorValues.set(result, position, call.type(), Math.toIntExact(value));
                default -> VectorValues.set(result, position, call.type(), Evaluator.cast(value, SqlType.BIGINT, call.type()));
            }
        }

        @Override
        public void close() {
            if (accumulator != null) {
                accumulator.close();
            }
            if (accumulatorCharge != null) {
                accumulatorCharge.close();
            }
            if (scratch != null) {
                scratch.close();
            }
        }
    }

    @Override
    void release() {
        if (output != null) {
            output.close();
        }
        if (results != null) {
            for (FieldVector result : results) {
                if (result != null) {
                    result.close();
                }
            }
        }
        if (buffer != null) {
            buffer.close();
        }
        if (charge != null) {
            charge.close();
        }
    }
}
