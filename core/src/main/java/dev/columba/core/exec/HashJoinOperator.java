package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Expr;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Equi-join: builds a hash table on the right input's key columns, then probes it with each
 * batch of the left input. Keys of any type, compared as GROUP BY compares them except that a
 * NULL key never matches anything (build rows with a NULL key are dropped, except by RIGHT_ANTI,
 * FULL and RIGHT, which return them; probe rows with one find nothing, so LEFT and FULL keep them and
 * ANTI returns them).
 * An optional residual condition over the left and right columns (the rest of an ON clause) is
 * checked on the candidate pairs. Matches of a left row come in the right input's order.
 *
 * <p>RIGHT_SEMI and RIGHT_ANTI mark build rows as probe rows find them. Without a residual
 * condition a key's rows are marked together the first time a probe row finds the key (a flag per
 * distinct key saves walking its rows again); with one, each candidate pair is checked, and build
 * rows already marked are no longer candidates.
 *
 * <p>Memory: the whole right input (rows with non-NULL keys; all rows for RIGHT_ANTI) is copied
 * into Arrow vectors, plus the hash table of its distinct keys and per-row chains (and for
 * RIGHT_SEMI and RIGHT_ANTI the match flags) on the heap, all charged to the query's
 * limit: a build side that does not fit is {@code OUT_OF_MEMORY} (53200), there is no spilling.
 * The left input is streamed. Each returned batch is the operator's own or a view of the left
 * input's batch, valid until the next {@code next()}.
 */
public final class HashJoinOperator extends JoinOperator {
    private final int[] leftKeys;
    private final int[] rightKeys;
    private GroupHashTable table;
    private MemoryCharge tableCharge;
    private MemoryCharge chainCharge;
    private int[] firstRow = new int[0];
    private int[] lastRow = new int[0];
    private int[] nextRow = new int[0];
    private int[] probeGroups = new int[0];
    private long[] probeHashes = new long[0];
    /** RIGHT_SEMI, RIGHT_ANTI: per build row and per distinct key, whether a probe row matched it. */
    private boolean[] matchedRows;
    private boolean[] matchedGroups;
    /** The build that the workers of a parallel plan share, or null when this join builds its own. */
    private final SharedHashBuild shared;
    /** This worker's part in a build read by each worker (whether its share was handed in). */
    private final SharedHashBuild.Contribution contribution = new SharedHashBuild.Contribution();
    /** Per key, the bitmap filter this join's build publishes to scans on its probe side, or null. */
    private final RuntimeFilter[] filters;

    /**
     * @param leftKeys left (probe) key columns
     * @param rightKeys right (build) key columns, pairwise of the same type as the left ones
     * @param residual a condition over the left columns followed by the right columns, or null
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} when paired keys differ in type (cast them first)
     */
    public HashJoinOperator(Operator left, Operator right, JoinType joinType, List<Integer> leftKeys,
                            List<Integer> rightKeys, Expr residual) {
        this(left, right, joinType, leftKeys, rightKeys, residual, null);
    }

    /**
     * A join that shares its build with the other workers of a parallel plan: {@code right} is
     * read by the first worker to need the table (the others never open theirs), and every worker
     * probes that one table with its own share of the left rows.
     */
    public HashJoinOperator(Operator left, Operator right, JoinType joinType, List<Integer> leftKeys,
                            List<Integer> rightKeys, Expr residual, SharedHashBuild shared) {
        super(left, right, joinType, residual, shared == null);
        this.shared = shared;
        if (shared != null) {
            shared.register();
        }
        if (leftKeys.isEmpty() || leftKeys.size() != rightKeys.size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a hash join needs pairs of keys, got "
                    + leftKeys + " and " + rightKeys);
        }
        this.leftKeys = leftKeys.stream().mapToInt(Integer::intValue).toArray();
        this.rightKeys = rightKeys.stream().mapToInt(Integer::intValue).toArray();
        this.filters = new RuntimeFilter[this.leftKeys.length];
        for (int key = 0; key < this.leftKeys.length; key++) {
            SqlType leftType = left.schema().column(this.leftKeys[key]).type();
            SqlType rightType = right.schema().column(this.rightKeys[key]).type();
            if (!leftType.arrowType().equals(rightType.arrowType())) {
                throw new ColumbaException(ErrorCode.WRONG_TYPE, "join key " + (key + 1) + " pairs " + leftType.sqlName()
                        + " with " + rightType.sqlName() + "; cast one side first");
            }
        }
    }

    /**
     * Makes the build publish the values of key {@code key} (a whole number) to {@code filter} once
     * the table is complete; only for joins that drop probe rows without a partner (INNER, SEMI,
     * and RIGHT_SEMI and RIGHT_ANTI, whose probe rows only mark partners).
     */
    public void publishKeys(int key, RuntimeFilter filter) {
        Layout layout = Layout.of(right.schema().column(rightKeys[key]).type());
        if (layout != Layout.INT32 && layout != Layout.INT64) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "a bitmap filter needs a whole-number key, not "
                    + right.schema().column(rightKeys[key]).type().sqlName());
        }
        if (joinType.keepsUnmatchedLeft() || joinType == JoinType.ANTI) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a " + joinType + " join keeps probe rows without a partner");
        }
        filters[key] = filter;
    }

    @Override
    void build() {
        if (shared == null) {
            buildFrom(allocator, right::next);
            return;
        }
        SharedHashBuild.Built built = shared.isReadByEach()
                ? shared.contribute(context, contribution, this::readShare, this::assemble)
                : shared.acquire(context, memory -> {
                    right.open(context);
                    try {
                        return assemble(memory, right::next);
                    } finally {
                        right.close();
                    }
                });
        // Every worker, the builder too, uses the published build and leaves its release to the shared build.
        buildRows = built.rows();
        table = built.table();
        firstRow = built.firstRow();
        nextRow = built.nextRow();
        matchedRows = built.matchedRows();
        matchedGroups = built.matchedGroups();
        lastRow = null;
        tableCharge = null;
        chainCharge = null;
    }

    /** A parallel build read by each worker: this worker's share of the right input, every row as it came. */
    private RowBuffer readShare(BufferAllocator memory) {
        right.open(context);
        RowBuffer share = new RowBuffer(right.schema(), memory);
        try {
            int[] positions = new int[0];
            for (Batch batch = right.next(); batch != null; batch = right.next()) {
                positions = Vectors.livePositions(batch, positions);
                share.append(batch, positions, batch.selectedCount());
            }
            return share;
        } catch (RuntimeException e) {
            closeQuietly(share, e);
            throw e;
        } finally {
            right.close();
        }
    }

    /**
     * A parallel build read by each worker: the table over every worker's share, made by the last
     * to hand in its own. The shares' rows are copied into one buffer here; the table is then
     * filled by all the workers together ({@link ParallelFill}) when it can be and is big enough
     * to gain from it, else here.
     */
    private SharedHashBuild.Assembly assemble(BufferAllocator memory, List<RowBuffer> shares, int workers) {
        // The largest share becomes the build's buffer as it is, and the others are appended to it:
        // copying every share into a new buffer was the longest serial step of a big build (TPC-H
        // Q9's 1.5 million orders at MAXDOP 2).
        RowBuffer base = largestWithoutNullKeys(shares);
        List<RowBuffer> others = new ArrayList<>(shares);
        others.remove(base);
        Iterator<RowBuffer> remaining = others.iterator();
        Supplier<Batch> input = () -> remaining.hasNext() ? remaining.next().asBatch() : null;
        if (workers < 2) {
            return new SharedHashBuild.Assembly(assemble(memory, base, input), null);
        }
        try {
            buildRows = base == null ? new RowBuffer(right.schema(), memory) : base.transfer();
            int keyed = copyBuildRows(memory, input);
            FieldVector[] keys = buildKeys();
            table.reserve(keys, keyed);
            int partitions = keyed < parallelFillRows ? 0 : table.fillPartitions(keyed, workers, fillPartitionSlots);
            if (partitions == 0) {
                insertBuildRows(keyed);
                finishBuild();
                return new SharedHashBuild.Assembly(new SharedHashBuild.Built(memory, buildRows, table, firstRow, nextRow,
                        matchedRows, matchedGroups, tableCharge, chainCharge), null);
            }
            ParallelFill fill = new ParallelFill(memory, keys, keyed, partitions);
            // The fill owns the build's memory from here on; this operator takes the published build like every worker.
            buildRows = null;
            table = null;
            tableCharge = null;
            chainCharge = null;
            return new SharedHashBuild.Assembly(null, fill);
        } catch (RuntimeException e) {
            closeFailedBuild(e);
            throw e;
        }
    }

    /**
     * The largest of the shares with no NULL in a key column (whose rows all go into the chains as
     * they are, in order), or null when every share has one.
     */
    private RowBuffer largestWithoutNullKeys(List<RowBuffer> shares) {
        RowBuffer largest = null;
        for (RowBuffer share : shares) {
            // As a batch: its vectors' value counts are the rows appended, which the NULL counts read.
            Batch rows = share.asBatch();
            boolean keyNulls = false;
            for (int key : rightKeys) {
                keyNulls |= rows.column(key).getNullCount() > 0;
            }
            if (!keyNulls && (largest == null || share.size() > largest.size())) {
                largest = share;
            }
        }
        return largest;
    }

    /** A table of fewer rows than this is filled by one worker: dividing it would cost more than it saves. */
    private static final int PARALLEL_FILL_ROWS = 1 << 16;
    /** No partition of a parallel fill covers fewer slots: a key rarely probes past its partition's end. */
    private static final int FILL_PARTITION_SLOTS = 1 << 12;
    private int parallelFillRows = PARALLEL_FILL_ROWS;
    private int fillPartitionSlots = FILL_PARTITION_SLOTS;

    /**
     * For tests: a shared build read by each worker is filled by all of them from {@code rows} rows
     * on, in partitions of at least {@code partitionSlots} slots, so that small inputs take the
     * parallel path, and their keys often probe past their partitions.
     */
    void fillInParallelFrom(int rows, int partitionSlots) {
        parallelFillRows = rows;
        fillPartitionSlots = partitionSlots;
    }
    /** A parallel fill reads the rows' partitions this many rows at a time (an item of its first phase). */
    private static final int FILL_CHUNK = 1 << 14;

    /**
     * The parallel fill of a shared build read by each worker, done by all its workers: the rows
     * already copied into one buffer, the table sized and its layout chosen ({@link
     * GroupHashTable#reserve}), in three phases of items claimed by any worker:
     * <ol>
     * <li>per chunk of {@link #FILL_CHUNK} rows: each row's partition (a range of the table's
     *     slots, {@link GroupHashTable#fillPartitions}), and the chunk's rows sorted by partition,
     *     in row order within each;
     * <li>per partition: its rows, chunk after chunk (so in row order), inserted into its slots
     *     and linked into the chains of their groups, numbered within the partition;
     * <li>per partition, once every partition's groups are counted: its group numbers made group
     *     ids (the groups of the partitions before added) in the table, its chains' first rows
     *     put in place, and its groups' keys stored.
     * </ol>
     * Then one worker marks the keys valid, inserts the few rows whose key probed past its
     * partition's slots, and publishes the table. Every key's rows are in one partition, inserted
     * and linked in row order by one thread, so each chain holds its rows in row order, as the
     * serial build links them; only the group ids differ (partition by partition).
     */
    private final class ParallelFill extends SharedHashBuild.SharedWork {
        private final BufferAllocator memory;
        private final RowBuffer rows;
        private final GroupHashTable fillTable;
        private final MemoryCharge fillTableCharge;
        private final MemoryCharge fillChainCharge;
        private final FieldVector[] keys;
        private final int keyed;
        private final int partitions;
        private final int chunks;
        /** Per chunk, its rows ordered by partition. */
        private final int[] order;
        /** Per chunk c and partition p, where p's rows start in {@link #order}: at c * (partitions + 1) + p. */
        private final int[] chunkStarts;
        private final int[] fillNextRow;
        /** Per partition: its groups, their first and last rows (by number within the partition), the rows left out. */
        private final int[] partitionGroups;
        private final int[][] partitionFirst;
        private final int[][] partitionLast;
        private final int[][] overflow;
        private final int[] overflowCount;
        /** Per partition, the groups of the partitions before it (after the second phase). */
        private int[] bases;
        private int[] fillFirstRow;
        private boolean handedOver;

        ParallelFill(BufferAllocator memory, FieldVector[] keys, int keyed, int partitions) {
            super((keyed + FILL_CHUNK - 1) / FILL_CHUNK, partitions, partitions);
            this.memory = memory;
            this.rows = buildRows;
            this.fillTable = table;
            this.fillTableCharge = tableCharge;
            this.fillChainCharge = chainCharge;
            this.keys = keys;
            this.keyed = keyed;
            this.partitions = partitions;
            this.chunks = (keyed + FILL_CHUNK - 1) / FILL_CHUNK;
            // The row order, the chains and the first and last rows of the groups (at most one per row).
            fillChainCharge.ensure(4L * keyed * Integer.BYTES + (long) chunks * (partitions + 1) * Integer.BYTES);
            order = new int[keyed];
            chunkStarts = new int[chunks * (partitions + 1)];
            fillNextRow = new int[keyed];
            partitionGroups = new int[partitions];
            partitionFirst = new int[partitions][];
            partitionLast = new int[partitions][];
            overflow = new int[partitions][];
            overflowCount = new int[partitions];
        }

        @Override
        void run(int phase, int item) {
            switch (phase) {
                case 0 -> partitionChunk(item);
                case 1 -> fillPartition(item);
                default -> rebasePartition(item);
            }
        }

        /** Phase 1: the partitions of chunk {@code chunk}'s rows, and the rows counting-sorted by them into {@link #order}. */
        private void partitionChunk(int chunk) {
            int from = chunk * FILL_CHUNK;
            int to = Math.min(keyed, from + FILL_CHUNK);
            int[] partitionOf = new int[to - from];
            fillTable.fillPartitionsOf(keys, from, to, partitionOf);
            int starts = chunk * (partitions + 1);
            for (int index = 0; index < partitionOf.length; index++) {
                chunkStarts[starts + partitionOf[index] + 1]++;
            }
            chunkStarts[starts] = from;
            for (int partition = 1; partition <= partitions; partition++) {
                chunkStarts[starts + partition] += chunkStarts[starts + partition - 1];
            }
            // Placing each row at its partition's next place leaves the starts one partition on; put them back after.
            for (int index = 0; index < partitionOf.length; index++) {
                order[chunkStarts[starts + partitionOf[index]]++] = from + index;
            }
            for (int partition = partitions; partition > 0; partition--) {
                chunkStarts[starts + partition] = chunkStarts[starts + partition - 1];
            }
            chunkStarts[starts] = from;
        }

        /** Phase 2: partition {@code partition}'s rows, chunk after chunk, into its slots and its groups' chains. */
        private void fillPartition(int partition) {
            int count = 0;
            for (int chunk = 0; chunk < chunks; chunk++) {
                int starts = chunk * (partitions + 1) + partition;
                count += chunkStarts[starts + 1] - chunkStarts[starts];
            }
            int[] first = new int[count];
            int[] last = new int[count];
            int[] left = new int[0];
            int leftCount = 0;
            int[] local = new int[FILL_CHUNK];
            int groups = 0;
            for (int chunk = 0; chunk < chunks; chunk++) {
                int starts = chunk * (partitions + 1) + partition;
                int from = chunkStarts[starts];
                int to = chunkStarts[starts + 1];
                int known = groups;
                groups = fillTable.fillPartition(keys, order, from, to, partition, groups, local);
                for (int index = from; index < to; index++) {
                    int row = order[index];
                    int group = local[index - from];
                    if (group < 0) {
                        if (leftCount == left.length) {
                            left = Arrays.copyOf(left, Math.max(16, 2 * leftCount));
                        }
                        left[leftCount++] = row;
                        continue;
                    }
                    fillNextRow[row] = -1;
                    if (group == known) {
                        // The partition numbers its groups in order of first appearance, as the rows come here.
                        known++;
                        first[group] = row;
                    } else {
                        fillNextRow[last[group]] = row;
                    }
                    last[group] = row;
                }
            }
            partitionGroups[partition] = groups;
            partitionFirst[partition] = first;
            partitionLast[partition] = last;
            overflow[partition] = left;
            overflowCount[partition] = leftCount;
        }

        /** Phase 3: partition {@code partition}'s group numbers made ids, its chains' first rows put in place, its keys stored. */
        private void rebasePartition(int partition) {
            fillTable.rebaseFill(partition, bases[partition], keys, partitionFirst[partition], partitionGroups[partition]);
            fillTable.storeFillKeys(keys, partitionFirst[partition], partitionGroups[partition], bases[partition]);
            System.arraycopy(partitionFirst[partition], 0, fillFirstRow, bases[partition], partitionGroups[partition]);
            partitionFirst[partition] = null;
            partitionLast[partition] = null;
        }

        @Override
        void afterPhase(int phase) {
            if (phase == 1) {
                bases = new int[partitions];
                int groups = 0;
                for (int partition = 0; partition < partitions; partition++) {
                    bases[partition] = groups;
                    groups += partitionGroups[partition];
                }
                fillFirstRow = new int[groups];
                // Room for every group's key, so that the third phase's partitions store theirs at once.
                fillTable.reserveKeys(groups);
            } else if (phase == 2) {
                complete();
            }
        }

        /** After the last phase: the groups' keys, the rows left out of their partitions, the flags and filters. */
        private void complete() {
            int groups = fillFirstRow.length;
            fillTable.completeFill(groups);
            buildRows = rows;
            table = fillTable;
            tableCharge = fillTableCharge;
            chainCharge = fillChainCharge;
            firstRow = fillFirstRow;
            nextRow = fillNextRow;
            lastRow = new int[groups];
            for (int partition = 0; partition < partitions; partition++) {
                // A left-out row's key probed past its partition's slots, as every row with that key did: its groups are new.
                int count = overflowCount[partition];
                if (count > 0) {
                    int[] groupIds = new int[count];
                    fillTable.groupIds(keys, overflow[partition], count, groupIds);
                    link(overflow[partition], 0, groupIds, count);
                }
            }
            finishBuild();
        }

        @Override
        SharedHashBuild.Built result() {
            handedOver = true;
            return new SharedHashBuild.Built(memory, buildRows, table, firstRow, nextRow, matchedRows, matchedGroups,
                    tableCharge, chainCharge);
        }

        @Override
        void close() {
            if (handedOver) {
                return;
            }
            try {
                rows.close();
                fillTable.close();
            } finally {
                fillTableCharge.close();
                fillChainCharge.close();
            }
        }
    }

    /** The shared table over the batches of {@code input}, its memory from {@code memory}. */
    private SharedHashBuild.Built assemble(BufferAllocator memory, Supplier<Batch> input) {
        return assemble(memory, null, input);
    }

    /**
     * The shared table over the rows of {@code base} (taken over, not copied; null for none), then
     * the batches of {@code input}, its memory from {@code memory}.
     */
    private SharedHashBuild.Built assemble(BufferAllocator memory, RowBuffer base, Supplier<Batch> input) {
        try {
            buildRows = base == null ? new RowBuffer(right.schema(), memory) : base.transfer();
            buildFrom(memory, input);
            return new SharedHashBuild.Built(memory, buildRows, table, firstRow, nextRow, matchedRows, matchedGroups,
                    tableCharge, chainCharge);
        } catch (RuntimeException e) {
            closeFailedBuild(e);
            throw e;
        }
    }

    /** Frees what a failed build allocated, before its allocator is closed; {@code failure} collects what fails to close. */
    private void closeFailedBuild(RuntimeException failure) {
        closeQuietly(buildRows, failure);
        closeQuietly(table, failure);
        closeQuietly(tableCharge, failure);
        closeQuietly(chainCharge, failure);
        buildRows = null;
        table = null;
        tableCharge = null;
        chainCharge = null;
    }

    private static void closeQuietly(AutoCloseable resource, RuntimeException failure) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Reads {@code input} (the right input's batches, null at the end) into {@link #buildRows}, the
     * hash table and the chains, charging {@code memory}. The rows are copied first and inserted
     * afterwards, so the table is sized once for their number ({@link GroupHashTable#reserve})
     * instead of doubling its way there; rows with a NULL key that the join keeps go after the
     * others, in no chain.
     */
    private void buildFrom(BufferAllocator memory, Supplier<Batch> input) {
        int keyed = copyBuildRows(memory, input);
        table.reserve(buildKeys(), keyed);
        insertBuildRows(keyed);
        finishBuild();
    }

    /**
     * Starts the build's memory charges and table, and reads {@code input} into {@link
     * #buildRows}: the rows with a key first, then the rows with a NULL key that the join keeps,
     * which go in no chain (no probe row finds them; RIGHT_ANTI, FULL and RIGHT return them).
     * Returns the rows with a key.
     */
    private int copyBuildRows(BufferAllocator memory, Supplier<Batch> input) {
        tableCharge = new MemoryCharge(memory, name() + " build hash table");
        chainCharge = new MemoryCharge(memory, name() + " build row chains");
        List<SqlType> keyTypes = new ArrayList<>();
        for (int key : rightKeys) {
            keyTypes.add(right.schema().column(key).type());
        }
        table = GroupHashTable.forJoin(keyTypes, memory, tableCharge);
        int[] positions = new int[0];
        int[] nullKeyPositions = new int[0];
        boolean keepNullKeys = joinType == JoinType.RIGHT_ANTI || joinType.keepsUnmatchedRight();
        RowBuffer nullKeyRows = null;
        try {
            for (Batch batch = input.get(); batch != null; batch = input.get()) {
                positions = Vectors.livePositions(batch, positions);
                if (keepNullKeys && nullKeyPositions.length < batch.selectedCount()) {
                    nullKeyPositions = new int[positions.length];
                }
                int count = withoutNullKeys(batch, positions, batch.selectedCount(), keepNullKeys ? nullKeyPositions : null);
                if (!batch.hasSelection() && count == batch.rowCount()) {
                    // Every row, in order (a worker's share of a shared build): copied a column at a time in bulk.
                    buildRows.appendRange(batch, 0, count);
                } else {
                    buildRows.append(batch, positions, count);
                }
                if (keepNullKeys && count < batch.selectedCount()) {
                    if (nullKeyRows == null) {
                        nullKeyRows = new RowBuffer(right.schema(), memory);
                    }
                    nullKeyRows.append(batch, nullKeyPositions, batch.selectedCount() - count);
                }
            }
            int keyed = buildRows.size();
            if (nullKeyRows != null) {
                Batch nulls = nullKeyRows.asBatch();
                buildRows.append(nulls, Vectors.livePositions(nulls, new int[0]), nulls.selectedCount());
            }
            return keyed;
        } finally {
            if (nullKeyRows != null) {
                nullKeyRows.close();
            }
        }
    }

    /** The key columns of {@link #buildRows}. */
    private FieldVector[] buildKeys() {
        FieldVector[] keys = new FieldVector[rightKeys.length];
        for (int key = 0; key < rightKeys.length; key++) {
            keys[key] = buildRows.column(rightKeys[key]);
        }
        return keys;
    }

    /** After the rows are in the table and the chains: the match flags of joins that mark build rows, and the bitmap filters. */
    private void finishBuild() {
        if (joinType.marksBuild()) {
            matchedRows = new boolean[buildRows.size()];
            matchedGroups = new boolean[table.groupCount()];
            chainCharge.ensure((long) nextRow.length * Integer.BYTES + 2L * firstRow.length * Integer.BYTES
                    + matchedRows.length + matchedGroups.length);
        }
        for (int key = 0; key < filters.length; key++) {
            if (filters[key] != null) {
                boolean wide = Layout.of(right.schema().column(rightKeys[key]).type()) == Layout.INT64;
                if (rightKeys.length == 1 && table.reservedRange()) {
                    filters[key].publishWithin(table.key(key), table.groupCount(), wide, table.reservedLow(), table.reservedHigh());
                } else {
                    filters[key].publish(table.key(key), table.groupCount(), wide);
                }
            }
        }
    }

    /** Puts the rows {@code [0, rows)} of {@link #buildRows} (those with a key) into the reserved table and the chains, a chunk at a time. */
    private void insertBuildRows(int rows) {
        FieldVector[] keys = buildKeys();
        int chunk = Math.min(rows, INSERT_CHUNK);
        int[] positions = new int[chunk];
        int[] groups = new int[chunk];
        for (int from = 0; from < rows; from += chunk) {
            int count = Math.min(chunk, rows - from);
            for (int index = 0; index < count; index++) {
                positions[index] = from + index;
            }
            table.groupIds(keys, positions, count, groups);
            link(null, from, groups, count);
        }
    }

    /** Build rows are inserted this many at a time: the scratch arrays and the slots a chunk touches stay in the cache. */
    private static final int INSERT_CHUNK = 4096;

    /**
     * Drops rows with a NULL in any key column from {@code positions}, in order, and puts them in
     * {@code dropped} (unless null); returns how many remain.
     */
    private int withoutNullKeys(Batch batch, int[] positions, int count, int[] dropped) {
        boolean nullable = false;
        for (int key : rightKeys) {
            nullable |= batch.column(key).getNullCount() > 0;
        }
        if (!nullable) {
            return count;
        }
        int kept = 0;
        int droppedCount = 0;
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            boolean anyNull = false;
            for (int key : rightKeys) {
                anyNull |= batch.column(key).isNull(row);
            }
            if (!anyNull) {
                positions[kept++] = row;
            } else if (dropped != null) {
                dropped[droppedCount++] = row;
            }
        }
        return kept;
    }

    /**
     * Appends build rows to the chains of their groups {@code groups[0, count)}, keeping input
     * order: rows {@code firstNewRow ...} when {@code rows} is null, else {@code rows[0, count)}
     * (ascending).
     */
    private void link(int[] rows, int firstNewRow, int[] groups, int count) {
        int rowsNeeded = rows == null ? firstNewRow + count : nextRow.length;
        int groupCount = table.groupCount();
        if (nextRow.length < rowsNeeded || firstRow.length < groupCount) {
            int rowCapacity = Math.max(rowsNeeded, nextRow.length * 2);
            int groupCapacity = Math.max(groupCount, firstRow.length * 2);
            chainCharge.ensure((long) rowCapacity * Integer.BYTES + 2L * groupCapacity * Integer.BYTES);
            nextRow = Arrays.copyOf(nextRow, rowCapacity);
            int oldGroups = firstRow.length;
            firstRow = Arrays.copyOf(firstRow, groupCapacity);
            lastRow = Arrays.copyOf(lastRow, groupCapacity);
            Arrays.fill(firstRow, oldGroups, groupCapacity, -1);
        }
        for (int index = 0; index < count; index++) {
            int row = rows == null ? firstNewRow + index : rows[index];
            int group = groups[index];
            nextRow[row] = -1;
            if (firstRow[group] < 0) {
                firstRow[group] = row;
            } else {
                nextRow[lastRow[group]] = row;
            }
            lastRow[group] = row;
        }
    }

    @Override
    void prepareProbe(Batch batch) {
        if (probeGroups.length < probeCount) {
            probeGroups = new int[Math.max(probeCount, probeGroups.length * 2)];
        }
        FieldVector[] keys = new FieldVector[leftKeys.length];
        for (int key = 0; key < leftKeys.length; key++) {
            keys[key] = batch.column(leftKeys[key]);
        }
        probeHashes = table.find(keys, probeRows, probeCount, probeGroups, probeHashes);
    }

    @Override
    int firstCandidate(int probeIndex) {
        int group = probeGroups[probeIndex];
        return group < 0 ? -1 : firstRow[group];
    }

    @Override
    int nextCandidate(int probeIndex, int buildRow) {
        return nextRow[buildRow];
    }

    @Override
    boolean atMostOneCandidate() {
        // Only RIGHT_ANTI, FULL and RIGHT keep build rows outside the chains (those with a NULL key).
        boolean allChained = joinType != JoinType.RIGHT_ANTI && !joinType.keepsUnmatchedRight();
        return allChained && buildRows.size() == table.groupCount();
    }

    @Override
    boolean matchesWithoutCandidates(boolean[] matches) {
        for (int index = 0; index < probeCount; index++) {
            matches[index] = probeGroups[index] >= 0;
        }
        return true;
    }

    @Override
    boolean markBuildMatchesWithoutCandidates(boolean[] buildMatched) {
        for (int index = 0; index < probeCount; index++) {
            int group = probeGroups[index];
            if (group >= 0 && !matchedGroups[group]) {
                matchedGroups[group] = true;
                for (int row = firstRow[group]; row >= 0; row = nextRow[row]) {
                    buildMatched[row] = true;
                }
            }
        }
        return true;
    }

    @Override
    boolean[] buildMatchFlags() {
        return matchedRows;
    }

    @Override
    boolean lastToFinishProbing() {
        return shared == null || shared.finishProbing();
    }

    @Override
    void release() {
        if (shared != null) {
            try {
                super.release();
            } finally {
                try {
                    right.close();
                } finally {
                    shared.release(contribution);
                }
            }
            return;
        }
        try {
            super.release();
        } finally {
            if (table != null) {
                table.close();
            }
            if (tableCharge != null) {
                tableCharge.close();
            }
            if (chainCharge != null) {
                chainCharge.close();
            }
        }
    }
}
