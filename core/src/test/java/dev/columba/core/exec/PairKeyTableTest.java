package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A join's table over two 32-bit keys (pair mode): pairs with duplicates, negative values and
 * the extremes of INT (whose packing must keep the halves apart), looked up with insertion and
 * found without, get the ids of first appearance a map gives and their stored keys; a probe row
 * with a NULL key finds nothing; a NULL key added ends pair mode with the ids unchanged.
 */
class PairKeyTableTest {
    private static final List<SqlType> TYPES = List.of(SqlType.INT, SqlType.DATE);
    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(256L << 20);
        allocator = memory.child("pair-keys", 128L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    /** A pair of keys, either NULL; equal as SQL groups them (NULL equals NULL). */
    private record Pair(Integer first, Integer second) {
    }

    private static Integer value(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> Integer.MIN_VALUE + random.nextInt(3);
            case 1 -> Integer.MAX_VALUE - random.nextInt(3);
            case 2 -> -1 - random.nextInt(50);
            default -> random.nextInt(400);
        };
    }

    @Test
    void pairsGetIdsOfFirstAppearanceAndAreFound() {
        Random random = new Random(17);
        List<Pair> build = new ArrayList<>();
        for (int row = 0; row < 30_000; row++) {
            build.add(new Pair(value(random), value(random)));
        }
        List<Pair> probes = new ArrayList<>();
        for (int row = 0; row < 20_000; row++) {
            probes.add(switch (row % 5) {
                case 0 -> build.get(random.nextInt(build.size()));
                case 1 -> new Pair(random.nextBoolean() ? null : value(random), null);
                case 2 -> new Pair(null, value(random));
                // The halves swapped: found only where the swapped pair was added too.
                case 3 -> {
                    Pair added = build.get(random.nextInt(build.size()));
                    yield new Pair(added.second(), added.first());
                }
                default -> new Pair(value(random), value(random));
            });
        }
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forJoin(TYPES, allocator, charge)) {
            Map<Pair, Integer> ids = insertAll(table, build);
            assertTrue(table.pairMode(), "dead rows with NULL keys leave pair mode alone");
            checkStoredKeys(table, ids);
            int[] expected = new int[probes.size()];
            for (int index = 0; index < expected.length; index++) {
                Pair probe = probes.get(index);
                expected[index] = probe.first() == null || probe.second() == null ? -1 : ids.getOrDefault(probe, -1);
            }
            assertArrayEquals(expected, lookUp(table, probes, false));
            assertEquals(ids.size(), table.groupCount(), "finding adds no groups");
        }
    }

    @Test
    void aNullKeyAddedEndsPairModeWithTheSameIds() {
        Random random = new Random(5);
        List<Pair> first = new ArrayList<>();
        for (int row = 0; row < 5_000; row++) {
            first.add(new Pair(value(random), value(random)));
        }
        List<Pair> second = new ArrayList<>(first.subList(0, 2_000));
        second.add(new Pair(null, 7));
        second.add(new Pair(null, null));
        second.add(new Pair(3, null));
        second.add(new Pair(null, 7));
        for (int row = 0; row < 3_000; row++) {
            second.add(new Pair(value(random), value(random)));
        }
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forJoin(TYPES, allocator, charge)) {
            Map<Pair, Integer> ids = new HashMap<>();
            ids.putAll(insert(table, first, ids));
            assertTrue(table.pairMode());
            ids.putAll(insert(table, second, ids));
            assertFalse(table.pairMode());
            checkStoredKeys(table, ids);
            List<Pair> probes = new ArrayList<>(second);
            probes.add(new Pair(null, 8));
            int[] expected = new int[probes.size()];
            for (int index = 0; index < expected.length; index++) {
                expected[index] = ids.getOrDefault(probes.get(index), -1);
            }
            // Out of pair mode, the general table finds NULL keys as grouping does.
            assertArrayEquals(expected, lookUp(table, probes, false));
        }
    }

    private Map<Pair, Integer> insertAll(GroupHashTable table, List<Pair> rows) {
        Map<Pair, Integer> ids = new HashMap<>();
        for (int from = 0; from < rows.size(); from += 2_048) {
            ids.putAll(insert(table, rows.subList(from, Math.min(rows.size(), from + 2_048)), ids));
        }
        return ids;
    }

    /** Inserts {@code rows} as one lookup, checking their ids against {@code known} (which it does not change); returns the ids so far. */
    private Map<Pair, Integer> insert(GroupHashTable table, List<Pair> rows, Map<Pair, Integer> known) {
        Map<Pair, Integer> ids = new HashMap<>(known);
        int[] expected = new int[rows.size()];
        for (int index = 0; index < expected.length; index++) {
            expected[index] = ids.computeIfAbsent(rows.get(index), added -> ids.size());
        }
        assertArrayEquals(expected, lookUp(table, rows, true));
        assertEquals(ids.size(), table.groupCount());
        return ids;
    }

    private static void checkStoredKeys(GroupHashTable table, Map<Pair, Integer> ids) {
        for (Map.Entry<Pair, Integer> entry : ids.entrySet()) {
            int group = entry.getValue();
            Object first = VectorValues.get(table.key(0), group, SqlType.INT);
            Object second = VectorValues.get(table.key(1), group, SqlType.DATE);
            assertEquals(entry.getKey().first(), first, "first key of group " + group);
            assertEquals(entry.getKey().second() == null ? null : java.time.LocalDate.ofEpochDay(entry.getKey().second()), second,
                    "second key of group " + group);
        }
    }

    /** The group ids of {@code pairs} (one live row each, behind a dead row), looked up with insertion or without. */
    private int[] lookUp(GroupHashTable table, List<Pair> pairs, boolean insert) {
        TableSchema schema = new TableSchema(List.of(Column.nullable("a", SqlType.INT), Column.nullable("b", SqlType.DATE)));
        List<Object[]> rows = new ArrayList<>();
        for (Pair pair : pairs) {
            rows.add(new Object[] {-5, null});
            rows.add(new Object[] {pair.first(), pair.second() == null ? null : java.time.LocalDate.ofEpochDay(pair.second())});
        }
        try (Batch batch = TestBatches.batch(schema, rows, allocator)) {
            FieldVector[] columns = {batch.column(0), batch.column(1)};
            int[] positions = new int[pairs.size()];
            Arrays.setAll(positions, index -> 2 * index + 1);
            int[] ids = new int[pairs.size()];
            if (insert) {
                table.groupIds(columns, positions, pairs.size(), ids);
            } else {
                table.find(columns, positions, pairs.size(), ids, new long[0]);
            }
            return ids;
        }
    }
}
