package dev.columba.core.exec;

import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Comparisons;
import dev.columba.core.type.SqlType;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;

/**
 * Maps composite keys of any types to dense group ids 0, 1, 2, ... in order of first appearance:
 * the hash table under hash aggregation, DISTINCT and the hash join's build side.
 *
 * <p>Keys are compared as SQL groups them: NULL equals NULL (a join skips NULL keys itself), -0.0
 * equals 0.0 and NaN equals NaN, strings by their bytes. The distinct keys are stored once, in
 * Arrow vectors indexed by group id; the table itself is open addressing with linear probing over
 * an int array of group ids (kept at most half full) and the groups' hashes, both on the heap and
 * charged to the query's memory limit. Hashes are computed a column at a time for a whole batch.
 *
 * <p>A grouping table ({@link #forGrouping}) whose keys are all strings starts in packed mode:
 * while every key string has at most 7 bytes, each is packed into a long (length + 1 in the top
 * byte, 0 for NULL, the bytes below) and the table holds the packed keys beside the group id, so
 * that a lookup hashes and compares longs instead of bytes (the flags and codes of TPC-H Q1 and
 * their kind). The first longer string ends packed mode for good: the groups' hashes are computed
 * from the stored keys and the general table takes over, with the same group ids.
 *
 * <p>A single whole-number key starts dense: while the keys lie within sixteen values per group of
 * each other, a group is found at index key - base of an int array (no hash, no comparison), and
 * keys arriving in order — a clustered key such as TPC-H's order keys, dates — touch that array in
 * order. The first key that would spread the array further moves the groups into the hash table
 * for good, with the same group ids. The array's 4 bytes per covered value come to at most 64
 * bytes per group, the hash table's size at its emptiest (32-64 bytes per group).
 *
 * <p>A join's table ({@link #forJoin}) over two 32-bit whole-number keys (INT or DATE, such as
 * TPC-H's partsupp key) packs each pair into one long and looks it up as the single whole-number
 * key is looked up, with the pair stored in the slot: no comparison of stored key vectors. The
 * first NULL key added ends pair mode for good, as a long string ends packed mode.
 *
 * <p>Lookups that add no groups (a join's probe) over the hashed whole-number slots go in two
 * passes: the first reads every row's home slot without a branch on what it finds, so the cache
 * misses of a batch's rows overlap instead of waiting on one another; the second walks on from
 * the home slot only for the rows whose home slot held another key.
 *
 * <p>A join's table over one whole-number key or a pair of 32-bit keys may be filled by several
 * threads at once after {@link #reserve} ({@link #fillPartitions}): each thread inserts the rows
 * of one partition, a contiguous range of the slots (or dense values) that holds the home slots of
 * its keys, numbering its groups on its own; the numbers become ids once every partition is
 * counted ({@link #rebaseFill}). The result is the table a serial fill makes, up to group ids.
 *
 * <p>String keys decoded from columnstore dictionaries arrive with their codes ({@link
 * CodedStrings}); while every key of a batch has codes, no NULLs, and at most 65,536 combinations,
 * groups are found by the combined code in an array, and only a combination not seen yet in the
 * current code spaces is looked up by its strings.
 */
final class GroupHashTable implements AutoCloseable {
    private static final long NULL_HASH = 0x5bd1e995L;

    private final SqlType[] types;
    private final Layout[] layouts;
    private final FieldVector[] keys;
    private final MemoryCharge charge;
    /** High bits of a group's hash, compared before its key; the low bits hold group id + 1 (0: empty slot). */
    private static final long TAG_MASK = 0xFFFFFFFF00000000L;
    /** Strings up to this many bytes are compared byte by byte in place; longer ones by Arrow's word-wise comparison. */
    private static final int SHORT_STRING = 16;

    private long[] slots = new long[16];
    /** Whether the key is one whole number (INT, BIGINT, DATE, TIMESTAMP): then {@link #entries} is the table. */
    private final boolean wholeNumberKey;
    /** For a whole-number key: pairs (group id + 1, key) per slot, 0 as group for an empty slot. */
    private long[] entries;
    private int wholeNumberEntries;
    /** For a whole-number key: the group of the NULL key, -1 until there is one. */
    private int nullGroup = -1;
    /**
     * For a whole-number key while its values lie close together: group id + 1 at index
     * value - {@link #denseBase} (0: no group), instead of {@link #entries}; null once the values
     * spread too far (see {@link #widenDense}).
     */
    private int[] dense;
    private long denseBase;
    /**
     * For one partition of a grouping by a whole-number key ({@link #holdResidue}): its keys are all
     * {@code residue + k × stride}, so the dense array is indexed by {@code floorDiv(key, stride)}
     * and covers its keys without the gaps of the other partitions' keys. 1 and 0 otherwise.
     */
    private int denseStride = 1;
    /** log2 of {@link #denseStride} when it is a power of two (the division is then a shift), else -1. */
    private int denseShift;
    private long denseResidue;
    /** The lowest and the highest key in the dense array. */
    private long denseLow;
    private long denseHigh;
    /** The groups expected in all ({@link #expectGroups}), 0 when none is known. */
    private long expectedGroups;
    /** For each group added by the lookup under way, the input row holding its key. */
    private int[] pendingRows = new int[16];
    private long[] groupHashes = new long[8];
    private int groupCount;
    private long[] rowHashes = new long[0];
    /** Whether the key is two 32-bit whole numbers packed into one long of {@link #entries} (see {@link #forJoin}). */
    private boolean pairKey;
    /** Whether the keys are short strings held packed in {@link #packedEntries} (see the class comment). */
    private boolean packed;
    /** In packed mode: per slot, group id + 1 (0: empty), then the packed key strings; {@link #packedSlots} slots. */
    private long[] packedEntries;
    private int packedSlots;
    /** In packed mode: the packed keys of the rows of the lookup under way, per key (lookups that add groups only). */
    private long[][] packedRows;

    /** A table for grouping: string keys start in packed mode. */
    static GroupHashTable forGrouping(List<SqlType> keyTypes, BufferAllocator allocator, MemoryCharge charge) {
        GroupHashTable table = new GroupHashTable(keyTypes, allocator, charge);
        if (!table.wholeNumberKey && table.layouts.length > 0) {
            boolean strings = true;
            for (Layout layout : table.layouts) {
                strings &= layout == Layout.UTF8;
            }
            if (strings) {
                table.packed = true;
                table.packedSlots = 16;
                table.packedEntries = new long[table.packedSlots * (table.layouts.length + 1)];
                table.packedRows = new long[table.layouts.length][0];
                table.charge.ensure(table.bytes());
            }
        }
        return table;
    }

    /** A table for a hash join's build: a pair of 32-bit whole-number keys starts in pair mode. */
    static GroupHashTable forJoin(List<SqlType> keyTypes, BufferAllocator allocator, MemoryCharge charge) {
        GroupHashTable table = new GroupHashTable(keyTypes, allocator, charge);
        if (table.layouts.length == 2 && table.layouts[0] == Layout.INT32 && table.layouts[1] == Layout.INT32) {
            table.pairKey = true;
            table.entries = new long[32];
            table.charge.ensure(table.bytes());
        }
        return table;
    }

    GroupHashTable(List<SqlType> keyTypes, BufferAllocator allocator, MemoryCharge charge) {
        this.types = keyTypes.toArray(new SqlType[0]);
        this.keys = new FieldVector[types.length];
        this.layouts = new Layout[types.length];
        this.charge = charge;
        for (int key = 0; key < types.length; key++) {
            keys[key] = VectorValues.newVector("key" + key, types[key], allocator);
            layouts[key] = Layout.of(types[key]);
        }
        wholeNumberKey = types.length == 1 && (layouts[0] == Layout.INT32 || layouts[0] == Layout.INT64);
        if (wholeNumberKey) {
            slots = new long[0];
            entries = new long[32];
            dense = new int[0];
        }
        charge.ensure(bytes());
    }

    /**
     * Tells the table it will hold about {@code groups} groups, so that its dense array may spread
     * over that many groups' worth of values from the start, not only over the groups seen so far.
     * A final merge after a repartition knows its rows before the first one: its partial groups
     * arrive worker by worker, each worker's in the order of its rowgroups, and the first key of a
     * far rowgroup would otherwise end dense mode although the groups to come fill the array. The
     * merge passes its row count, at least its groups and at most the workers times as many
     * (TPC-H Q18's orders at two workers: rows / workers left the array at its bound).
     */
    void expectGroups(long groups) {
        expectedGroups = Math.max(expectedGroups, groups);
    }

    /**
     * Tells a grouping table over one whole-number key that its keys lie in {@code [low, high]}
     * (the planner's figures for the column, NULL aside): the dense array is then made over that
     * span at the first group, when the span is within what the groups expected may spread over,
     * instead of growing from {@link #DENSE_MINIMUM} by doubling. Each step of the doubling was a
     * fresh array and a copy: TPC-H Q18's order keys at MAXDOP 2 (four partition tables of three
     * million values each) made 47% of the workers' heap allocation there. A key outside the span
     * (rows the figures do not cover yet) widens the array as before.
     */
    void expectKeys(long low, long high) {
        if (low <= high) {
            expectedLow = low;
            expectedHigh = high;
        }
    }

    /** The dense array's length, -1 when the table is not (or no longer) dense: for tests. */
    int denseLength() {
        return dense == null ? -1 : dense.length;
    }

    /** The span of the keys expected ({@link #expectKeys}); high below low when none is known. */
    private long expectedLow = Long.MAX_VALUE;
    private long expectedHigh = Long.MIN_VALUE;

    /**
     * Tells a grouping table over one whole-number key that it holds partition {@code residue} of
     * keys divided into {@code stride} partitions by their value modulo {@code stride} (see
     * {@code HashAggregateOperator.mergeAcrossWorkers}): its dense array then covers
     * {@code 1 / stride} of their span, as a table over all keys would cover all of it. Before the first group.
     */
    void holdResidue(int residue, int stride) {
        if (groupCount > 0 || !wholeNumberKey || pairKey) {
            throw new IllegalStateException("a residue is held by an empty grouping table over one whole-number key");
        }
        if (stride < 1 || residue < 0 || residue >= stride) {
            throw new IllegalArgumentException("residue " + residue + " of stride " + stride);
        }
        denseStride = stride;
        denseShift = Integer.bitCount(stride) == 1 ? Integer.numberOfTrailingZeros(stride) : -1;
        denseResidue = residue;
    }

    /**
     * Sizes the empty table for the keys at rows {@code [0, rows)} of {@code input}, which a hash
     * join's build has read in full before inserting them (none NULL): the table never rehashes
     * on the way to holding them, and a single whole-number key picks its layout once from the
     * keys' span: the dense array over exactly that span when it is within {@link #DENSE_SPREAD}
     * values a row, else the hash table, without first filling a dense array it would leave.
     */
    void reserve(FieldVector[] input, int rows) {
        if (groupCount > 0) {
            throw new IllegalStateException("reserve before the first group");
        }
        // The rows bound the distinct keys from above; a large build of repeated keys (lineitem on
        // a part) would size its table far past them, so beyond RESERVE_MAXIMUM the table grows.
        int sized = Math.min(rows, RESERVE_MAXIMUM);
        int needed = slotsFor(sized);
        if (wholeNumberKey) {
            reserveWholeNumbers(input[0], rows, sized, needed);
        } else if (pairKey) {
            charge.ensure(bytes() + 2L * needed * Long.BYTES);
            entries = new long[2 * needed];
        } else if (!packed && needed > slots.length) {
            charge.ensure(bytes() + (long) needed * Long.BYTES + (long) (sized + 1) * Long.BYTES);
            slots = new long[needed];
            groupHashes = new long[Math.max(8, sized + 1)];
        }
    }

    /**
     * Makes room for {@code groups} groups' keys in the key vectors at once, before the first group
     * (a final merge that knows its rows): one allocation each instead of a doubling per power of
     * two on the way there.
     */
    void reserveKeys(int groups) {
        if (groupCount > 0) {
            throw new IllegalStateException("reserve the keys before the first group");
        }
        for (FieldVector key : keys) {
            if (key.getValueCapacity() < groups) {
                key.setInitialCapacity(groups);
                key.allocateNew();
            }
        }
    }

    /** The smallest and largest key {@link #reserve} found among a single whole-number key's rows; high below low when it did not look. */
    private long reservedLow = Long.MAX_VALUE;
    private long reservedHigh = Long.MIN_VALUE;

    /**
     * Whether {@link #reserve} found the span of a single whole-number key's values: then every
     * group's key lies in {@code [reservedLow(), reservedHigh()]}, as long as only the rows reserved
     * for are inserted (a hash join's build).
     */
    boolean reservedRange() {
        return reservedLow <= reservedHigh;
    }

    long reservedLow() {
        return reservedLow;
    }

    long reservedHigh() {
        return reservedHigh;
    }

    /** {@link #reserve} sizes a table for at most this many groups (32 MB of whole-number slots). */
    private static final int RESERVE_MAXIMUM = 1 << 20;

    /** For {@link #reserve}: the keys of rows {@code [0, rows)} choose dense (over at most sixteen values per sized group) or hashed. */
    private void reserveWholeNumbers(FieldVector input, int rows, int sized, int slots) {
        if (rows == 0) {
            return;
        }
        ArrowBuf data = input.getDataBuffer();
        boolean wide = layouts[0] == Layout.INT64;
        // Bounds checked once for the loops below, which read by address: on one thread while the
        // other workers of a shared build wait, over every row of the build.
        Objects.checkFromIndexSize(0, (long) rows * (wide ? 8 : 4), data.capacity());
        long address = data.memoryAddress();
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        if (wide) {
            for (int row = 0; row < rows; row++) {
                long value = MemoryUtil.getLong(address + 8L * row);
                low = Math.min(low, value);
                high = Math.max(high, value);
            }
        } else {
            for (int row = 0; row < rows; row++) {
                long value = MemoryUtil.getInt(address + 4L * row);
                low = Math.min(low, value);
                high = Math.max(high, value);
            }
        }
        reservedLow = low;
        reservedHigh = high;
        long span = high - low + 1;
        boolean fits = low > -DENSE_VALUE_BOUND && high < DENSE_VALUE_BOUND && span > 0
                && span <= Math.min(DENSE_MAXIMUM, Math.max(DENSE_MINIMUM, (long) DENSE_SPREAD * sized));
        if (fits) {
            charge.ensure(bytes() + span * Integer.BYTES);
            dense = new int[(int) span];
            denseBase = low;
            denseLow = low;
            denseHigh = high;
        } else {
            dense = null;
            charge.ensure(bytes() + 2L * slots * Long.BYTES);
            entries = new long[2 * slots];
        }
    }

    /** The slots of a table holding {@code groups} groups at most half full: a power of two of at least 2 × (groups + 1). */
    private static int slotsFor(long groups) {
        long slots = 32;
        while (slots < 2 * (groups + 1)) {
            slots *= 2;
        }
        if (slots > 1 << 30) {
            throw new ColumbaException(ErrorCode.OUT_OF_MEMORY, "a hash table of " + groups + " groups is too large");
        }
        return (int) slots;
    }

    /** A parallel fill's partitions cover this many slots (or dense offsets) each, 0 before {@link #fillPartitions}. */
    private int fillPartitionSize;

    /**
     * Prepares a parallel fill of the rows reserved for ({@link #reserve}, before any group) and
     * returns its number of partitions (each over at least {@code minimumSlots} slots or dense
     * values), or 0 when this table is filled by one thread only: keys
     * other than one whole number or a pair of 32-bit ones, or a hashed table without room for
     * every row to be a group of its own (a parallel fill cannot rehash). Each partition is a
     * contiguous range of the slots (or of the dense array's values), and every key lands in the
     * partition of its home slot, so all rows of one key go to one partition and the threads
     * filling different partitions write different slots, with no lock and no atomic.
     */
    int fillPartitions(int rows, int workers, int minimumSlots) {
        if (groupCount > 0 || rows == 0) {
            return 0;
        }
        long length;
        if (wholeNumberKey && dense != null) {
            length = dense.length;
        } else if ((wholeNumberKey || pairKey) && (entries.length >> 1) >= 2L * (rows + 1)) {
            length = entries.length >> 1;
        } else {
            return 0;
        }
        int partitions = Integer.highestOneBit(Math.max(1, workers)) * FILL_PARTITIONS_PER_WORKER;
        while (partitions > 1 && length / partitions < minimumSlots) {
            partitions >>= 1;
        }
        if (partitions < 2) {
            return 0;
        }
        fillPartitionSize = (int) ((length + partitions - 1) / partitions);
        return partitions;
    }

    /** Partitions per worker of a parallel fill: more than one, so that a worker slowed down by the machine's load holds up little. */
    private static final int FILL_PARTITIONS_PER_WORKER = 8;

    /** The value a single whole-number key or a pair of 32-bit keys is looked up by, of row {@code row} (no NULL). */
    private long fillValue(ArrowBuf first, ArrowBuf second, boolean wide, int row) {
        if (pairKey) {
            return (long) first.getInt((long) row * 4) << 32 | (second.getInt((long) row * 4) & 0xFFFFFFFFL);
        }
        return wide ? first.getLong((long) row * 8) : first.getInt((long) row * 4);
    }

    /** Puts the partition of each row {@code [from, to)} of {@code input} (no NULL key) at {@code partitions[row - from]}. */
    void fillPartitionsOf(FieldVector[] input, int from, int to, int[] partitions) {
        ArrowBuf first = input[0].getDataBuffer();
        ArrowBuf second = pairKey ? input[1].getDataBuffer() : null;
        boolean wide = layouts[0] == Layout.INT64;
        int size = fillPartitionSize;
        if (dense != null) {
            long base = denseBase;
            for (int row = from; row < to; row++) {
                partitions[row - from] = (int) ((fillValue(first, second, wide, row) - base) / size);
            }
            return;
        }
        int mask = (entries.length >> 1) - 1;
        for (int row = from; row < to; row++) {
            long value = fillValue(first, second, wide, row);
            partitions[row - from] = ((int) mix(value * 0x9E3779B97F4A7C15L) & mask) / size;
        }
    }

    /**
     * Inserts the rows {@code positions[from, to)} of {@code input}, all of partition {@code
     * partition} and none with a NULL key, into that partition's slots only: one thread per
     * partition, several partitions at once. The partition's groups are numbered 0, 1, ... in order
     * of first appearance, {@code groups} of them so far; puts each row's at {@code
     * localGroups[index - from]}, or -1 for a row whose key would probe past the partition's last
     * slot (inserted later by {@link #groupIds} on one thread). Returns the partition's groups now.
     * The numbers become group ids once {@link #rebaseFill} has added the groups of the partitions
     * before.
     */
    int fillPartition(FieldVector[] input, int[] positions, int from, int to, int partition, int groups, int[] localGroups) {
        ArrowBuf first = input[0].getDataBuffer();
        ArrowBuf second = pairKey ? input[1].getDataBuffer() : null;
        boolean wide = layouts[0] == Layout.INT64;
        int added = groups;
        if (dense != null) {
            int[] table = dense;
            long base = denseBase;
            for (int index = from; index < to; index++) {
                int offset = (int) (fillValue(first, second, wide, positions[index]) - base);
                int group = table[offset];
                if (group == 0) {
                    group = ++added;
                    table[offset] = group;
                }
                localGroups[index - from] = group - 1;
            }
            return added;
        }
        long[] table = entries;
        int mask = (table.length >> 1) - 1;
        int end = Math.min((partition + 1) * fillPartitionSize, table.length >> 1);
        for (int index = from; index < to; index++) {
            long value = fillValue(first, second, wide, positions[index]);
            int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
            int found = -1;
            for (; slot < end; slot++) {
                long group = table[2 * slot];
                if (group == 0) {
                    table[2 * slot] = ++added;
                    table[2 * slot + 1] = value;
                    found = (int) added - 1;
                    break;
                }
                if (table[2 * slot + 1] == value) {
                    found = (int) group - 1;
                    break;
                }
            }
            localGroups[index - from] = found;
        }
        return added;
    }

    /**
     * Turns partition {@code partition}'s numbers into group ids, adding {@code base}: the groups
     * of the partitions before it. Its {@code groups} groups have their keys at rows {@code
     * firstRows[0, groups)} of {@code input}. A dense array is rebased group by group, at each
     * key's place: it may span many more values than it holds groups (TPC-H Q21's orders of status
     * 'F' cover eight values each), and a sweep of the partition's range read them all.
     */
    void rebaseFill(int partition, int base, FieldVector[] input, int[] firstRows, int groups) {
        if (base == 0) {
            return;
        }
        if (dense != null) {
            ArrowBuf first = input[0].getDataBuffer();
            boolean wide = layouts[0] == Layout.INT64;
            int[] table = dense;
            long low = denseBase;
            for (int group = 0; group < groups; group++) {
                table[(int) (fillValue(first, null, wide, firstRows[group]) - low)] += base;
            }
            return;
        }
        long[] table = entries;
        int start = partition * fillPartitionSize;
        int end = Math.min(start + fillPartitionSize, table.length >> 1);
        for (int slot = start; slot < end; slot++) {
            long group = table[2 * slot];
            table[2 * slot] = group == 0 ? 0 : group + base;
        }
    }

    /**
     * A parallel fill's keys, partition by partition: writes the values of the whole-number key
     * columns {@code input} at rows {@code groupRows[0, groups)} as the keys of groups {@code
     * base ...}. Several threads write the key vectors at once, each its partition's range of
     * groups (made room for by {@link #reserveKeys} before), and only their values: a validity
     * byte spans eight groups, which may belong to two partitions, so {@link #completeFill} marks
     * every key valid afterwards, on one thread (a join's keys are never NULL).
     */
    void storeFillKeys(FieldVector[] input, int[] groupRows, int groups, int base) {
        for (int key = 0; key < keys.length; key++) {
            long from = input[key].getDataBuffer().memoryAddress();
            long to = keys[key].getDataBuffer().memoryAddress();
            if (layouts[key] == Layout.INT64) {
                for (int group = 0; group < groups; group++) {
                    MemoryUtil.putLong(to + 8L * (base + group), MemoryUtil.getLong(from + 8L * groupRows[group]));
                }
            } else {
                for (int group = 0; group < groups; group++) {
                    MemoryUtil.putInt(to + 4L * (base + group), MemoryUtil.getInt(from + 4L * groupRows[group]));
                }
            }
        }
    }

    /**
     * Ends a parallel fill (every partition rebased and its keys stored by {@link #storeFillKeys}):
     * the table holds {@code groups} groups, whose keys are marked valid here. Rows left out as
     * probing past their partition go in afterwards through {@link #groupIds}.
     */
    void completeFill(int groups) {
        groupCount = groups;
        if (dense == null) {
            wholeNumberEntries = groups;
        }
        fillPartitionSize = 0;
        for (FieldVector key : keys) {
            ArrowBuf validity = key.getValidityBuffer();
            int whole = groups >>> 3;
            validity.setOne(0, whole);
            for (int group = whole << 3; group < groups; group++) {
                BitVectorHelper.setBit(validity, group);
            }
            key.setValueCount(groups);
        }
    }

    /** Whether a whole-number key is still looked up in the dense array (for tests). */
    boolean dense() {
        return dense != null;
    }

    /** Whether a pair of 32-bit keys is still looked up packed into one long (for tests). */
    boolean pairMode() {
        return pairKey;
    }

    int groupCount() {
        return groupCount;
    }

    /** The stored values of key {@code key}, at position = group id. */
    FieldVector key(int key) {
        return keys[key];
    }

    /**
     * The group id of each of the rows {@code positions[0, count)} of {@code input} (one vector per
     * key), adding a group for each key not seen before; ids are assigned in row order.
     */
    void groupIds(FieldVector[] input, int[] positions, int count, int[] groupIds) {
        rowHashes = lookUp(input, positions, count, groupIds, true, rowHashes);
    }

    /**
     * Like {@link #groupIds(FieldVector[], int[], int, int[])}, with the dictionary codes of the
     * string keys ({@code codes[key]}, null for a key without).
     */
    void groupIds(FieldVector[] input, CodedStrings[] codes, int[] positions, int count, int[] groupIds) {
        if (codes == null || !lookUpCoded(input, codes, positions, count, groupIds)) {
            materialize(codes);
            rowHashes = lookUp(input, positions, count, groupIds, true, rowHashes);
        }
    }

    /** Has every key's strings decoded whose producer deferred them (see {@link CodedStrings#defer}). */
    static void materialize(CodedStrings[] codes) {
        if (codes != null) {
            for (CodedStrings coded : codes) {
                if (coded != null) {
                    coded.materialize();
                }
            }
        }
    }

    /** Code spaces larger than this (the product of the keys' code counts) are looked up by value. */
    private static final int MAX_CODES = 1 << 16;
    /** The code spaces of {@link #codeGroups}, one per key. */
    private Object[] codeSpaces;
    /** Group id + 1 per combination of the keys' codes (0: not seen yet), for the spaces in {@link #codeSpaces}. */
    private int[] codeGroups;
    private int[] missed = new int[0];
    private int[] missedPositions = new int[0];
    private int[] missedGroups = new int[0];
    private int[] combinedCodes = new int[0];

    /**
     * The lookup of keys that all have dictionary codes ({@link CodedStrings}): a row's codes are combined
     * into one index of {@link #codeGroups}, which holds the group of every combination seen, so
     * only rows with a combination not seen yet are looked up by value (and their groups
     * remembered). Returns false, doing nothing, when a key carries no codes or has NULLs, or the
     * combinations are too many. Insertion only: {@link #find} may run on several threads, this writes.
     */
    private boolean lookUpCoded(FieldVector[] input, CodedStrings[] codes, int[] positions, int count, int[] groupIds) {
        long combinations = 1;
        for (int key = 0; key < input.length; key++) {
            CodedStrings coded = codes[key];
            // A NULL row's code is meaningless: batches with NULLs go by value.
            if (coded == null || coded.codedRows() < input[key].getValueCount() || input[key].getNullCount() != 0) {
                return false;
            }
            combinations *= coded.codeCount();
            if (combinations > MAX_CODES) {
                return false;
            }
        }
        boolean sameSpaces = codeSpaces != null;
        for (int key = 0; sameSpaces && key < input.length; key++) {
            sameSpaces = codeSpaces[key] == codes[key].codeSpace();
        }
        if (!sameSpaces) {
            if (codeGroups == null || codeGroups.length < combinations) {
                charge.ensure(bytes() + combinations * Integer.BYTES);
                codeGroups = new int[(int) combinations];
            } else {
                Arrays.fill(codeGroups, 0);
            }
            codeSpaces = new Object[input.length];
            for (int key = 0; key < input.length; key++) {
                codeSpaces[key] = codes[key].codeSpace();
            }
        }
        if (missed.length < count) {
            missed = new int[Math.max(count, 2 * missed.length)];
            missedPositions = new int[missed.length];
            missedGroups = new int[missed.length];
            combinedCodes = new int[missed.length];
        }
        // The rows' combined codes, a key at a time: the keys' codes as digits of mixed radix.
        int[] combined = combinedCodes;
        int[] firstCodes = codes[0].codes();
        int[] table = codeGroups;
        int misses = 0;
        if (codes.length == 2) {
            // Two keys (TPC-H Q1's flag and status) combined and looked up in one pass; the rows of
            // combinations not seen yet (rare after the first batches) are gathered in a second.
            int[] secondCodes = codes[1].codes();
            int radix = codes[1].codeCount();
            int absent = 0;
            for (int index = 0; index < count; index++) {
                int position = positions[index];
                int group = table[firstCodes[position] * radix + secondCodes[position]] - 1;
                groupIds[index] = group;
                absent |= group;
            }
            for (int index = 0; absent < 0 && index < count; index++) {
                if (groupIds[index] < 0) {
                    int position = positions[index];
                    combined[index] = firstCodes[position] * radix + secondCodes[position];
                    missed[misses++] = index;
                }
            }
        } else {
            for (int index = 0; index < count; index++) {
                combined[index] = firstCodes[positions[index]];
            }
            for (int key = 1; key < codes.length; key++) {
                int[] keyCodes = codes[key].codes();
                int radix = codes[key].codeCount();
                for (int index = 0; index < count; index++) {
                    combined[index] = combined[index] * radix + keyCodes[positions[index]];
                }
            }
            for (int index = 0; index < count; index++) {
                int group = table[combined[index]];
                groupIds[index] = group - 1;
                missed[misses] = index;
                misses += group == 0 ? 1 : 0;
            }
        }
        if (misses > 0) {
            materialize(codes);
            for (int miss = 0; miss < misses; miss++) {
                missedPositions[miss] = positions[missed[miss]];
            }
            rowHashes = lookUp(input, missedPositions, misses, missedGroups, true, rowHashes);
            for (int miss = 0; miss < misses; miss++) {
                int group = missedGroups[miss];
                groupIds[missed[miss]] = group;
                table[combined[missed[miss]]] = group + 1;
            }
        }
        return true;
    }

    /**
     * Like {@link #groupIds} without adding groups: -1 for a key not in the table. Threads may
     * find at once in a table nobody adds to, each with scratch space of its own for the rows'
     * hashes: {@code hashes}, returned grown if it was too small.
     */
    long[] find(FieldVector[] input, int[] positions, int count, int[] groupIds, long[] hashes) {
        return lookUp(input, positions, count, groupIds, false, hashes);
    }

    private long[] lookUp(FieldVector[] input, int[] positions, int count, int[] groupIds, boolean insert, long[] scratch) {
        if (wholeNumberKey) {
            return lookUpWholeNumbers(input[0], positions, count, groupIds, insert, scratch);
        }
        if (pairKey) {
            if (!insert || !anyNull(input, positions, count)) {
                return lookUpPairs(input, positions, count, groupIds, insert, scratch);
            }
            leavePairMode();
        }
        if (packed) {
            long[][] values = insert ? packedRows : new long[layouts.length][0];
            boolean allPacked = true;
            for (int key = 0; key < layouts.length; key++) {
                if (values[key].length < count) {
                    values[key] = new long[Math.max(count, values[key].length * 2)];
                }
                allPacked &= packStrings(input[key], positions, count, values[key]);
            }
            if (allPacked || !insert) {
                lookUpPacked(input, values, positions, count, groupIds, insert);
                return scratch;
            }
            leavePackedMode();
        }
        long[] rowHashes = hashRows(input, positions, count, scratch);
        int storedGroups = groupCount;
        Buffers inputBuffers = Buffers.of(input, layouts);
        Buffers storedBuffers = Buffers.of(keys, layouts);
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            long hash = rowHashes[index];
            long tag = hash & TAG_MASK;
            int mask = slots.length - 1;
            int slot = slotOf(hash, mask);
            while (true) {
                long entry = slots[slot];
                if (entry == 0) {
                    int group = -1;
                    if (insert) {
                        group = addGroup(row, hash, slot, storedGroups);
                    }
                    groupIds[index] = group;
                    break;
                }
                if ((entry & TAG_MASK) == tag) {
                    int group = (int) entry - 1;
                    if (matches(inputBuffers, row, storedBuffers, group, storedGroups)) {
                        groupIds[index] = group;
                        break;
                    }
                }
                slot = (slot + 1) & mask;
            }
        }
        if (groupCount > storedGroups) {
            storeNewKeys(input, storedGroups);
        }
        return rowHashes;
    }

    /**
     * The lookup for a single INT, BIGINT, DATE or TIMESTAMP key: the key is stored in the slot
     * beside its group id, so a probe reads one place in memory (the generic table reads the slot,
     * then the group's stored key elsewhere). The rows' keys are read into {@code scratch} first.
     */
    private long[] lookUpWholeNumbers(FieldVector input, int[] positions, int count, int[] groupIds, boolean insert,
                                      long[] scratch) {
        long[] values = scratch.length >= count ? scratch : new long[Math.max(count, scratch.length * 2)];
        ArrowBuf data = input.getDataBuffer();
        ArrowBuf validity = input.getValidityBuffer();
        boolean wide = layouts[0] == Layout.INT64;
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            values[index] = wide ? data.getLong((long) row * 8) : data.getInt((long) row * 4);
        }
        int storedGroups = groupCount;
        // A key vector without NULLs (a NOT NULL column, most keys) skips the per-row validity test.
        int first = dense == null ? 0 : lookUpDense(values, input.getNullCount() == 0 ? null : validity, positions, count, groupIds,
                insert, storedGroups);
        if (!insert) {
            if (first < count) {
                findEntries(values, first, count, groupIds);
                for (int index = first; index < count; index++) {
                    if (BitVectorHelper.get(validity, positions[index]) == 0) {
                        groupIds[index] = nullGroup;
                    }
                }
            }
            return values;
        }
        // A table beyond the caches is looked up first without inserting (findEntries: the rows'
        // cache misses overlap); the rows it finds are done, and the others then probe slots that
        // are in the cache by now. Inserting row by row waited for one miss at a time: TPC-H Q3's
        // build of 147,000 orders spent 9.5% of the query on one load of the insertion loop.
        boolean found = count - first >= LOOK_AHEAD_ROWS && entries != null && entries.length >= LOOK_AHEAD_ENTRIES;
        if (found) {
            findEntries(values, first, count, groupIds);
        }
        for (int index = first; index < count; index++) {
            int row = positions[index];
            if (BitVectorHelper.get(validity, row) == 0) {
                groupIds[index] = nullKeyGroup(row, insert, storedGroups);
                continue;
            }
            if (found && groupIds[index] >= 0) {
                continue;
            }
            long value = values[index];
            long[] table = entries;
            int mask = (table.length >> 1) - 1;
            int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
            while (true) {
                long group = table[2 * slot];
                if (group == 0) {
                    groupIds[index] = insert ? addWholeNumberGroup(row, value, slot, storedGroups) : -1;
                    break;
                }
                if (table[2 * slot + 1] == value) {
                    groupIds[index] = (int) group - 1;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        if (groupCount > storedGroups) {
            storeNewKeys(new FieldVector[] {input}, storedGroups);
        }
        return values;
    }

    /**
     * Finds the groups of the whole numbers {@code values[from, count)} in {@link #entries}
     * without adding any (-1 for a value not there). First a pass that reads each value's home
     * slot and decides branch-free: the group when the slot holds the value, -1 when it is empty,
     * else -2; as no row's loads wait on the branches of the row before, the cache misses of the
     * rows overlap. Then the rows marked -2 walk on from their home slot (its cache line is loaded
     * by now), as the linear probing that placed their value did.
     */
    private void findEntries(long[] values, int from, int count, int[] groupIds) {
        long[] table = entries;
        int mask = (table.length >> 1) - 1;
        int collisions = 0;
        for (int index = from; index < count; index++) {
            long value = values[index];
            int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
            long group = table[2 * slot];
            long stored = table[2 * slot + 1];
            int found = stored == value || group == 0 ? (int) group - 1 : -2;
            groupIds[index] = found;
            collisions += found == -2 ? 1 : 0;
        }
        for (int index = from; collisions > 0 && index < count; index++) {
            if (groupIds[index] != -2) {
                continue;
            }
            collisions--;
            long value = values[index];
            int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
            while (true) {
                slot = (slot + 1) & mask;
                long group = table[2 * slot];
                if (group == 0 || table[2 * slot + 1] == value) {
                    groupIds[index] = (int) group - 1;
                    break;
                }
            }
        }
    }

    /** Inserting whole numbers looks them up first in a table of at least this many longs (2 MB, beyond the core's caches)... */
    private static final int LOOK_AHEAD_ENTRIES = 1 << 18;
    /** ...when at least this many rows come at once. */
    private static final int LOOK_AHEAD_ROWS = 64;

    /** Whether a key of a row at {@code positions[0, count)} is NULL. */
    private static boolean anyNull(FieldVector[] input, int[] positions, int count) {
        for (FieldVector vector : input) {
            if (vector.getNullCount() == 0) {
                continue;
            }
            ArrowBuf validity = vector.getValidityBuffer();
            for (int index = 0; index < count; index++) {
                if (BitVectorHelper.get(validity, positions[index]) == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The lookup in pair mode: each row's two 32-bit keys as one long (the first in the high
     * half), looked up in {@link #entries} as a single whole-number key is. A row with a NULL key
     * is in no group (lookups that add groups get here only without NULLs: the others leave pair
     * mode first).
     */
    private long[] lookUpPairs(FieldVector[] input, int[] positions, int count, int[] groupIds, boolean insert, long[] scratch) {
        long[] values = scratch.length >= count ? scratch : new long[Math.max(count, scratch.length * 2)];
        ArrowBuf high = input[0].getDataBuffer();
        ArrowBuf low = input[1].getDataBuffer();
        for (int index = 0; index < count; index++) {
            long row = positions[index];
            values[index] = (long) high.getInt(row * 4) << 32 | (low.getInt(row * 4) & 0xFFFFFFFFL);
        }
        if (!insert) {
            findEntries(values, 0, count, groupIds);
            for (FieldVector vector : input) {
                if (vector.getNullCount() == 0) {
                    continue;
                }
                ArrowBuf validity = vector.getValidityBuffer();
                for (int index = 0; index < count; index++) {
                    if (BitVectorHelper.get(validity, positions[index]) == 0) {
                        groupIds[index] = -1;
                    }
                }
            }
            return values;
        }
        int storedGroups = groupCount;
        for (int index = 0; index < count; index++) {
            long value = values[index];
            long[] table = entries;
            int mask = (table.length >> 1) - 1;
            int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
            while (true) {
                long group = table[2 * slot];
                if (group == 0) {
                    groupIds[index] = addWholeNumberGroup(positions[index], value, slot, storedGroups);
                    break;
                }
                if (table[2 * slot + 1] == value) {
                    groupIds[index] = (int) group - 1;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        if (groupCount > storedGroups) {
            storeNewKeys(input, storedGroups);
        }
        return values;
    }

    /** Ends pair mode: the general table takes over the groups so far, with the same group ids. */
    private void leavePairMode() {
        pairKey = false;
        entries = null;
        wholeNumberEntries = 0;
        hashStoredGroups();
    }

    /**
     * The whole-number lookup while the table is dense: a key's group is one array element away,
     * and keys that arrive in order (a clustered key, a date) touch memory in order. Returns
     * {@code count}, or the index of the first row not looked up because the keys spread too far
     * for the dense array (the table has then left dense mode, and the caller goes on hashing).
     * {@code validity} is null when no key is NULL.
     */
    private int lookUpDense(long[] values, ArrowBuf validity, int[] positions, int count, int[] groupIds, boolean insert,
                            int storedGroups) {
        int shift = denseShift;
        int stride = denseStride;
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            if (validity != null && BitVectorHelper.get(validity, row) == 0) {
                groupIds[index] = nullKeyGroup(row, insert, storedGroups);
                continue;
            }
            // The value's place among its partition's values (itself outside a partitioned aggregation).
            long compact = shift >= 0 ? values[index] >> shift : Math.floorDiv(values[index], stride);
            long offset = compact - denseBase;
            int[] table = dense;
            if (offset >= 0 && offset < table.length) {
                int group = table[(int) offset];
                if (group != 0 || !insert) {
                    groupIds[index] = group - 1;
                } else {
                    int added = addWholeNumberGroup(row, 0, -1, storedGroups);
                    table[(int) offset] = added + 1;
                    groupIds[index] = added;
                    denseLow = Math.min(denseLow, compact);
                    denseHigh = Math.max(denseHigh, compact);
                }
            } else if (!insert) {
                groupIds[index] = -1;
            } else if (widenDense(compact)) {
                index--; // the same row again, now within the array
            } else {
                leaveDenseMode();
                return index;
            }
        }
        return count;
    }

    /** The group of the NULL whole-number key, added for row {@code row} if inserting and there is none yet (else -1). */
    private int nullKeyGroup(int row, boolean insert, int storedGroups) {
        if (nullGroup < 0 && insert) {
            nullGroup = addWholeNumberGroup(row, 0, -1, storedGroups);
        }
        return nullGroup;
    }

    /** Dense arrays start this long, and may always grow to this length, however few the groups. */
    private static final int DENSE_MINIMUM = 1024;
    /**
     * A dense array may cover at most this many values per group: 4 bytes each, at most the hash
     * table's 32-64 bytes a group (16 keeps TPC-H Q21's orders of status 'F', 8.2 order keys
     * apart, dense; 8 built the array and then left it).
     */
    private static final int DENSE_SPREAD = 16;
    /** No dense array is longer than this (256 MB). */
    private static final int DENSE_MAXIMUM = 1 << 26;
    /** Keys beyond ±2^62 are hashed: the dense arithmetic stays far from overflow. */
    private static final long DENSE_VALUE_BOUND = 1L << 62;

    /** Grows the dense array to cover {@code value} (at least doubling it); false if that would exceed the spread. */
    private boolean widenDense(long value) {
        if (value <= -DENSE_VALUE_BOUND || value >= DENSE_VALUE_BOUND) {
            return false;
        }
        int length = dense.length;
        long limit = Math.min(DENSE_MAXIMUM, Math.max(DENSE_MINIMUM, DENSE_SPREAD * Math.max(groupCount + 1L, expectedGroups)));
        if (length == 0) {
            long first = value;
            int size = DENSE_MINIMUM;
            if (expectedLow <= expectedHigh && expectedLow > -DENSE_VALUE_BOUND && expectedHigh < DENSE_VALUE_BOUND) {
                long spanLow = compact(expectedLow);
                long span = compact(expectedHigh) - spanLow + 1;
                if (value >= spanLow && value < spanLow + span && span > DENSE_MINIMUM && span <= limit) {
                    first = spanLow;
                    size = (int) span;
                }
            }
            charge.ensure(bytes() + (long) size * Integer.BYTES);
            dense = new int[size];
            denseBase = first;
            denseLow = value;
            denseHigh = value;
            return true;
        }
        long low = Math.min(denseLow, value);
        long high = Math.max(denseHigh, value);
        long needed = high - low + 1;
        if (needed > limit) {
            return false;
        }
        int grown = (int) Math.min(limit, Math.max(needed, 2L * length));
        charge.ensure(bytes() + (long) grown * Integer.BYTES);
        int[] table = new int[grown];
        // Growing downwards the array ends at the highest key, growing upwards it starts at the lowest.
        long base = value < denseLow ? high - grown + 1 : low;
        System.arraycopy(dense, (int) (denseLow - denseBase), table, (int) (denseLow - base), (int) (denseHigh - denseLow + 1));
        dense = table;
        denseBase = base;
        denseLow = low;
        denseHigh = high;
        return true;
    }

    /** A key's place among its partition's keys, as {@link #lookUpDense} computes it (the key itself outside a partitioned aggregation). */
    private long compact(long key) {
        return denseShift >= 0 ? key >> denseShift : Math.floorDiv(key, denseStride);
    }

    /** Moves the groups of the dense array into the hash table ({@link #entries}); group ids do not change. */
    private void leaveDenseMode() {
        int[] table = dense;
        dense = null;
        int slots = 2 * slotsFor(groupCount);
        charge.ensure(bytes() + (long) slots * Long.BYTES);
        entries = new long[slots];
        for (int offset = 0; offset < table.length; offset++) {
            int group = table[offset];
            if (group == 0) {
                continue;
            }
            placeWholeNumber(entries, group, (denseBase + offset) * denseStride + denseResidue);
            wholeNumberEntries++;
        }
    }

    /**
     * Packs the strings at {@code positions[0, count)} of {@code vector} into {@code out}: 0 for
     * NULL, else (length + 1) in the top byte and the bytes from the lowest byte up; -1 (no
     * packed value) for a string of more than 7 bytes. Returns whether every string fitted.
     */
    private static boolean packStrings(FieldVector vector, int[] positions, int count, long[] out) {
        ArrowBuf validity = vector.getValidityBuffer();
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        boolean allFit = true;
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            if (BitVectorHelper.get(validity, row) == 0) {
                out[index] = 0;
                continue;
            }
            int start = offsets.getInt((long) row * 4);
            int length = offsets.getInt((long) row * 4 + 4) - start;
            if (length > 7) {
                out[index] = -1;
                allFit = false;
                continue;
            }
            long value = (long) (length + 1) << 56;
            for (int offset = 0; offset < length; offset++) {
                value |= (data.getByte(start + offset) & 0xFFL) << (8 * offset);
            }
            out[index] = value;
        }
        return allFit;
    }

    private static long packedHash(long[][] values, int index) {
        long hash = 0;
        for (long[] column : values) {
            hash = (hash + column[index]) * 0x9E3779B97F4A7C15L;
        }
        return mix(hash);
    }

    /**
     * The lookup in packed mode. A row with a string too long to pack is in no group (only lookups
     * that add no groups get here with one: the others leave packed mode first).
     */
    private void lookUpPacked(FieldVector[] input, long[][] values, int[] positions, int count, int[] groupIds, boolean insert) {
        int keyCount = values.length;
        int stride = keyCount + 1;
        int storedGroups = groupCount;
        rows:
        for (int index = 0; index < count; index++) {
            for (long[] column : values) {
                if (column[index] == -1) {
                    groupIds[index] = -1;
                    continue rows;
                }
            }
            long hash = packedHash(values, index);
            long[] table = packedEntries;
            int mask = packedSlots - 1;
            int slot = (int) hash & mask;
            while (true) {
                int base = slot * stride;
                long group = table[base];
                if (group == 0) {
                    groupIds[index] = insert ? addPackedGroup(positions[index], values, index, base, storedGroups) : -1;
                    break;
                }
                boolean same = true;
                for (int key = 0; key < keyCount; key++) {
                    same &= table[base + 1 + key] == values[key][index];
                }
                if (same) {
                    groupIds[index] = (int) group - 1;
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        if (groupCount > storedGroups) {
            storeNewKeys(input, storedGroups);
        }
    }

    /** Adds a group for the packed key of row {@code index} of the lookup at entry {@code base} of the packed table. */
    private int addPackedGroup(int row, long[][] values, int index, int base, int storedGroups) {
        int group = groupCount;
        int pending = group - storedGroups;
        if (pending == pendingRows.length) {
            pendingRows = Arrays.copyOf(pendingRows, Math.max(16, pending * 2));
            charge.ensure(bytes());
        }
        pendingRows[pending] = row;
        groupCount++;
        packedEntries[base] = group + 1;
        for (int key = 0; key < values.length; key++) {
            packedEntries[base + 1 + key] = values[key][index];
        }
        if (groupCount * 2L > packedSlots) {
            rehashPacked();
        }
        return group;
    }

    private void rehashPacked() {
        int stride = layouts.length + 1;
        int grownSlots = packedSlots * 2;
        long[] grown = new long[grownSlots * stride];
        charge.ensure(bytes() + (long) grown.length * Long.BYTES);
        long[][] key = new long[layouts.length][1];
        for (int slot = 0; slot < packedSlots; slot++) {
            int base = slot * stride;
            if (packedEntries[base] == 0) {
                continue;
            }
            for (int column = 0; column < layouts.length; column++) {
                key[column][0] = packedEntries[base + 1 + column];
            }
            int target = (int) packedHash(key, 0) & (grownSlots - 1);
            while (grown[target * stride] != 0) {
                target = (target + 1) & (grownSlots - 1);
            }
            System.arraycopy(packedEntries, base, grown, target * stride, stride);
        }
        packedEntries = grown;
        packedSlots = grownSlots;
    }

    /**
     * Ends packed mode: hashes the stored keys of the groups so far as the general table hashes
     * rows, and builds its slots from them. Group ids do not change.
     */
    private void leavePackedMode() {
        hashStoredGroups();
        packed = false;
        packedEntries = null;
        packedRows = null;
        charge.ensure(bytes());
    }

    /** Hashes the stored keys of the groups so far as the general table hashes rows, and builds its slots from them. */
    private void hashStoredGroups() {
        int groups = groupCount;
        int[] all = new int[groups];
        for (int group = 0; group < groups; group++) {
            all[group] = group;
        }
        long[] hashes = hashRows(keys, all, groups, new long[0]);
        groupHashes = Arrays.copyOf(hashes, Math.max(8, groups + 1));
        int size = 16;
        while (size < 2L * (groups + 1)) {
            size *= 2;
        }
        long[] table = new long[size];
        for (int group = 0; group < groups; group++) {
            long hash = groupHashes[group];
            int slot = slotOf(hash, size - 1);
            while (table[slot] != 0) {
                slot = (slot + 1) & (size - 1);
            }
            table[slot] = (hash & TAG_MASK) | (group + 1);
        }
        slots = table;
        charge.ensure(bytes());
    }

    /** Adds a group for whole-number key {@code value} at {@code slot} (-1: the NULL key, kept apart). */
    private int addWholeNumberGroup(int row, long value, int slot, int storedGroups) {
        int group = groupCount;
        int pending = group - storedGroups;
        if (pending == pendingRows.length) {
            pendingRows = Arrays.copyOf(pendingRows, Math.max(16, pending * 2));
            charge.ensure(bytes());
        }
        pendingRows[pending] = row;
        groupCount++;
        if (slot >= 0) {
            entries[2 * slot] = group + 1;
            entries[2 * slot + 1] = value;
            wholeNumberEntries++;
            if (wholeNumberEntries * 2L > entries.length >> 1) {
                rehashWholeNumbers();
            }
        }
        return group;
    }

    private void rehashWholeNumbers() {
        long[] grown = new long[entries.length * 2];
        charge.ensure(bytes() + (long) grown.length * Long.BYTES);
        for (int slot = 0; slot < entries.length >> 1; slot++) {
            long group = entries[2 * slot];
            if (group == 0) {
                continue;
            }
            placeWholeNumber(grown, group, entries[2 * slot + 1]);
        }
        entries = grown;
    }

    /** Puts (group id + 1, value) into the first free slot of {@code table} from the value's hash (a slot is free). */
    private static void placeWholeNumber(long[] table, long group, long value) {
        int mask = (table.length >> 1) - 1;
        int slot = (int) mix(value * 0x9E3779B97F4A7C15L) & mask;
        while (table[2 * slot] != 0) {
            slot = (slot + 1) & mask;
        }
        table[2 * slot] = group;
        table[2 * slot + 1] = value;
    }

    private static int slotOf(long hash, int mask) {
        return (int) hash & mask;
    }

    /**
     * Adds a group whose key is row {@code row} of the current input; the key is copied into
     * {@link #keys} with the batch's other new keys at the end of the lookup ({@link #storeNewKeys}).
     */
    private int addGroup(int row, long hash, int slot, int storedGroups) {
        int group = groupCount;
        if (group == groupHashes.length) {
            long[] grown = new long[groupHashes.length * 2];
            System.arraycopy(groupHashes, 0, grown, 0, group);
            groupHashes = grown;
            charge.ensure(bytes());
        }
        int pending = group - storedGroups;
        if (pending == pendingRows.length) {
            pendingRows = Arrays.copyOf(pendingRows, Math.max(16, pending * 2));
        }
        pendingRows[pending] = row;
        groupHashes[group] = hash;
        slots[slot] = (hash & TAG_MASK) | (group + 1);
        groupCount++;
        if (groupCount * 2L > slots.length) {
            rehash();
        }
        return group;
    }

    /** Copies the keys of the groups added by the current lookup, {@code storedGroups ...}, from the input rows. */
    private void storeNewKeys(FieldVector[] input, int storedGroups) {
        int added = groupCount - storedGroups;
        for (int key = 0; key < keys.length; key++) {
            VectorCopy.gather(input[key], pendingRows, added, keys[key], storedGroups);
            keys[key].setValueCount(groupCount);
        }
    }

    private void rehash() {
        long[] grown = new long[slots.length * 2];
        charge.ensure(bytes() + (long) grown.length * Long.BYTES);
        int mask = grown.length - 1;
        for (int group = 0; group < groupCount; group++) {
            long hash = groupHashes[group];
            int slot = slotOf(hash, mask);
            while (grown[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            grown[slot] = (hash & TAG_MASK) | (group + 1);
        }
        slots = grown;
    }

    private long bytes() {
        return (long) slots.length * Long.BYTES + (long) groupHashes.length * Long.BYTES + (long) pendingRows.length * Integer.BYTES
                + (entries == null ? 0 : (long) entries.length * Long.BYTES)
                + (dense == null ? 0 : (long) dense.length * Integer.BYTES)
                + (codeGroups == null ? 0 : (long) codeGroups.length * Integer.BYTES)
                + (packedEntries == null ? 0 : (long) packedEntries.length * Long.BYTES);
    }

    /** The rows' hashes, in {@code scratch} or a larger array replacing it. */
    private long[] hashRows(FieldVector[] input, int[] positions, int count, long[] scratch) {
        return hashRows(input, layouts, positions, count, scratch);
    }

    /**
     * The hashes of the rows at {@code positions} over the key columns {@code input} (of the
     * layouts given), in {@code scratch} or a larger array replacing it: the hashes a table keyed
     * by these columns uses, so equal keys hash alike wherever they come from (a repartition
     * sends each group to one worker by them).
     */
    static long[] hashRows(FieldVector[] input, Layout[] layouts, int[] positions, int count, long[] scratch) {
        long[] hashes = scratch.length >= count ? scratch : new long[Math.max(count, scratch.length * 2)];
        for (int index = 0; index < count; index++) {
            hashes[index] = 0;
        }
        for (int key = 0; key < input.length; key++) {
            FieldVector vector = input[key];
            ArrowBuf validity = vector.getValidityBuffer();
            ArrowBuf data = vector.getDataBuffer();
            Layout layout = layouts[key];
            ArrowBuf offsets = layout == Layout.UTF8 ? vector.getOffsetBuffer() : null;
            // Without NULLs the whole-number keys (most keys) take loops without the validity test and the layout switch.
            boolean noNulls = vector.getNullCount() == 0;
            if (noNulls && layout == Layout.INT32) {
                for (int index = 0; index < count; index++) {
                    hashes[index] = (hashes[index] + data.getInt((long) positions[index] * 4)) * 0x9E3779B97F4A7C15L;
                }
                continue;
            }
            if (noNulls && layout == Layout.INT64) {
                for (int index = 0; index < count; index++) {
                    hashes[index] = (hashes[index] + data.getLong((long) positions[index] * 8)) * 0x9E3779B97F4A7C15L;
                }
                continue;
            }
            for (int index = 0; index < count; index++) {
                int row = positions[index];
                long value = BitVectorHelper.get(validity, row) == 0 ? NULL_HASH : valueHash(layout, data, offsets, row);
                hashes[index] = (hashes[index] + value) * 0x9E3779B97F4A7C15L;
            }
        }
        for (int index = 0; index < count; index++) {
            hashes[index] = mix(hashes[index]);
        }
        return hashes;
    }

    private static long valueHash(Layout layout, ArrowBuf data, ArrowBuf offsets, int row) {
        return switch (layout) {
            case BIT -> BitVectorHelper.get(data, row);
            case INT32 -> data.getInt((long) row * 4);
            case INT64 -> data.getLong((long) row * 8);
            case FLOAT64 -> {
                double value = data.getDouble((long) row * 8);
                yield value == 0 ? 0 : Double.doubleToLongBits(value);
            }
            case DECIMAL128 -> data.getLong((long) row * 16) * 31 + data.getLong((long) row * 16 + 8);
            case UTF8 -> stringHash(data, offsets, row);
        };
    }

    private static long stringHash(ArrowBuf data, ArrowBuf offsets, int row) {
        return ByteFunctionHelpers.hash(data, offsets.getInt((long) row * 4), offsets.getInt((long) row * 4 + 4));
    }

    /** Murmur3's 64-bit finalizer: spreads every input bit over the slot index. */
    private static long mix(long hash) {
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        return hash ^ (hash >>> 33);
    }

    /** The buffers of key vectors, fetched once per lookup (a vector's getters are virtual calls). */
    private record Buffers(ArrowBuf[] data, ArrowBuf[] validity, ArrowBuf[] offsets) {
        static Buffers of(FieldVector[] vectors, Layout[] layouts) {
            ArrowBuf[] data = new ArrowBuf[vectors.length];
            ArrowBuf[] validity = new ArrowBuf[vectors.length];
            ArrowBuf[] offsets = new ArrowBuf[vectors.length];
            for (int key = 0; key < vectors.length; key++) {
                data[key] = vectors[key].getDataBuffer();
                validity[key] = vectors[key].getValidityBuffer();
                offsets[key] = layouts[key] == Layout.UTF8 ? vectors[key].getOffsetBuffer() : null;
            }
            return new Buffers(data, validity, offsets);
        }
    }

    /**
     * Whether row {@code row} of the input has group {@code group}'s key: a group added by the
     * lookup under way ({@code group >= storedGroups}) still has its key in an input row.
     */
    private boolean matches(Buffers input, int row, Buffers stored, int group, int storedGroups) {
        boolean pending = group >= storedGroups;
        int storedRow = pending ? pendingRows[group - storedGroups] : group;
        Buffers other = pending ? input : stored;
        for (int key = 0; key < layouts.length; key++) {
            int inputValid = BitVectorHelper.get(input.validity[key], row);
            int storedValid = BitVectorHelper.get(other.validity[key], storedRow);
            if ((inputValid & storedValid) == 0) {
                if (inputValid != storedValid) {
                    return false;
                }
                continue;
            }
            ArrowBuf left = input.data[key];
            ArrowBuf right = other.data[key];
            boolean same = switch (layouts[key]) {
                case BIT -> BitVectorHelper.get(left, row) == BitVectorHelper.get(right, storedRow);
                case INT32 -> left.getInt((long) row * 4) == right.getInt((long) storedRow * 4);
                case INT64 -> left.getLong((long) row * 8) == right.getLong((long) storedRow * 8);
                case FLOAT64 -> Comparisons.compareDoubles(left.getDouble((long) row * 8), right.getDouble((long) storedRow * 8)) == 0;
                case DECIMAL128 -> left.getLong((long) row * 16) == right.getLong((long) storedRow * 16)
                        && left.getLong((long) row * 16 + 8) == right.getLong((long) storedRow * 16 + 8);
                case UTF8 -> sameString(left, input.offsets[key], row, right, other.offsets[key], storedRow);
            };
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameString(ArrowBuf left, ArrowBuf leftOffsets, int leftRow, ArrowBuf right, ArrowBuf rightOffsets,
                                      int rightRow) {
        int leftStart = leftOffsets.getInt((long) leftRow * 4);
        int length = leftOffsets.getInt((long) leftRow * 4 + 4) - leftStart;
        int rightStart = rightOffsets.getInt((long) rightRow * 4);
        if (rightOffsets.getInt((long) rightRow * 4 + 4) - rightStart != length) {
            return false;
        }
        if (length > SHORT_STRING) {
            return ByteFunctionHelpers.equal(left, leftStart, leftStart + length, right, rightStart, rightStart + length) != 0;
        }
        for (int index = 0; index < length; index++) {
            if (left.getByte(leftStart + index) != right.getByte(rightStart + index)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (FieldVector key : keys) {
            if (key != null) {
                key.close();
            }
        }
    }
}
