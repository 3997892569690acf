package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.storage.row.KeyCodec;
import dev.columba.storage.table.TableStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * How a partitioned rowstore table divides its rows (docs/design/storage.md, "Partitioned
 * tables"): by the value of one column, either in ranges between boundary values (SQL Server's
 * partition functions, RANGE LEFT or RIGHT) or by a hash of the value into a fixed number of
 * partitions. Each partition is a rowstore table of its own (a hidden catalog entry with its own
 * allocation map, on its filegroup); partition numbers start at 1, as in SQL Server.
 *
 * <p>Values are compared in the column's memcomparable key encoding ({@link KeyCodec}), the order
 * a clustered key has, and hashed as CRC32C of those bytes: stable across releases, since rows are
 * placed by it. NULL goes to partition 1 (SQL Server puts it in the leftmost partition).
 * Immutable and thread-safe.
 */
public final class TablePartitions {
    /** How values map to partitions. */
    public enum Kind {
        /** A boundary value belongs to the partition on its left: partition i holds (b[i-1], b[i]]. */
        RANGE_LEFT,
        /** A boundary value belongs to the partition on its right: partition i holds [b[i-1], b[i]). */
        RANGE_RIGHT,
        /** Partition 1 + CRC32C(key bytes) mod count. */
        HASH
    }

    private final int column;
    private final SqlType type;
    private final Kind kind;
    private final List<Object> boundaries;
    private final byte[][] encodedBoundaries;
    private final List<TableStore> stores;
    private final KeyCodec codec;

    /**
     * @param column     the partitioning column's index in the table
     * @param boundaries the boundary values in the column's type, ascending (empty for HASH)
     * @param stores     partition i's table at index i - 1
     */
    public TablePartitions(int column, SqlType type, Kind kind, List<Object> boundaries, List<TableStore> stores) {
        this.column = column;
        this.type = type;
        this.kind = kind;
        this.boundaries = List.copyOf(boundaries);
        this.stores = List.copyOf(stores);
        this.codec = new KeyCodec(List.of(type));
        this.encodedBoundaries = requireAscending(type, boundaries);
        int expected = kind == Kind.HASH ? stores.size() : boundaries.size() + 1;
        if (stores.size() != expected || stores.isEmpty()) {
            throw new IllegalArgumentException(kind + " partitioning with " + boundaries.size() + " boundaries has "
                    + stores.size() + " partition tables");
        }
    }

    /**
     * The boundaries' key encodings, checked to ascend strictly.
     *
     * @throws ColumbaException INVALID_ARGUMENT naming the first value that does not ascend
     */
    public static byte[][] requireAscending(SqlType type, List<Object> boundaries) {
        KeyCodec codec = new KeyCodec(List.of(type));
        byte[][] encoded = new byte[boundaries.size()][];
        for (int index = 0; index < boundaries.size(); index++) {
            encoded[index] = codec.encode(new Object[] {boundaries.get(index)});
            if (index > 0 && Arrays.compareUnsigned(encoded[index - 1], encoded[index]) >= 0) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "partition boundaries must ascend strictly: "
                        + boundaries.get(index - 1) + " is followed by " + boundaries.get(index));
            }
        }
        return encoded;
    }

    public int column() {
        return column;
    }

    public SqlType type() {
        return type;
    }

    public Kind kind() {
        return kind;
    }

    public List<Object> boundaries() {
        return boundaries;
    }

    public int count() {
        return stores.size();
    }

    /** Partition {@code number}'s table (1-based). */
    public TableStore store(int number) {
        return stores.get(number - 1);
    }

    public List<TableStore> stores() {
        return stores;
    }

    /** The partition (1-based) a row whose partitioning column holds {@code value} (canonical, or null) belongs to. */
    public int partitionOf(Object value) {
        if (value == null) {
            return 1;
        }
        byte[] key = codec.encode(new Object[] {value});
        if (kind == Kind.HASH) {
            CRC32C crc = new CRC32C();
            crc.update(key);
            return 1 + (int) (crc.getValue() % stores.size());
        }
        int below = 0;
        for (byte[] boundary : encodedBoundaries) {
            int comparison = Arrays.compareUnsigned(boundary, key);
            if (comparison < 0 || comparison == 0 && kind == Kind.RANGE_RIGHT) {
                below++;
            } else {
                break;
            }
        }
        return below + 1;
    }

    /**
     * The partitions that can hold a value in the given range (bounds canonical; null for open),
     * ascending: for HASH every partition unless the range is one value.
     */
    public int[] partitionsBetween(Object low, boolean lowInclusive, Object high, boolean highInclusive) {
        if (low != null && high != null) {
            int order = Arrays.compareUnsigned(codec.encode(new Object[] {low}), codec.encode(new Object[] {high}));
            if (order > 0 || order == 0 && !(lowInclusive && highInclusive)) {
                return new int[0];
            }
            if (order == 0) {
                return new int[] {partitionOf(low)};
            }
        }
        if (kind == Kind.HASH) {
            return all();
        }
        // NULL sorts in partition 1 but satisfies no comparison, so ranges never need it on its account.
        int first = low == null ? 1 : partitionOf(low);
        int last = high == null ? count() : partitionOf(high);
        // "> b" with RANGE LEFT, where b closes partition first, starts in the next one; "< b" with
        // RANGE RIGHT, where b opens partition last, ends in the one before.
        if (low != null && !lowInclusive && kind == Kind.RANGE_LEFT && first <= encodedBoundaries.length
                && Arrays.equals(encodedBoundaries[first - 1], codec.encode(new Object[] {low}))) {
            first++;
        }
        if (high != null && !highInclusive && kind == Kind.RANGE_RIGHT && last >= 2
                && Arrays.equals(encodedBoundaries[last - 2], codec.encode(new Object[] {high}))) {
            last--;
        }
        List<Integer> numbers = new ArrayList<>();
        for (int number = first; number <= last; number++) {
            numbers.add(number);
        }
        return numbers.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Every partition number, ascending. */
    public int[] all() {
        int[] numbers = new int[count()];
        Arrays.setAll(numbers, index -> index + 1);
        return numbers;
    }
}
