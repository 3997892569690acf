package dev.columba.core.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.memory.Memory;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.testing.TestBatches;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The group hash table's packed mode for short string keys: ids in order of first appearance,
 * NULL apart from the empty string, strings of 7 and 8 bytes (multi-byte UTF-8 included), and the
 * switch to the general table when a longer string arrives, which keeps every id.
 */
class GroupHashTableTest {
    private static final TableSchema SCHEMA = new TableSchema(List.of(
            Column.nullable("flag", SqlType.varchar(20)), Column.nullable("status", SqlType.varchar(20))));
    private static final List<SqlType> KEY_TYPES = List.of(SqlType.varchar(20), SqlType.varchar(20));

    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(64L << 20);
        allocator = memory.child("group-hash-table", 32L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    private static Object[] key(String flag, String status) {
        return new Object[] {flag, status};
    }

    /** The group ids of {@code rows}, all of them live, looked up with insertion or without. */
    private int[] lookUp(GroupHashTable table, List<Object[]> rows, boolean insert) {
        try (Batch batch = TestBatches.batch(SCHEMA, rows, allocator)) {
            FieldVector[] columns = {batch.column(0), batch.column(1)};
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

    private static List<Object[]> storedKeys(GroupHashTable table) {
        List<Object[]> keys = new ArrayList<>();
        for (int group = 0; group < table.groupCount(); group++) {
            keys.add(key((String) VectorValues.get(table.key(0), group, SqlType.varchar(20)),
                    (String) VectorValues.get(table.key(1), group, SqlType.varchar(20))));
        }
        return keys;
    }

    @Test
    void shortStringKeysGroupByValueWithNullApartFromEmpty() {
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(KEY_TYPES, allocator, charge)) {
            List<Object[]> rows = List.of(key("A", "F"), key("N", "O"), key(null, "O"), key("", "O"), key("A", "F"),
                    key("N", null), key("R", "F"), key(null, "O"), key("", ""), key("1234567", "\u00e9\u00e9\u00e9a"),
                    key("N", "O"));
            assertArrayEquals(new int[] {0, 1, 2, 3, 0, 4, 5, 2, 6, 7, 1}, lookUp(table, rows, true));
            assertEquals(8, table.groupCount());
            List<Object[]> stored = storedKeys(table);
            assertArrayEquals(key(null, "O"), stored.get(2));
            assertArrayEquals(key("", "O"), stored.get(3));
            assertArrayEquals(key("1234567", "\u00e9\u00e9\u00e9a"), stored.get(7));
            assertArrayEquals(new int[] {5, -1, 2, -1},
                    lookUp(table, List.of(key("R", "F"), key("R", "O"), key(null, "O"), key("12345678", "F")), false));
        }
    }

    /**
     * Keys with dictionary codes ({@link CodedStrings}): batches in two code spaces that give the same codes to
     * different strings, a batch without codes, one with a NULL (looked up by value), and both
     * mixed; every row gets the id of first appearance its strings have.
     */
    @Test
    void codedKeysGetTheIdsTheirStringsHave() {
        java.util.Random random = new java.util.Random(7);
        String[][] flagSpaces = {{"A", "N", "R"}, {"R", "A", "N", "a longer flag than seven bytes"}};
        String[][] statusSpaces = {{"F", "O"}, {"O", "F"}};
        Object firstSpace = new Object();
        Object secondSpace = new Object();
        java.util.Map<java.util.List<String>, Integer> expectedIds = new java.util.HashMap<>();
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(KEY_TYPES, allocator, charge)) {
            for (int batch = 0; batch < 12; batch++) {
                int space = batch % 3 == 2 ? 1 : 0;
                boolean coded = batch != 5;
                boolean withNull = batch == 7;
                int rows = 50 + random.nextInt(200);
                CodedStrings flagCodeHolder = new CodedStrings();
                CodedStrings statusCodeHolder = new CodedStrings();
                try (VarCharVector flags = new VarCharVector("flag", allocator);
                     VarCharVector statuses = new VarCharVector("status", allocator)) {
                    int[] flagCodes = flagCodeHolder.codesFor(rows);
                    int[] statusCodes = statusCodeHolder.codesFor(rows);
                    int[] expected = new int[rows];
                    for (int row = 0; row < rows; row++) {
                        int flag = random.nextInt(flagSpaces[space].length - (batch < 9 ? 1 : 0));
                        int status = random.nextInt(2);
                        flagCodes[row] = flag;
                        statusCodes[row] = status;
                        String flagValue = withNull && row == 3 ? null : flagSpaces[space][flag];
                        if (flagValue == null) {
                            flags.setNull(row);
                        } else {
                            flags.setSafe(row, flagValue.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        }
                        statuses.setSafe(row, statusSpaces[space][status].getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        expected[row] = expectedIds.computeIfAbsent(java.util.Arrays.asList(flagValue, statusSpaces[space][status]),
                                key -> expectedIds.size());
                    }
                    flags.setValueCount(rows);
                    statuses.setValueCount(rows);
                    if (coded) {
                        Object spaceObject = space == 0 ? firstSpace : secondSpace;
                        flagCodeHolder.markCoded(0, rows, spaceObject, flagSpaces[space].length);
                        statusCodeHolder.markCoded(0, rows, spaceObject, statusSpaces[space].length);
                    }
                    int[] positions = new int[rows];
                    Arrays.setAll(positions, row -> row);
                    int[] ids = new int[rows];
                    table.groupIds(new FieldVector[] {flags, statuses}, new CodedStrings[] {flagCodeHolder, statusCodeHolder},
                            positions, rows, ids);
                    assertArrayEquals(expected, ids, "batch " + batch);
                }
            }
            assertEquals(expectedIds.size(), table.groupCount());
        }
    }

    @Test
    void aLongerStringSwitchesToTheGeneralTableKeepingIds() {
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(KEY_TYPES, allocator, charge)) {
            List<Object[]> first = new ArrayList<>();
            for (int group = 0; group < 40; group++) {
                first.add(key("k" + group, group % 3 == 0 ? null : "s"));
            }
            int[] firstIds = lookUp(table, first, true);
            for (int group = 0; group < 40; group++) {
                assertEquals(group, firstIds[group]);
            }
            int[] secondIds = lookUp(table, List.of(key("k5", "s"), key("8 bytes!", "s"), key("k39", null), key("k3", null),
                    key("a much longer key", null), key("8 bytes!", "s")), true);
            assertArrayEquals(new int[] {5, 40, 39, 3, 41, 40}, secondIds);
            assertArrayEquals(new int[] {41, 0, -1, 40},
                    lookUp(table, List.of(key("a much longer key", null), key("k0", null), key("k0", "s"), key("8 bytes!", "s")),
                            false));
            List<Object[]> stored = storedKeys(table);
            assertEquals(42, stored.size());
            assertArrayEquals(key("k3", null), stored.get(3));
            assertArrayEquals(key("a much longer key", null), stored.get(41));
        }
    }
    /**
     * Whole-number keys in a table grown beyond the caches, where inserting looks rows up first:
     * ids in order of first appearance across chunks that repeat keys, new keys repeated within a
     * chunk, NULLs in a group of their own, and a lookup without insertion afterwards that finds
     * every id (and -1 for keys never inserted).
     */
    /**
     * A partition table (odd keys of two partitions) told the span of its keys makes its dense
     * array once, over the span's half that is its partition's, at the first group; keys arriving
     * in any order inside the span never grow it; keys outside the span (rows the figures did not
     * cover), and NULL, still get their ids of first appearance.
     */
    @Test
    void anExpectedKeySpanMakesTheDenseArrayOnceAndKeysOutsideItStillGroup() {
        java.util.Random random = new java.util.Random(5);
        List<Long> inside = new ArrayList<>();
        for (long key = 1; key <= 200_001; key += 2) {
            inside.add(key);
        }
        java.util.Collections.shuffle(inside, random);
        java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(List.of(SqlType.BIGINT), allocator, charge);
             org.apache.arrow.vector.BigIntVector keys = new org.apache.arrow.vector.BigIntVector("k", allocator)) {
            table.holdResidue(1, 2);
            table.expectGroups(50_000);
            table.expectKeys(1, 200_001);
            int chunk = 4096;
            keys.allocateNew(chunk);
            int[] positions = new int[chunk];
            Arrays.setAll(positions, row -> row);
            int[] ids = new int[chunk];
            List<Long> all = new ArrayList<>(inside);
            all.addAll(inside.subList(0, 5000));
            all.addAll(List.of(200_003L, -99L, 250_001L));
            all.add(null);
            all.addAll(inside.subList(5000, 9000));
            int spanLength = -1;
            for (int from = 0; from < all.size(); from += chunk) {
                int count = Math.min(chunk, all.size() - from);
                for (int row = 0; row < count; row++) {
                    Long value = all.get(from + row);
                    if (value == null) {
                        keys.setNull(row);
                    } else {
                        keys.set(row, value);
                    }
                }
                keys.setValueCount(count);
                boolean beyond = all.subList(from, from + count).stream().anyMatch(value -> value == null || value > 200_001 || value < 1);
                table.groupIds(new FieldVector[] {keys}, positions, count, ids);
                if (from == 0) {
                    spanLength = table.denseLength();
                    assertEquals(100_001, spanLength, "the keys 1..200,001 of one partition of two: 0..100,000 after halving");
                } else if (from < inside.size() && !beyond) {
                    assertEquals(spanLength, table.denseLength(), "keys inside the span never grow the array");
                }
                for (int row = 0; row < count; row++) {
                    Long value = all.get(from + row);
                    Integer known = expected.get(value);
                    if (known == null) {
                        known = expected.size();
                        expected.put(value, known);
                    }
                    assertEquals(known, ids[row], "row " + (from + row) + ", key " + value);
                }
            }
            assertEquals(expected.size(), table.groupCount());
        }
    }

    @Test
    void wholeNumberKeysBeyondTheCachesGetTheirIdsOfFirstAppearance() {
        java.util.Random random = new java.util.Random(11);
        long[] distinct = new long[150_000];
        for (int index = 0; index < distinct.length; index++) {
            distinct[index] = random.nextLong();
        }
        java.util.Map<Long, Integer> expected = new java.util.HashMap<>();
        int nullId = -1;
        int next = 0;
        try (MemoryCharge charge = new MemoryCharge(allocator, "groups");
             GroupHashTable table = GroupHashTable.forGrouping(List.of(SqlType.BIGINT), allocator, charge);
             org.apache.arrow.vector.BigIntVector keys = new org.apache.arrow.vector.BigIntVector("k", allocator)) {
            int chunk = 4096;
            keys.allocateNew(chunk);
            int[] positions = new int[chunk];
            Arrays.setAll(positions, row -> row);
            int[] ids = new int[chunk];
            for (int round = 0; round < 80; round++) {
                Long[] values = new Long[chunk];
                for (int row = 0; row < chunk; row++) {
                    // Early rounds bring new keys, later ones mostly repeat them; some rows repeat their neighbour.
                    int bound = Math.min(distinct.length, (round + 1) * 3000);
                    values[row] = random.nextInt(500) == 0 ? null
                            : row > 0 && values[row - 1] != null && random.nextInt(4) == 0 ? values[row - 1]
                            : distinct[random.nextInt(bound)];
                    if (values[row] == null) {
                        keys.setNull(row);
                    } else {
                        keys.set(row, values[row]);
                    }
                }
                keys.setValueCount(chunk);
                table.groupIds(new FieldVector[] {keys}, positions, chunk, ids);
                for (int row = 0; row < chunk; row++) {
                    int id;
                    if (values[row] == null) {
                        if (nullId < 0) {
                            nullId = next++;
                        }
                        id = nullId;
                    } else {
                        Integer known = expected.get(values[row]);
                        if (known == null) {
                            known = next++;
                            expected.put(values[row], known);
                        }
                        id = known;
                    }
                    assertEquals(id, ids[row], "round " + round + ", row " + row);
                }
            }
            assertEquals(next, table.groupCount());
            for (int row = 0; row < chunk; row++) {
                if (row % 7 == 0) {
                    keys.set(row, random.nextLong());
                } else {
                    keys.set(row, distinct[random.nextInt(distinct.length)]);
                }
            }
            keys.setValueCount(chunk);
            table.find(new FieldVector[] {keys}, positions, chunk, ids, new long[0]);
            for (int row = 0; row < chunk; row++) {
                Integer known = expected.get(keys.get(row));
                assertEquals(known == null ? -1 : known, ids[row], "looked up row " + row);
            }
        }
    }
}
