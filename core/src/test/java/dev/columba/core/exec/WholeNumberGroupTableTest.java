package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The group table of a single whole-number key, dense and hashed: every sequence of keys —
 * ascending, descending, close together, spread, with an outlier in the middle of a batch that
 * ends dense mode, NULLs, the extremes of BIGINT — gets the ids of first appearance a map gives,
 * stores each group's key, and finds present and absent keys (within and outside the dense range)
 * without adding groups.
 */
class WholeNumberGroupTableTest {
    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(256L << 20);
        allocator = memory.child("whole-number-groups", 128L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    enum Keys {
        ASCENDING(true, row -> 1_000 + row / 3),
        DESCENDING(true, row -> 50_000 - row / 2),
        SPARSE_ASCENDING(true, row -> 4 * (row / 4) * 4 + row % 4),
        SPREAD(false, row -> row * 1_000_003L),
        ALTERNATING_ENDS(true, row -> row % 2 == 0 ? row : -row),
        OUTLIER_IN_THE_MIDDLE(false, row -> row == 15_000 ? 1L << 30 : row % 7_000),
        EXTREMES(false, row -> switch ((int) (row % 5)) {
            case 0 -> Long.MIN_VALUE + row / 5;
            case 1 -> Long.MAX_VALUE - row / 5;
            default -> row % 97;
        });

        /** Whether the table is still dense after all rows. */
        final boolean staysDense;
        final LongUnaryOperator key;

        Keys(boolean staysDense, LongUnaryOperator key) {
            this.staysDense = staysDense;
            this.key = key;
        }
    }

    @ParameterizedTest
    @EnumSource(Keys.class)
    void bigintKeysGetIdsOfFirstAppearance(Keys keys) {
        check(SqlType.BIGINT, keys, 40_000);
    }

    @ParameterizedTest
    @EnumSource(value = Keys.class, names = {"ASCENDING", "DESCENDING", "SPARSE_ASCENDING", "ALTERNATING_ENDS",
            "OUTLIER_IN_THE_MIDDLE"})
    void intKeysGetIdsOfFirstAppearance(Keys keys) {
        check(SqlType.INT, keys, 40_000);
    }

    private void check(SqlType type, Keys shape, int rows) {
        LongUnaryOperator keyOfRow = shape.key;
        Random random = new Random(rows);
        List<Long> keys = new ArrayList<>();
        for (int row = 0; row < rows; row++) {
            long key = keyOfRow.applyAsLong(row);
            keys.add(random.nextInt(50) == 0 ? null : type == SqlType.INT ? (long) (int) key : key);
        }
        Map<Long, Integer> expectedIds = new HashMap<>();
        List<Long> expectedKeys = new ArrayList<>();
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(List.of(type), allocator, charge)) {
            for (int from = 0; from < rows; from += 4_096) {
                List<Long> batchKeys = keys.subList(from, Math.min(rows, from + 4_096));
                int[] expected = new int[batchKeys.size()];
                for (int index = 0; index < expected.length; index++) {
                    Long key = batchKeys.get(index);
                    expected[index] = expectedIds.computeIfAbsent(key, added -> {
                        expectedKeys.add(added);
                        return expectedKeys.size() - 1;
                    });
                }
                assertArrayEquals(expected, lookUp(table, type, batchKeys, true), "ids of rows " + from + "...");
            }
            assertEquals(expectedKeys.size(), table.groupCount());
            assertEquals(shape.staysDense, table.dense(), "dense at the end");
            for (int group = 0; group < expectedKeys.size(); group++) {
                Object stored = VectorValues.get(table.key(0), group, type);
                Long expected = expectedKeys.get(group);
                assertEquals(expected == null ? null : type == SqlType.INT ? (Object) (int) (long) expected : expected, stored,
                        "key of group " + group);
            }
            List<Long> probes = new ArrayList<>();
            for (int probe = 0; probe < 3_000; probe++) {
                probes.add(switch (probe % 4) {
                    case 0 -> keys.get(random.nextInt(rows));
                    case 1 -> (long) (int) (keyOfRow.applyAsLong(random.nextInt(rows)) + 1);
                    case 2 -> (long) random.nextInt(1 << 20) - (1 << 19);
                    default -> type == SqlType.INT ? (long) random.nextInt() : random.nextLong();
                });
            }
            int[] expectedFound = new int[probes.size()];
            for (int index = 0; index < expectedFound.length; index++) {
                expectedFound[index] = expectedIds.getOrDefault(probes.get(index), -1);
            }
            assertArrayEquals(expectedFound, lookUp(table, type, probes, false));
            assertEquals(expectedKeys.size(), table.groupCount());
        }
    }

    /**
     * Keys 4 apart in two runs far apart — the first 20,000 keys, then as many 400,000
     * higher, as a final merge after a repartition receives one worker's rowgroups 0 and 4 — leave
     * the dense array at the jump when only the groups seen so far bound it, and stay dense when
     * the table was told how many groups to expect; the ids are the same either way.
     */
    @Test
    void expectedGroupsKeepAFarJumpDense() {
        List<Long> keys = new ArrayList<>();
        for (long key = 0; key < 20_000; key++) {
            keys.add(key * 4);
        }
        for (long key = 0; key < 20_000; key++) {
            keys.add(400_000 + key * 4);
        }
        int[] expected = new int[keys.size()];
        Arrays.setAll(expected, row -> row);
        for (boolean told : new boolean[] {false, true}) {
            try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
                 GroupHashTable table = GroupHashTable.forGrouping(List.of(SqlType.BIGINT), allocator, charge)) {
                if (told) {
                    table.expectGroups(keys.size());
                }
                assertArrayEquals(expected, lookUp(table, SqlType.BIGINT, keys, true), "told: " + told);
                assertEquals(told, table.dense(), "told: " + told);
            }
        }
    }

    /**
     * A table sized for a join's build ({@link GroupHashTable#reserve}) picks its layout once from
     * the keys' span: dense when they lie within sixteen values a key (order keys 4 apart), hashed
     * when they spread wider (26 apart, as one year's orders do); either way it gives the ids a
     * table without reserve gives, and finds present and absent keys.
     */
    @Test
    void reservedTableChoosesItsLayoutFromTheKeysSpan() {
        for (int gap : new int[] {4, 26}) {
            List<Long> keys = new ArrayList<>();
            for (long key = 0; key < 30_000; key++) {
                keys.add(7 + (key * 7_919 % 30_000) * gap);
            }
            int[] expected = new int[keys.size()];
            Arrays.setAll(expected, row -> row);
            TableSchema schema = new TableSchema(List.of(Column.nullable("k", SqlType.INT)));
            List<Object[]> rows = new ArrayList<>();
            keys.forEach(key -> rows.add(new Object[] {(int) (long) key}));
            try (MemoryCharge charge = new MemoryCharge(allocator, "build");
                 GroupHashTable table = GroupHashTable.forJoin(List.of(SqlType.INT), allocator, charge);
                 Batch batch = TestBatches.batch(schema, rows, allocator)) {
                table.reserve(new FieldVector[] {batch.column(0)}, rows.size());
                assertEquals(gap <= 16, table.dense(), "dense after reserve, gap " + gap);
                assertArrayEquals(expected, lookUp(table, SqlType.INT, keys, true), "gap " + gap);
                assertEquals(gap <= 16, table.dense(), "dense after the inserts, gap " + gap);
                List<Long> probes = List.of(7L, 7L + gap, 7L + 1, 6L, 7L + 30_000L * gap, 7L + 29_999L * gap);
                assertArrayEquals(new int[] {keys.indexOf(7L), keys.indexOf(7L + gap), -1, -1, -1,
                        keys.indexOf(7L + 29_999L * gap)}, lookUp(table, SqlType.INT, probes, false), "gap " + gap);
                assertEquals(keys.size(), table.groupCount());
            }
        }
    }

    /** The group ids of {@code keys} (one live row each), looked up with insertion or without. */
    private int[] lookUp(GroupHashTable table, SqlType type, List<Long> keys, boolean insert) {
        TableSchema schema = new TableSchema(List.of(Column.nullable("k", type)));
        List<Object[]> rows = new ArrayList<>();
        for (Long key : keys) {
            rows.add(new Object[] {key == null ? null : type == SqlType.INT ? (Object) (int) (long) key : key});
        }
        try (Batch batch = TestBatches.batch(schema, rows, allocator)) {
            FieldVector[] columns = {batch.column(0)};
            int[] positions = new int[rows.size()];
            Arrays.setAll(positions, row -> row);
            int[] ids = new int[rows.size()];
            if (insert) {
                table.groupIds(columns, positions, rows.size(), ids);
            } else {
                table.find(columns, positions, rows.size(), ids, new long[0]);
            }
            return ids;
        }
    }
}
