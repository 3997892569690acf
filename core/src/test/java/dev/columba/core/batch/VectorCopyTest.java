package dev.columba.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.memory.Memory;
import dev.columba.core.type.SqlType;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gathering rows by position into a vector at any start: values and NULLs land where they belong
 * for every layout, a position of -1 gives NULL, the rows before {@code start} keep theirs, and
 * starts and counts on and off 64-row boundaries (the validity bits are written a word at a time
 * in the middle) all agree with copying one value at a time.
 */
class VectorCopyTest {
    private Memory memory;
    private BufferAllocator allocator;

    @BeforeEach
    void openMemory() {
        memory = new Memory(64L << 20);
        allocator = memory.child("vector-copy", 32L << 20);
    }

    @AfterEach
    void closeMemory() {
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
        memory.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"INT", "BIGINT", "DECIMAL(30,2)", "VARCHAR(20)", "BOOLEAN", "DOUBLE"})
    void gatherMatchesValueByValueCopies(String typeName) {
        SqlType type = type(typeName);
        Random random = new Random(typeName.hashCode());
        int sourceRows = 700;
        Object[] sourceValues = new Object[sourceRows];
        try (FieldVector source = source(type, random, sourceValues)) {
            for (int trial = 0; trial < 40; trial++) {
                int start = trial < 4 ? 64 * trial : random.nextInt(300);
                int count = trial % 5 == 0 ? 64 * (1 + random.nextInt(4)) : random.nextInt(400);
                int[] positions = new int[count + 3];
                for (int index = 0; index < positions.length; index++) {
                    positions[index] = random.nextInt(9) == 0 ? -1 : random.nextInt(sourceRows);
                }
                int offset = random.nextInt(4);
                Object[] before = new Object[start];
                try (FieldVector target = VectorValues.newVector("target", type, allocator)) {
                    for (int row = 0; row < start; row++) {
                        before[row] = random.nextInt(5) == 0 ? null : value(type, random);
                        VectorValues.set(target, row, type, before[row]);
                    }
                    target.setValueCount(start);
                    VectorCopy.gather(source, positions, Math.min(offset, 3), count, target, start);
                    target.setValueCount(start + count);
                    for (int row = 0; row < start; row++) {
                        assertEquals(before[row], VectorValues.get(target, row, type), "row " + row + " before the start");
                    }
                    for (int index = 0; index < count; index++) {
                        int position = positions[Math.min(offset, 3) + index];
                        Object expected = position < 0 ? null : sourceValues[position];
                        assertEquals(expected, VectorValues.get(target, start + index, type),
                                "row " + (start + index) + " (start " + start + ", count " + count + ")");
                    }
                }
            }
        }
    }

    /**
     * Copying a range in bulk agrees with copying its values one at a time, for ranges that start
     * on and off byte and word boundaries of the source and of the target, in every layout; the
     * rows before the start keep theirs, also when the target must grow.
     */
    @ParameterizedTest
    @ValueSource(strings = {"INT", "BIGINT", "DECIMAL(30,2)", "VARCHAR(20)", "BOOLEAN", "DOUBLE"})
    void copyRangeMatchesValueByValueCopies(String typeName) {
        SqlType type = type(typeName);
        Random random = new Random(31 * typeName.hashCode());
        int sourceRows = 1000;
        Object[] sourceValues = new Object[sourceRows];
        try (FieldVector source = source(type, random, sourceValues)) {
            for (int trial = 0; trial < 60; trial++) {
                int first = trial < 6 ? 64 * (trial % 3) + (trial < 3 ? 0 : 5) : random.nextInt(600);
                int start = trial < 6 ? 64 * (trial % 2) : random.nextInt(400);
                int count = trial % 4 == 0 ? sourceRows - first : random.nextInt(sourceRows - first + 1);
                Object[] before = new Object[start];
                try (FieldVector target = VectorValues.newVector("target", type, allocator)) {
                    for (int row = 0; row < start; row++) {
                        before[row] = random.nextInt(5) == 0 ? null : value(type, random);
                        VectorValues.set(target, row, type, before[row]);
                    }
                    target.setValueCount(start);
                    VectorCopy.copyRange(source, first, count, target, start);
                    target.setValueCount(start + count);
                    for (int row = 0; row < start; row++) {
                        assertEquals(before[row], VectorValues.get(target, row, type), "row " + row + " before the start");
                    }
                    for (int index = 0; index < count; index++) {
                        assertEquals(sourceValues[first + index], VectorValues.get(target, start + index, type),
                                "row " + (start + index) + " (first " + first + ", start " + start + ", count " + count + ")");
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 990})
    void copyRangeRefusesRowsOutsideTheSource(int first) {
        try (FieldVector source = VectorValues.newVector("source", SqlType.INT, allocator);
             FieldVector target = VectorValues.newVector("target", SqlType.INT, allocator)) {
            for (int row = 0; row < 1000; row++) {
                VectorValues.set(source, row, SqlType.INT, row);
            }
            source.setValueCount(1000);
            int capacity = source.getValueCapacity();
            assertThrows(IndexOutOfBoundsException.class,
                    () -> VectorCopy.copyRange(source, first < 0 ? first : capacity - 10, 20, target, 0));
        }
    }

    /** A vector of {@code values.length} random values of {@code type}, about one in seven NULL, which it also puts in {@code values}. */
    private FieldVector source(SqlType type, Random random, Object[] values) {
        FieldVector source = VectorValues.newVector("source", type, allocator);
        for (int row = 0; row < values.length; row++) {
            values[row] = random.nextInt(7) == 0 ? null : value(type, random);
            VectorValues.set(source, row, type, values[row]);
        }
        source.setValueCount(values.length);
        return source;
    }

    private static SqlType type(String typeName) {
        return switch (typeName) {
            case "INT" -> SqlType.INT;
            case "BIGINT" -> SqlType.BIGINT;
            case "DECIMAL(30,2)" -> SqlType.decimal(30, 2);
            case "VARCHAR(20)" -> SqlType.varchar(20);
            case "BOOLEAN" -> SqlType.BOOLEAN;
            default -> SqlType.DOUBLE;
        };
    }

    private static Object value(SqlType type, Random random) {
        return switch (typeName(type)) {
            case "INT" -> random.nextInt();
            case "BIGINT" -> random.nextLong();
            case "DECIMAL" -> java.math.BigDecimal.valueOf(random.nextLong(), 2);
            case "VARCHAR" -> "v" + random.nextInt(100_000);
            case "BOOLEAN" -> random.nextBoolean();
            default -> random.nextDouble();
        };
    }

    private static String typeName(SqlType type) {
        String name = type.sqlName();
        int paren = name.indexOf('(');
        return paren < 0 ? name : name.substring(0, paren);
    }
}
