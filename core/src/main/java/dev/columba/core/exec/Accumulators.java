package dev.columba.core.exec;

import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.SortedCodeSpace;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Per-group state of the aggregate functions, in primitive arrays indexed by group id (grown by
 * doubling and charged to the query's memory limit). Adding a batch loops over its rows with
 * their group ids and allocates nothing, except MIN/MAX of strings, which copies a string when it
 * becomes a group's new minimum or maximum.
 */
final class Accumulators {
    private Accumulators() {
    }

    /** The state of one aggregate call across all groups. */
    abstract static class Accumulator implements AutoCloseable {
        final MemoryCharge charge;
        int capacity;

        Accumulator(MemoryCharge charge) {
            this.charge = charge;
        }

        /** Makes room for groups 0 to {@code groups - 1}; new groups start empty. */
        final void ensureGroups(int groups) {
            if (groups > capacity) {
                int grown = Math.max(groups, Math.max(16, capacity * 2));
                charge.ensure(bytesPerGroup() * grown);
                grow(grown);
                capacity = grown;
            }
        }

        abstract long bytesPerGroup();

        abstract void grow(int groups);

        /** Adds the values at {@code positions[0, count)} of {@code values} (null for COUNT(*)) to groups {@code groupIds[0, count)}. */
        abstract void add(FieldVector values, int[] positions, int[] groupIds, int count);

        /**
         * Adds the values at {@code positions[0, count)} of {@code stored}, the argument's values as
         * stored longs by row ({@link dev.columba.core.batch.NativeLongs}: none NULL, a DECIMAL's
         * unscaled at the argument's scale, none of magnitude above {@code magnitude}), to groups
         * {@code groupIds[0, count)}, which {@code rows} counted per group unless null (few groups,
         * every row of the batch); false, adding nothing, for an accumulator that reads only vectors
         * (the caller then has the vector written and calls {@link #add}).
         */
        boolean addStored(long[] stored, long magnitude, int[] positions, int[] groupIds, int count, GroupRows rows) {
            return false;
        }

        /**
         * Adds the values at {@code positions[0, count)} of {@code values}, a string column whose
         * rows carry dictionary codes ({@code codes}: possibly with its strings deferred, the
         * validity always written), to groups {@code groupIds[0, count)} from the codes alone,
         * {@code oneGroup} when every group id is 0; false, adding nothing, when this accumulator
         * cannot (it reads strings, or the codes' space is not ordered, or a position is past the
         * coded rows): the caller then has the strings decoded and calls {@link #add}.
         */
        boolean addCoded(FieldVector values, CodedStrings codes, int[] positions, int[] groupIds, int count, boolean oneGroup) {
            return false;
        }

        /**
         * Adds a batch whose rows {@code rows} counted per group to a count of rows (COUNT(*)), from
         * the counts alone; false, adding nothing, for any other accumulator.
         */
        boolean addRowCounts(GroupRows rows) {
            return false;
        }

        /** Writes the results of groups {@code [from, from + count)} into rows {@code [0, count)} of {@code out}. */
        abstract void write(FieldVector out, SqlType type, int from, int count);


        /**
         * Writes the partial state of groups {@code [from, from + count)} into rows {@code [0, count)}
         * of {@code out}, one vector per column of {@link HashAggregateOperator#stateTypes}: what one
         * worker's groups hold, so that merging all workers' states gives what one accumulator over
         * all rows would hold.
         */
        abstract void writeState(FieldVector[] out, int from, int count);

        /** Merges the states at {@code positions[0, count)} of {@code state} (as {@link #writeState} wrote them) into groups {@code groupIds[0, count)}. */
        abstract void merge(FieldVector[] state, int[] positions, int[] groupIds, int count);

        @Override
        public void close() {
            charge.close();
        }
    }

    static Accumulator create(AggregateCall call, SqlType argumentType, MemoryCharge charge) {
        return switch (call.function()) {
            case COUNT -> new CountAccumulator(call.argument() == AggregateCall.NO_ARGUMENT, charge);
            case SUM, AVG -> argumentType instanceof SqlType.DoubleType
                    ? new DoubleSumAccumulator(call.function() == AggregateFunction.AVG, charge)
                    : new ExactSumAccumulator(call.function() == AggregateFunction.AVG, argumentType, call.name(), charge);
            case MIN, MAX -> new ExtremeAccumulator(call.function() == AggregateFunction.MIN, argumentType, charge);
            case STRING_AGG -> new StringAggAccumulator(call.separator(), charge);
        };
    }

    /**
     * COUNT(*) or COUNT(argument). Rows alternate between two counters per group ({@code counts}
     * for even positions in the batch, {@code oddCounts} for odd ones), as the exact sums do: with
     * few groups (TPC-H Q1 has four) consecutive rows mostly count into the same group, and one
     * array would chain every increment through the store of the one before. Past
     * {@link ExactSumAccumulator#PAIRED_GROUPS} groups the odd counters are folded in and dropped.
     */
    static final class CountAccumulator extends Accumulator {
        private final boolean star;
        private long[] counts = new long[0];
        private long[] oddCounts = new long[0];
        private boolean paired = true;

        CountAccumulator(boolean star, MemoryCharge charge) {
            super(charge);
            this.star = star;
        }

        @Override
        long bytesPerGroup() {
            return (paired ? 2L : 1L) * Long.BYTES;
        }

        @Override
        void grow(int groups) {
            if (paired && groups > ExactSumAccumulator.PAIRED_GROUPS) {
                for (int group = 0; group < oddCounts.length; group++) {
                    counts[group] += oddCounts[group];
                }
                oddCounts = new long[0];
                paired = false;
            }
            counts = Arrays.copyOf(counts, groups);
            if (paired) {
                oddCounts = Arrays.copyOf(oddCounts, groups);
            }
        }

        @Override
        boolean addRowCounts(GroupRows rows) {
            if (!star) {
                return false;
            }
            long[] perGroup = rows.counts();
            for (int group = 0; group < rows.groups(); group++) {
                counts[group] += perGroup[group];
            }
            return true;
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
            long[] counts = this.counts;
            long[] oddCounts = this.oddCounts;
            int pairs = paired ? count & ~1 : 0;
            if (star || values.getNullCount() == 0) {
                for (int index = pairs; index < count; index++) {
                    counts[groupIds[index]]++;
                }
                for (int index = 0; index < pairs; index += 2) {
                    counts[groupIds[index]]++;
                    oddCounts[groupIds[index + 1]]++;
                }
                return;
            }
            ArrowBuf validity = values.getValidityBuffer();
            for (int index = 0; index < count; index++) {
                if (BitVectorHelper.get(validity, positions[index]) != 0) {
                    counts[groupIds[index]]++;
                }
            }
        }

        @Override
        void write(FieldVector out, SqlType type, int from, int count) {
            for (int index = 0; index < count; index++) {
                VectorValues.set(out, index, type, paired ? counts[from + index] + oddCounts[from + index] : counts[from + index]);
            }
        }

        @Override
        void writeState(FieldVector[] out, int from, int count) {
            write(out[0], SqlType.BIGINT, from, count);
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            ArrowBuf data = state[0].getDataBuffer();
            for (int index = 0; index < count; index++) {
                counts[groupIds[index]] += data.getLong((long) positions[index] * 8);
            }
        }
    }

    /**
     * SUM or AVG of INT, BIGINT or DECIMAL: an exact total at the argument's scale, and a count.
     *
     * <p>Each group's total is a 64-bit running sum ({@code sums}) plus a 128-bit carry
     * ({@code high}, {@code low}). Values that fit in a long (every INT and BIGINT, and every
     * DECIMAL of precision up to 18) add to the running sum; when an addition would overflow 64
     * bits, the running sum moves into the 128-bit part and restarts from the value, so the common
     * case is one add and one sign test per row and no total is ever silently wrong. Only a 128-bit
     * total passing 38 digits is an error (22003). Loops are specialized per layout, with a
     * separate loop for inputs without NULLs.
     *
     * <p>Rows alternate between two running sums per group ({@code sums} for even positions in
     * the batch, {@code oddSums} for odd ones): with few groups, consecutive rows mostly add to the
     * same group, and one array would chain every addition to the store of the one before. The
     * total is the 128-bit part plus both running sums. Past {@value #PAIRED_GROUPS} groups
     * consecutive rows seldom meet in one group, so the odd sums are folded into the even ones and
     * dropped; and the 128-bit part is allocated only when some group's sum first passes 64 bits.
     * A table of many groups then keeps 16 bytes a group instead of 48 (TPC-H Q18's 1.5 million
     * order keys: 48 MB fewer per worker, each megabyte fresh memory the collector must find).
     */
    static final class ExactSumAccumulator extends Accumulator {
        private final boolean average;
        private final Layout layout;
        private final int scale;
        private final String name;
        /** Up to this many groups, rows alternate between two running sums per group. */
        static final int PAIRED_GROUPS = 1 << 14;

        private long[] sums = new long[0];
        private long[] oddSums = new long[0];
        /** The 128-bit part, empty until a sum first passes 64 bits. */
        private long[] high = new long[0];
        private long[] low = new long[0];
        private long[] counts = new long[0];
        private long[] oddCounts = new long[0];
        /** Whether the odd sums and counts are kept (no more than {@link #PAIRED_GROUPS} groups). */
        private boolean paired = true;

        ExactSumAccumulator(boolean average, SqlType argumentType, String name, MemoryCharge charge) {
            super(charge);
            this.average = average;
            this.layout = Layout.of(argumentType);
            this.scale = argumentType instanceof SqlType.DecimalType decimal ? decimal.scale() : 0;
            this.name = name;
        }

        @Override
        long bytesPerGroup() {
            return (2L + (paired ? 2 : 0) + (high.length > 0 ? 2 : 0)) * Long.BYTES;
        }

        @Override
        void grow(int groups) {
            if (paired && groups > PAIRED_GROUPS) {
                unpair();
            }
            sums = Arrays.copyOf(sums, groups);
            counts = Arrays.copyOf(counts, groups);
            if (paired) {
                oddSums = Arrays.copyOf(oddSums, groups);
                oddCounts = Arrays.copyOf(oddCounts, groups);
            }
            if (high.length > 0) {
                high = Arrays.copyOf(high, groups);
                low = Arrays.copyOf(low, groups);
            }
        }

        /** Folds the odd running sums and counts into the even ones and drops them. */
        private void unpair() {
            for (int group = 0; group < oddSums.length; group++) {
                addLong(sums, group, oddSums[group]);
                counts[group] += oddCounts[group];
            }
            oddSums = new long[0];
            oddCounts = new long[0];
            paired = false;
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf data = values.getDataBuffer();
            boolean noNulls = values.getNullCount() == 0;
            long[] sums = this.sums;
            long[] oddSums = this.oddSums;
            long[] counts = this.counts;
            long[] oddCounts = this.oddCounts;
            if (!paired) {
                addUnpaired(data, validity, noNulls, positions, groupIds, count);
                return;
            }
            int pairs = count & ~1;
            switch (layout) {
                case INT32 -> {
                    for (int index = 0; index < pairs; index += 2) {
                        addInt(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                        addInt(oddSums, oddCounts, data, validity, noNulls, positions[index + 1], groupIds[index + 1]);
                    }
                    if (pairs < count) {
                        addInt(sums, counts, data, validity, noNulls, positions[pairs], groupIds[pairs]);
                    }
                }
                case INT64 -> {
                    for (int index = 0; index < pairs; index += 2) {
                        addBigint(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                        addBigint(oddSums, oddCounts, data, validity, noNulls, positions[index + 1], groupIds[index + 1]);
                    }
                    if (pairs < count) {
                        addBigint(sums, counts, data, validity, noNulls, positions[pairs], groupIds[pairs]);
                    }
                }
                case DECIMAL128 -> {
                    for (int index = 0; index < pairs; index += 2) {
                        addDecimal(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                        addDecimal(oddSums, oddCounts, data, validity, noNulls, positions[index + 1], groupIds[index + 1]);
                    }
                    if (pairs < count) {
                        addDecimal(sums, counts, data, validity, noNulls, positions[pairs], groupIds[pairs]);
                    }
                }
                case BIT, FLOAT64, UTF8 -> throw new IllegalStateException("exact SUM over a " + layout + " vector");
            }
        }

        private void addUnpaired(ArrowBuf data, ArrowBuf validity, boolean noNulls, int[] positions, int[] groupIds, int count) {
            long[] sums = this.sums;
            long[] counts = this.counts;
            switch (layout) {
                case INT32 -> {
                    for (int index = 0; index < count; index++) {
                        addInt(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                    }
                }
                case INT64 -> {
                    for (int index = 0; index < count; index++) {
                        addBigint(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                    }
                }
                case DECIMAL128 -> {
                    for (int index = 0; index < count; index++) {
                        addDecimal(sums, counts, data, validity, noNulls, positions[index], groupIds[index]);
                    }
                }
                case BIT, FLOAT64, UTF8 -> throw new IllegalStateException("exact SUM over a " + layout + " vector");
            }
        }

        /**
         * Adds {@code values[0, count)}, unscaled at the argument's scale and none of them NULL, to
         * groups {@code groupIds[0, count)}: a product the aggregation computed at native width
         * ({@code DecimalProducts}) instead of reading it from a vector.
         */
        void addLongs(long[] values, long magnitude, int[] groupIds, int count, GroupRows rows) {
            if (rows != null && sumInLanes(values, magnitude, null, count, rows)) {
                return;
            }
            long[] sums = this.sums;
            long[] oddSums = this.oddSums;
            long[] counts = this.counts;
            long[] oddCounts = this.oddCounts;
            if (!paired) {
                for (int index = 0; index < count; index++) {
                    addLong(sums, groupIds[index], values[index]);
                    counts[groupIds[index]]++;
                }
                return;
            }
            int pairs = count & ~1;
            for (int index = 0; index < pairs; index += 2) {
                int group = groupIds[index];
                int oddGroup = groupIds[index + 1];
                addLong(sums, group, values[index]);
                counts[group]++;
                addLong(oddSums, oddGroup, values[index + 1]);
                oddCounts[oddGroup]++;
            }
            if (pairs < count) {
                addLong(sums, groupIds[pairs], values[pairs]);
                counts[groupIds[pairs]]++;
            }
        }

        @Override
        boolean addStored(long[] stored, long magnitude, int[] positions, int[] groupIds, int count, GroupRows rows) {
            if (rows != null && sumInLanes(stored, magnitude, positions, count, rows)) {
                return true;
            }
            long[] sums = this.sums;
            long[] oddSums = this.oddSums;
            long[] counts = this.counts;
            long[] oddCounts = this.oddCounts;
            if (!paired) {
                for (int index = 0; index < count; index++) {
                    addLong(sums, groupIds[index], stored[positions[index]]);
                    counts[groupIds[index]]++;
                }
                return true;
            }
            int pairs = count & ~1;
            for (int index = 0; index < pairs; index += 2) {
                int group = groupIds[index];
                int oddGroup = groupIds[index + 1];
                addLong(sums, group, stored[positions[index]]);
                counts[group]++;
                addLong(oddSums, oddGroup, stored[positions[index + 1]]);
                oddCounts[oddGroup]++;
            }
            if (pairs < count) {
                addLong(sums, groupIds[pairs], stored[positions[pairs]]);
                counts[groupIds[pairs]]++;
            }
            return true;
        }

        /**
         * Adds a batch of few groups ({@link GroupRows}) without a chain through memory per row:
         * each row adds to one of {@link GroupRows#LANES} running sums of its group, the lane
         * changing with every row, so consecutive rows of one group do not wait for each other's
         * store; the lanes then go into the exact sums, and the counts come from the batch's rows
         * per group (the per-row sums and counts were a fifth of TPC-H Q1). Values are {@code
         * values[positions[i]]}, or {@code values[i]} when {@code positions} is null, none of
         * magnitude above {@code magnitude}: when {@code count} of them cannot pass 64 bits (Q1's
         * DECIMAL(15, 2) columns, 10^15 at most, in batches of up to 9,000 rows) the loop tests no
         * overflow. False, with nothing added, when a lane did overflow: the caller adds the batch
         * row by row, whose sums move to 128 bits exactly where needed.
         */
        private boolean sumInLanes(long[] values, long magnitude, int[] positions, int count, GroupRows rows) {
            long[] lanes = rows.lanes();
            int[] laneOfRows = rows.laneOfRows();
            long overflow = 0;
            if (magnitude <= Long.MAX_VALUE / Math.max(1, count)) {
                if (positions == null) {
                    for (int index = 0; index < count; index++) {
                        lanes[laneOfRows[index]] += values[index];
                    }
                } else {
                    for (int index = 0; index < count; index++) {
                        lanes[laneOfRows[index]] += values[positions[index]];
                    }
                }
            } else if (positions == null) {
                for (int index = 0; index < count; index++) {
                    long value = values[index];
                    int lane = laneOfRows[index];
                    long sum = lanes[lane];
                    long result = sum + value;
                    overflow |= (sum ^ result) & (value ^ result);
                    lanes[lane] = result;
                }
            } else {
                for (int index = 0; index < count; index++) {
                    long value = values[positions[index]];
                    int lane = laneOfRows[index];
                    long sum = lanes[lane];
                    long result = sum + value;
                    overflow |= (sum ^ result) & (value ^ result);
                    lanes[lane] = result;
                }
            }
            int laneCount = rows.groups() << GroupRows.LANE_BITS;
            if (overflow < 0) {
                Arrays.fill(lanes, 0, laneCount, 0);
                return false;
            }
            long[] sums = this.sums;
            long[] counts = this.counts;
            long[] perGroup = rows.counts();
            for (int group = 0; group < rows.groups(); group++) {
                if (perGroup[group] == 0) {
                    continue;
                }
                counts[group] += perGroup[group];
                for (int lane = group << GroupRows.LANE_BITS; lane < (group + 1) << GroupRows.LANE_BITS; lane++) {
                    addLong(sums, group, lanes[lane]);
                    lanes[lane] = 0;
                }
            }
            return true;
        }

        private void addInt(long[] sums, long[] counts, ArrowBuf data, ArrowBuf validity, boolean noNulls, int row, int group) {
            if (noNulls || BitVectorHelper.get(validity, row) != 0) {
                addLong(sums, group, data.getInt((long) row * 4));
                counts[group]++;
            }
        }

        private void addBigint(long[] sums, long[] counts, ArrowBuf data, ArrowBuf validity, boolean noNulls, int row, int group) {
            if (noNulls || BitVectorHelper.get(validity, row) != 0) {
                addLong(sums, group, data.getLong((long) row * 8));
                counts[group]++;
            }
        }

        private void addDecimal(long[] sums, long[] counts, ArrowBuf data, ArrowBuf validity, boolean noNulls, int row, int group) {
            if (noNulls || BitVectorHelper.get(validity, row) != 0) {
                long valueLow = data.getLong((long) row * 16);
                long valueHigh = data.getLong((long) row * 16 + 8);
                if (valueHigh == (valueLow >> 63)) {
                    addLong(sums, group, valueLow);
                } else {
                    addWide(group, valueHigh, valueLow);
                }
                counts[group]++;
            }
        }

        /** Adds {@code value} to the group's running sum, moving the sum to the 128-bit part first if the addition would overflow. */
        private void addLong(long[] sums, int group, long value) {
            long sum = sums[group];
            long result = sum + value;
            if (((sum ^ result) & (value ^ result)) < 0) {
                addWide(group, sum >> 63, sum);
                result = value;
            }
            sums[group] = result;
        }

        /** Adds the 128-bit value (valueHigh, valueLow) to the group's 128-bit part; 22003 past 128 bits. */
        private void addWide(int group, long valueHigh, long valueLow) {
            if (high.length == 0) {
                charge.ensure((bytesPerGroup() + 2L * Long.BYTES) * sums.length);
                high = new long[sums.length];
                low = new long[sums.length];
            }
            long sumLow = low[group] + valueLow;
            long carry = Long.compareUnsigned(sumLow, low[group]) < 0 ? 1 : 0;
            try {
                high[group] = Math.addExact(Math.addExact(high[group], valueHigh), carry);
            } catch (ArithmeticException e) {
                throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, name + ": the total passed 38 digits");
            }
            low[group] = sumLow;
        }

        /**
         * Another call's view of this accumulator's totals and counts: a SUM or AVG over the same
         * argument (no DISTINCT, no FILTER) needs exactly the state this one keeps, so it adds
         * nothing itself and only writes its own result (SUM or AVG) from this state. TPC-H Q1's
         * SUM(l_quantity) and AVG(l_quantity) then read the argument's vector in one pass, not two.
         * The owner must add every row the alias would have been given; merging partial states
         * (the final phase) keeps one accumulator per call, since each call has its own state columns.
         */
        Accumulator alias(boolean average, MemoryCharge charge) {
            return new SumAlias(this, average, charge);
        }

        @Override
        void write(FieldVector out, SqlType type, int from, int count) {
            write(out, type, from, count, average);
        }

        private void write(FieldVector out, SqlType type, int from, int count, boolean average) {
            for (int index = 0; index < count; index++) {
                int group = from + index;
                if (count(group) == 0) {
                    VectorValues.setNull(out, index);
                    continue;
                }
                if (!average && type instanceof SqlType.DecimalType decimal && decimal.scale() == scale
                        && decimal.precision() >= 19 && writeNarrowTotal(out, index, group)) {
                    continue;
                }
                BigInteger unscaled = total(group);
                BigDecimal total = new BigDecimal(unscaled, scale);
                VectorValues.set(out, index, type, convert(total, count(group), type, average));
            }
        }

        private Object convert(BigDecimal total, long count, SqlType type, boolean average) {
            if (!average) {
                return Evaluator.cast(total, SqlType.decimal(38, scale), type);
            }
            BigDecimal divisor = BigDecimal.valueOf(count);
            return switch (type) {
                case SqlType.DoubleType ignored -> total.divide(divisor, MathContext.DECIMAL128).doubleValue();
                case SqlType.DecimalType decimal -> Evaluator.cast(total.divide(divisor, decimal.scale(), RoundingMode.HALF_UP),
                        SqlType.decimal(38, decimal.scale()), type);
                default -> Evaluator.cast(total.divide(divisor, 0, RoundingMode.HALF_UP), SqlType.decimal(38, 0), type);
            };
        }

        /** The exact total at the argument's scale (NULL when no value was added) and the count of values. */
        @Override
        void writeState(FieldVector[] out, int from, int count) {
            SqlType totalType = SqlType.decimal(38, scale);
            for (int index = 0; index < count; index++) {
                int group = from + index;
                if (count(group) == 0) {
                    VectorValues.setNull(out[0], index);
                } else if (!writeNarrowTotal(out[0], index, group)) {
                    BigInteger unscaled = total(group);
                    if (unscaled.bitLength() > 127) {
                        throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, name + ": the total passed 38 digits");
                    }
                    VectorValues.set(out[0], index, totalType, new BigDecimal(unscaled, scale));
                }
                ((BigIntVector) out[1]).setSafe(index, count(group));
            }
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            ArrowBuf totals = state[0].getDataBuffer();
            ArrowBuf validity = state[0].getValidityBuffer();
            ArrowBuf counted = state[1].getDataBuffer();
            long[] sums = this.sums;
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                int group = groupIds[index];
                if (BitVectorHelper.get(validity, row) != 0) {
                    long valueLow = totals.getLong((long) row * 16);
                    long valueHigh = totals.getLong((long) row * 16 + 8);
                    if (valueHigh == (valueLow >> 63)) {
                        addLong(sums, group, valueLow);
                    } else {
                        addWide(group, valueHigh, valueLow);
                    }
                }
                counts[group] += counted.getLong((long) row * 8);
            }
        }

        /**
         * Writes the group's total as the unscaled value of decimal vector {@code out} at
         * {@code index} when it fits a long (no 128-bit part, the running sums' sum in range), without
         * the BigInteger of {@link #total}; false, writing nothing, otherwise. The vector's scale
         * must be the argument's, its precision at least 19.
         */
        private boolean writeNarrowTotal(FieldVector out, int index, int group) {
            if ((high.length > 0 && (high[group] != 0 || low[group] != 0)) || !(out instanceof DecimalVector vector)) {
                return false;
            }
            long sum = sums[group];
            long odd = paired ? oddSums[group] : 0;
            long total = sum + odd;
            if (((sum ^ total) & (odd ^ total)) < 0) {
                return false;
            }
            while (vector.getValueCapacity() <= index) {
                vector.reAlloc();
            }
            vector.getDataBuffer().setLong((long) index * 16, total);
            vector.getDataBuffer().setLong((long) index * 16 + 8, total >> 63);
            BitVectorHelper.setBit(vector.getValidityBuffer(), index);
            return true;
        }

        /** The group's exact total: the 128-bit part plus both running sums. */
        private BigInteger total(int group) {
            BigInteger total = BigInteger.valueOf(sums[group]);
            if (paired) {
                total = total.add(BigInteger.valueOf(oddSums[group]));
            }
            return high.length == 0 ? total : total.add(toBigInteger(high[group], low[group]));
        }

        /** The number of values added to the group, from both counters. */
        private long count(int group) {
            return paired ? counts[group] + oddCounts[group] : counts[group];
        }

        private static BigInteger toBigInteger(long high, long low) {
            return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
        }
    }

    /**
     * A SUM or AVG that reads the state of an {@link ExactSumAccumulator} over the same argument
     * ({@link ExactSumAccumulator#alias}): adding is the owner's work, so {@link #add} does
     * nothing; the result and the partial state are the owner's, written as this call's function.
     */
    static final class SumAlias extends Accumulator {
        private final ExactSumAccumulator owner;
        private final boolean average;

        SumAlias(ExactSumAccumulator owner, boolean average, MemoryCharge charge) {
            super(charge);
            this.owner = owner;
            this.average = average;
        }

        @Override
        long bytesPerGroup() {
            return 0;
        }

        @Override
        void grow(int groups) {
            owner.ensureGroups(groups);
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
        }

        @Override
        boolean addStored(long[] stored, long magnitude, int[] positions, int[] groupIds, int count, GroupRows rows) {
            return true;
        }

        @Override
        void write(FieldVector out, SqlType type, int from, int count) {
            owner.write(out, type, from, count, average);
        }

        @Override
        void writeState(FieldVector[] out, int from, int count) {
            owner.writeState(out, from, count);
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            throw new IllegalStateException("an aliased SUM/AVG is not merged: the final phase keeps one accumulator per call");
        }
    }

    /** SUM or AVG of DOUBLE, added in input order. */
    static final class DoubleSumAccumulator extends Accumulator {
        private final boolean average;
        private double[] sums = new double[0];
        private long[] counts = new long[0];

        DoubleSumAccumulator(boolean average, MemoryCharge charge) {
            super(charge);
            this.average = average;
        }

        @Override
        long bytesPerGroup() {
            return Double.BYTES + Long.BYTES;
        }

        @Override
        void grow(int groups) {
            sums = Arrays.copyOf(sums, groups);
            counts = Arrays.copyOf(counts, groups);
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf data = values.getDataBuffer();
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                if (BitVectorHelper.get(validity, row) != 0) {
                    int group = groupIds[index];
                    sums[group] += data.getDouble((long) row * 8);
                    counts[group]++;
                }
            }
        }

        @Override
        void write(FieldVector out, SqlType type, int from, int count) {
            for (int index = 0; index < count; index++) {
                int group = from + index;
                Object value = counts[group] == 0 ? null : average ? sums[group] / counts[group] : sums[group];
                VectorValues.set(out, index, type, value);
            }
        }

        /** The sum and the count of values; merged sums are added in the order the states arrive. */
        @Override
        void writeState(FieldVector[] out, int from, int count) {
            for (int index = 0; index < count; index++) {
                int group = from + index;
                VectorValues.set(out[0], index, SqlType.DOUBLE, sums[group]);
                ((BigIntVector) out[1]).setSafe(index, counts[group]);
            }
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            ArrowBuf partialSums = state[0].getDataBuffer();
            ArrowBuf partialCounts = state[1].getDataBuffer();
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                int group = groupIds[index];
                sums[group] += partialSums.getDouble((long) row * 8);
                counts[group] += partialCounts.getLong((long) row * 8);
            }
        }
    }

    /** MIN or MAX of any type, kept in the primitive form of the argument's vector. */
    static final class ExtremeAccumulator extends Accumulator {
        private final boolean minimum;
        private final SqlType type;
        private final Layout layout;
        private boolean[] seen = new boolean[0];
        private long[] longs = new long[0];
        private double[] doubles = new double[0];
        private long[] highs = new long[0];
        private byte[][] strings = new byte[0][];
        /** UTF8: per group with a string, its first eight bytes as {@link #prefix} packs them; most comparisons end there. */
        private long[] prefixes = new long[0];
        private long stringBytes;
        /** Per group, {@link #addCoded}'s best code of the batch in each run of its code space (-1: none yet), and the groups it touched. */
        private int[] firstRunBest = new int[0];
        private int[] secondRunBest = new int[0];
        private int[] touched = new int[0];
        /** {@link #addCoded} serves at most this many groups (its three arrays stay small, and are not charged). */
        static final int CODED_GROUPS = 1024;

        ExtremeAccumulator(boolean minimum, SqlType type, MemoryCharge charge) {
            super(charge);
            this.minimum = minimum;
            this.type = type;
            this.layout = Layout.of(type);
        }

        @Override
        long bytesPerGroup() {
            return 1 + 3L * Long.BYTES + Double.BYTES + 8;
        }

        @Override
        void grow(int groups) {
            seen = Arrays.copyOf(seen, groups);
            longs = Arrays.copyOf(longs, groups);
            switch (layout) {
                case FLOAT64 -> doubles = Arrays.copyOf(doubles, groups);
                case DECIMAL128 -> highs = Arrays.copyOf(highs, groups);
                case UTF8 -> {
                    strings = Arrays.copyOf(strings, groups);
                    prefixes = Arrays.copyOf(prefixes, groups);
                }
                case BIT, INT32, INT64 -> {
                }
            }
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
            ArrowBuf validity = values.getValidityBuffer();
            ArrowBuf data = values.getDataBuffer();
            if (layout == Layout.INT32 || layout == Layout.INT64) {
                addWholeNumbers(data, validity, values.getNullCount() == 0, positions, groupIds, count);
                return;
            }
            ArrowBuf offsets = layout == Layout.UTF8 ? values.getOffsetBuffer() : null;
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                if (BitVectorHelper.get(validity, row) == 0) {
                    continue;
                }
                int group = groupIds[index];
                switch (layout) {
                    case BIT -> offerLong(group, BitVectorHelper.get(data, row));
                    case INT32 -> offerLong(group, data.getInt((long) row * 4));
                    case INT64 -> offerLong(group, data.getLong((long) row * 8));
                    case FLOAT64 -> {
                        double value = data.getDouble((long) row * 8);
                        if (!seen[group] || better(Comparisons.compareDoubles(value, doubles[group]))) {
                            doubles[group] = value;
                            seen[group] = true;
                        }
                    }
                    case DECIMAL128 -> {
                        long valueLow = data.getLong((long) row * 16);
                        long valueHigh = data.getLong((long) row * 16 + 8);
                        int comparison = seen[group]
                                ? (valueHigh != highs[group] ? Long.compare(valueHigh, highs[group]) : Long.compareUnsigned(valueLow, longs[group]))
                                : 0;
                        if (!seen[group] || better(comparison)) {
                            highs[group] = valueHigh;
                            longs[group] = valueLow;
                            seen[group] = true;
                        }
                    }
                    case UTF8 -> offerString(group, data, offsets, row);
                }
            }
        }

        /**
         * INT, DATE, BIGINT and TIMESTAMP: one loop per width and direction, with no per-row switch
         * and no validity read when the batch has no NULLs (the scan aggregate's MAX(l_shipdate)
         * spent more in the generic loop's bookkeeping than in comparing).
         */
        private void addWholeNumbers(ArrowBuf data, ArrowBuf validity, boolean noNulls, int[] positions, int[] groupIds,
                                     int count) {
            boolean[] seen = this.seen;
            long[] longs = this.longs;
            // Compared as (value ^ flip) < (current ^ flip): flip 0 for MIN, all ones for MAX (~x reverses the order).
            long flip = minimum ? 0 : -1;
            if (noNulls && layout == Layout.INT32) {
                for (int index = 0; index < count; index++) {
                    long value = data.getInt((long) positions[index] * 4);
                    int group = groupIds[index];
                    if (!seen[group] || (value ^ flip) < (longs[group] ^ flip)) {
                        longs[group] = value;
                        seen[group] = true;
                    }
                }
                return;
            }
            if (noNulls) {
                for (int index = 0; index < count; index++) {
                    long value = data.getLong((long) positions[index] * 8);
                    int group = groupIds[index];
                    if (!seen[group] || (value ^ flip) < (longs[group] ^ flip)) {
                        longs[group] = value;
                        seen[group] = true;
                    }
                }
                return;
            }
            boolean wide = layout == Layout.INT64;
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                if (BitVectorHelper.get(validity, row) == 0) {
                    continue;
                }
                long value = wide ? data.getLong((long) row * 8) : data.getInt((long) row * 4);
                int group = groupIds[index];
                if (!seen[group] || (value ^ flip) < (longs[group] ^ flip)) {
                    longs[group] = value;
                    seen[group] = true;
                }
            }
        }

        private boolean better(int comparison) {
            return minimum ? comparison < 0 : comparison > 0;
        }

        private void offerLong(int group, long value) {
            if (!seen[group] || better(Long.compare(value, longs[group]))) {
                longs[group] = value;
                seen[group] = true;
            }
        }

        /**
         * MIN or MAX of strings from their codes (see {@link SortedCodeSpace}): one pass over the
         * rows keeps, per group, the best code of each of the space's two ordered runs; then only
         * those (at most two a group) are decoded and compared, in the unsigned byte order that
         * {@link #offerString} uses, so the answer is the one comparing every row's string gives.
         * For few groups only (a pass over the groups a batch touched follows each batch).
         */
        @Override
        boolean addCoded(FieldVector values, CodedStrings codes, int[] positions, int[] groupIds, int count, boolean oneGroup) {
            if (layout != Layout.UTF8 || !(codes.codeSpace() instanceof SortedCodeSpace space) || capacity > CODED_GROUPS) {
                return false;
            }
            int coded = codes.codedRows();
            int last = -1;
            for (int index = 0; index < count; index++) {
                last = Math.max(last, positions[index]);
            }
            if (last >= coded) {
                return false;
            }
            int[] rowCodes = codes.codes();
            int split = space.split();
            ArrowBuf validity = values.getValidityBuffer();
            boolean noNulls = values.getNullCount() == 0;
            if (oneGroup) {
                addCodedToOneGroup(space, rowCodes, split, validity, noNulls, positions, count);
                return true;
            }
            if (firstRunBest.length < capacity) {
                firstRunBest = new int[capacity];
                secondRunBest = new int[capacity];
                touched = new int[capacity];
                Arrays.fill(firstRunBest, -1);
                Arrays.fill(secondRunBest, -1);
            }
            int[] firstBest = firstRunBest;
            int[] secondBest = secondRunBest;
            int touchedCount = 0;
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                if (!noNulls && BitVectorHelper.get(validity, row) == 0) {
                    continue;
                }
                int code = rowCodes[row];
                int group = groupIds[index];
                if (firstBest[group] < 0 && secondBest[group] < 0) {
                    touched[touchedCount++] = group;
                }
                int[] best = code < split ? firstBest : secondBest;
                int current = best[group];
                if (current < 0 || (minimum ? code < current : code > current)) {
                    best[group] = code;
                }
            }
            for (int index = 0; index < touchedCount; index++) {
                int group = touched[index];
                if (firstBest[group] >= 0) {
                    offerBytes(group, space.utf8(firstBest[group]));
                    firstBest[group] = -1;
                }
                if (secondBest[group] >= 0) {
                    offerBytes(group, space.utf8(secondBest[group]));
                    secondBest[group] = -1;
                }
            }
            return true;
        }

        /**
         * {@link #addCoded} for group 0 alone: branch-free minimum or maximum of each run's codes (a
         * code outside the run, or a NULL row's, counts as the run's neutral value), a loop the JIT
         * compiles without a branch per row.
         */
        private void addCodedToOneGroup(SortedCodeSpace space, int[] rowCodes, int split, ArrowBuf validity, boolean noNulls,
                                        int[] positions, int count) {
            // Codes are compared as (code ^ flip): flip 0 for MIN, all ones for MAX (~code reverses the order
            // and maps every code >= 0 below every neutral value, Integer.MAX_VALUE).
            int flip = minimum ? 0 : -1;
            int neutral = Integer.MAX_VALUE;
            int firstBest = neutral;
            int secondBest = neutral;
            if (noNulls) {
                for (int index = 0; index < count; index++) {
                    int code = rowCodes[positions[index]];
                    int key = code ^ flip;
                    firstBest = Math.min(firstBest, code < split ? key : neutral);
                    secondBest = Math.min(secondBest, code < split ? neutral : key);
                }
            } else {
                for (int index = 0; index < count; index++) {
                    int row = positions[index];
                    int code = rowCodes[row];
                    int key = BitVectorHelper.get(validity, row) == 0 ? neutral : code ^ flip;
                    firstBest = Math.min(firstBest, code < split ? key : neutral);
                    secondBest = Math.min(secondBest, code < split ? neutral : key);
                }
            }
            if (firstBest != neutral) {
                offerBytes(0, space.utf8(firstBest ^ flip));
            }
            if (secondBest != neutral) {
                offerBytes(0, space.utf8(secondBest ^ flip));
            }
        }

        /** Offers a string's UTF-8 bytes (owned by this accumulator from here) to {@code group}, as {@link #offerString} does. */
        private void offerBytes(int group, byte[] value) {
            byte[] current = strings[group];
            if (current != null && !better(Arrays.compareUnsigned(value, current))) {
                return;
            }
            stringBytes += value.length - (current == null ? 0 : current.length);
            charge.ensure(bytesPerGroup() * capacity + stringBytes);
            strings[group] = value;
            prefixes[group] = prefix(value);
            seen[group] = true;
        }

        /**
         * Offers row {@code row}'s string to {@code group}. The first eight bytes decide most
         * comparisons (the peers suite's {@code MAX(l_comment)} over plain segments): they are
         * compared as one unsigned long against the group's {@link #prefixes}, the bytes only when
         * those are equal.
         */
        private void offerString(int group, ArrowBuf data, ArrowBuf offsets, int row) {
            int start = offsets.getInt((long) row * 4);
            int end = offsets.getInt((long) row * 4 + 4);
            byte[] current = strings[group];
            long prefix = prefix(data, start, end);
            if (current != null) {
                int comparison = Long.compareUnsigned(prefix, prefixes[group]);
                if (comparison == 0) {
                    comparison = ByteFunctionHelpers.compare(data, start, end, current, 0, current.length);
                }
                if (!better(comparison)) {
                    return;
                }
            }
            stringBytes += end - start - (current == null ? 0 : current.length);
            charge.ensure(bytesPerGroup() * capacity + stringBytes);
            byte[] copy = new byte[end - start];
            data.getBytes(start, copy);
            strings[group] = copy;
            prefixes[group] = prefix;
            seen[group] = true;
        }

        /**
         * The first eight bytes of {@code value} as an unsigned long, the first byte highest, zeros
         * past its end: when two strings' prefixes differ, they order the strings as unsigned
         * byte-wise comparison does (the first differing byte decides, or a string that ends first
         * is the smaller, its padding zero against a nonzero byte); equal prefixes decide nothing.
         */
        static long prefix(byte[] value) {
            long prefix = 0;
            for (int index = 0; index < Math.min(8, value.length); index++) {
                prefix |= (value[index] & 0xFFL) << (56 - 8 * index);
            }
            return prefix;
        }

        /** {@link #prefix(byte[])} of the bytes {@code [start, end)} of {@code data}. */
        static long prefix(ArrowBuf data, int start, int end) {
            if (end - start >= 8) {
                long word = data.getLong(start);
                return LITTLE_ENDIAN ? Long.reverseBytes(word) : word;
            }
            long prefix = 0;
            for (int index = 0; index < end - start; index++) {
                prefix |= (data.getByte(start + index) & 0xFFL) << (56 - 8 * index);
            }
            return prefix;
        }

        private static final boolean LITTLE_ENDIAN = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN;

        @Override
        void write(FieldVector out, SqlType outType, int from, int count) {
            for (int index = 0; index < count; index++) {
                int group = from + index;
                if (!seen[group]) {
                    VectorValues.setNull(out, index);
                    continue;
                }
                switch (type) {
                    case SqlType.DoubleType ignored -> VectorValues.set(out, index, type, doubles[group]);
                    case SqlType.DecimalType decimal -> VectorValues.set(out, index, type,
                            new BigDecimal(ExactSumAccumulator.toBigInteger(highs[group], longs[group]), decimal.scale()));
                    case SqlType.VarcharType ignored -> ((BaseVariableWidthVector) out).setSafe(index, strings[group]);
                    case SqlType.CharType ignored -> ((BaseVariableWidthVector) out).setSafe(index, strings[group]);
                    case SqlType.VarbinaryType ignored -> ((BaseVariableWidthVector) out).setSafe(index, strings[group]);
                    case SqlType.BinaryType ignored -> ((BaseVariableWidthVector) out).setSafe(index, strings[group]);
                    case SqlType.UuidType ignored -> ((BaseVariableWidthVector) out).setSafe(index, strings[group]);
                    case SqlType.BooleanType ignored -> VectorValues.set(out, index, type, longs[group] != 0);
                    case SqlType.IntegerType ignored -> VectorValues.set(out, index, type, (int) longs[group]);
                    case SqlType.DateType ignored -> VectorValues.set(out, index, type, Values.daysToDate((int) longs[group]));
                    case SqlType.BigintType ignored -> VectorValues.set(out, index, type, longs[group]);
                    case SqlType.TimestampType ignored -> VectorValues.set(out, index, type, Values.microsToTimestamp(longs[group]));
                }
            }
        }
    
        /** The extreme value itself (NULL when no value was seen); merging offers it like an input value. */
        @Override
        void writeState(FieldVector[] out, int from, int count) {
            write(out[0], type, from, count);
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            add(state[0], positions, groupIds, count);
        }
    }

    /**
     * STRING_AGG: per group the UTF-8 bytes of its values so far, joined by the separator, in the
     * order rows arrive (the planner sorts the input for WITHIN GROUP, and then runs the
     * aggregation whole, never split). Values are copied, so this allocates as the texts grow,
     * charged to the query's memory limit. A worker's state is its text; merging appends it with
     * the separator, in whatever order the states come (without WITHIN GROUP the order is not
     * defined, as in SQL Server).
     */
    static final class StringAggAccumulator extends Accumulator {
        private final byte[] separator;
        /** Per group its text in {@code texts[group][0, lengths[group])}; null before its first value. */
        private byte[][] texts = new byte[0][];
        private int[] lengths = new int[0];
        /** The bytes of all texts' arrays, charged besides the per-group arrays. */
        private long textBytes;

        StringAggAccumulator(String separator, MemoryCharge charge) {
            super(charge);
            this.separator = separator.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        long bytesPerGroup() {
            return Integer.BYTES + 8;
        }

        @Override
        void grow(int groups) {
            texts = Arrays.copyOf(texts, groups);
            lengths = Arrays.copyOf(lengths, groups);
        }

        @Override
        void add(FieldVector values, int[] positions, int[] groupIds, int count) {
            VarCharVector strings = (VarCharVector) values;
            ArrowBuf data = strings.getDataBuffer();
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                if (strings.isNull(row)) {
                    continue;
                }
                long start = strings.getStartOffset(row);
                append(groupIds[index], data, start, (int) (strings.getEndOffset(row) - start));
            }
            charge.ensure(bytesPerGroup() * capacity + textBytes);
        }

        private void append(int group, ArrowBuf data, long start, int length) {
            byte[] text = texts[group];
            int used = lengths[group];
            int joint = text == null ? 0 : separator.length;
            long needed = (long) used + joint + length;
            if (needed > SqlType.VarcharType.MAX_LENGTH) {
                throw new ColumbaException(ErrorCode.STRING_TOO_LONG, "STRING_AGG's result passed "
                        + SqlType.VarcharType.MAX_LENGTH + " bytes, the longest VARCHAR");
            }
            if (text == null || needed > text.length) {
                int grown = (int) Math.min(SqlType.VarcharType.MAX_LENGTH, Math.max(needed, Math.max(16, 2L * (text == null ? 0 : text.length))));
                textBytes += grown - (text == null ? 0 : text.length);
                text = text == null ? new byte[grown] : Arrays.copyOf(text, grown);
                texts[group] = text;
            }
            System.arraycopy(separator, 0, text, used, joint);
            data.getBytes(start, text, used + joint, length);
            lengths[group] = (int) needed;
        }

        @Override
        void write(FieldVector out, SqlType type, int from, int count) {
            VarCharVector strings = (VarCharVector) out;
            for (int index = 0; index < count; index++) {
                int group = from + index;
                if (texts[group] == null) {
                    VectorValues.setNull(out, index);
                } else {
                    strings.setSafe(index, texts[group], 0, lengths[group]);
                }
            }
        }

        @Override
        void writeState(FieldVector[] out, int from, int count) {
            write(out[0], null, from, count);
        }

        @Override
        void merge(FieldVector[] state, int[] positions, int[] groupIds, int count) {
            add(state[0], positions, groupIds, count);
        }
    }
}
