package dev.columba.columnstore.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.encoding.Seeds;
import dev.columba.columnstore.encoding.TestColumns;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Test;

/** The frozen dictionary: its bytes round-trip, its searches agree with a reference, damage is caught. */
class DictionaryTest {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static Dictionary build(SqlType type, List<Object> values, int id) {
        DictionaryBuilder builder = DictionaryBuilder.secondary(type, null, DictionaryBuilder.DEFAULT_CAP_BYTES);
        values.forEach(builder::tryAdd);
        return builder.freeze(id);
    }

    @Test
    void bytesRoundTripOffTheHeap() throws Exception {
        Seeds.run("DictionaryTest.bytesRoundTripOffTheHeap", random -> {
            try (Arena arena = Arena.ofConfined()) {
                for (SqlType type : TestColumns.TYPES) {
                    Dictionary built = build(type, TestColumns.values(type, TestColumns.Shape.RANDOM, 400, 0.1, random), 12);
                    byte[] bytes = built.toBytes();
                    MemorySegment mapped = arena.allocate(bytes.length);
                    MemorySegment.copy(MemorySegment.ofArray(bytes), 0, mapped, 0, bytes.length);
                    Dictionary read = Dictionary.read(mapped, type, "dictionary file");
                    assertEquals(12, read.id());
                    assertTrue(read.isSecondary());
                    assertEquals(built.entryCount(), read.entryCount());
                    for (int index = 0; index < read.entryCount(); index++) {
                        assertTrue(TestColumns.same(built.value(index), read.value(index)), type.sqlName());
                        assertEquals(index, read.indexOf(built.value(index)));
                    }
                }
            }
        });
    }

    @Test
    void boundsAgreeWithAReferenceSearch() throws Exception {
        Seeds.run("DictionaryTest.boundsAgreeWithAReferenceSearch", random -> {
            for (SqlType type : TestColumns.TYPES) {
                List<Object> values = TestColumns.values(type, TestColumns.Shape.EDGES, 300, 0, random);
                Dictionary dictionary = build(type, values, 0);
                for (int attempt = 0; attempt < 50; attempt++) {
                    Object constant = random.nextBoolean() ? values.get(random.nextInt(values.size()))
                            : TestColumns.randomValue(type, random);
                    int below = 0;
                    int notAbove = 0;
                    for (int index = 0; index < dictionary.entryCount(); index++) {
                        int order = TestColumns.compare(type, dictionary.value(index), constant);
                        below += order < 0 ? 1 : 0;
                        notAbove += order <= 0 ? 1 : 0;
                    }
                    assertEquals(below, dictionary.lowerBound(constant), type.sqlName() + " " + constant);
                    assertEquals(notAbove, dictionary.upperBound(constant), type.sqlName() + " " + constant);
                }
            }
        });
    }

    @Test
    void vectorRowsAreFoundWithoutBoxing() throws Exception {
        Seeds.run("DictionaryTest.vectorRowsAreFoundWithoutBoxing", random -> {
            try (BufferAllocator allocator = new RootAllocator()) {
                for (SqlType type : TestColumns.TYPES) {
                    List<Object> values = TestColumns.values(type, TestColumns.Shape.FEW_DISTINCT, 200, 0.1, random);
                    Dictionary dictionary = build(type, values.subList(0, 100), 0);
                    Dictionary.Lookup lookup = dictionary.lookup();
                    try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                        for (int row = 0; row < values.size(); row++) {
                            if (values.get(row) != null) {
                                assertEquals(dictionary.indexOf(values.get(row)), lookup.indexOf(vector, row), type.sqlName());
                            }
                        }
                    }
                }
            }
        });
    }

    private static Dictionary strings() {
        return build(SqlType.varchar(10), List.of("pear", "apple", "fig"), 3);
    }

    private static void assertCorrupt(byte[] bytes, SqlType type, String message) {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> Dictionary.read(MemorySegment.ofArray(bytes), type, "dict"));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
        assertEquals(message, error.getMessage());
    }

    @Test
    void everyTruncationIsCorrupt() {
        byte[] bytes = strings().toBytes();
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            ColumbaException error = assertThrows(ColumbaException.class,
                    () -> Dictionary.read(MemorySegment.ofArray(truncated), SqlType.varchar(10), "dict"));
            assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
        }
        assertCorrupt(Arrays.copyOf(bytes, 10), SqlType.varchar(10),
                "[INDEX_CORRUPT] dict: dictionary of 10 bytes is shorter than its 24-byte header");
    }

    @Test
    void aBadHeaderIsCorruptOrTooNew() {
        byte[] bytes = strings().toBytes();
        byte[] magic = bytes.clone();
        magic[3] = 0;
        assertCorrupt(magic, SqlType.varchar(10), "[INDEX_CORRUPT] dict: bad dictionary magic 0x494443 at offset 0");
        byte[] version = bytes.clone();
        version[4] = 9;
        ColumbaException tooNew = assertThrows(ColumbaException.class,
                () -> Dictionary.read(MemorySegment.ofArray(version), SqlType.varchar(10), "dict"));
        assertEquals(ErrorCode.FORMAT_TOO_NEW, tooNew.errorCode());
        assertEquals("[FORMAT_TOO_NEW] dict: dictionary format version 9 at offset 4; this build reads versions up to 1",
                tooNew.getMessage());
        assertCorrupt(bytes, SqlType.INT,
                "[INDEX_CORRUPT] dict: dictionary value kind 7 (STRING) at offset 5, column type INT needs 2 (INT)");
        byte[] count = bytes.clone();
        MemorySegment.ofArray(count).set(LE_INT, 12, 4);
        assertCorrupt(count, SqlType.varchar(10), "[INDEX_CORRUPT] dict: dictionary of 4 entries (offset 12) and 12 data "
                + "bytes (offset 16) does not fit its 48 bytes");
    }

    @Test
    void entriesOutOfOrderOrOutOfBoundsAreCorrupt() {
        byte[] bytes = strings().toBytes();
        // Entries apple, fig, pear: ends 5, 8, 12 at offsets 24, 28, 32; data from 36.
        byte[] swapped = bytes.clone();
        System.arraycopy("pear".getBytes(), 0, swapped, 36 + 8, 4);
        swapped[36] = 'z';
        assertCorrupt(swapped, SqlType.varchar(10),
                "[INDEX_CORRUPT] dict: dictionary entry 1 at offset 41 does not sort after entry 0");
        byte[] beyond = bytes.clone();
        MemorySegment.ofArray(beyond).set(LE_INT, 28, 13);
        assertCorrupt(beyond, SqlType.varchar(10),
                "[INDEX_CORRUPT] dict: dictionary entry 1 ends at 13 (offset 28), after 5 in 12 data bytes");
    }

    @Test
    void damagedBytesFailOnlyWithCorruptionErrors() throws Exception {
        Seeds.run("DictionaryTest.damagedBytesFailOnlyWithCorruptionErrors", random -> {
            for (SqlType type : TestColumns.TYPES) {
                byte[] bytes = build(type, TestColumns.values(type, TestColumns.Shape.RANDOM, 50, 0, random), 1).toBytes();
                for (int attempt = 0; attempt < 200; attempt++) {
                    byte[] damaged = bytes.clone();
                    damaged[random.nextInt(damaged.length)] = (byte) random.nextInt();
                    try {
                        Dictionary dictionary = Dictionary.read(MemorySegment.ofArray(damaged), type, "dict");
                        for (int index = 0; index < dictionary.entryCount(); index++) {
                            dictionary.indexOf(dictionary.value(index));
                        }
                    } catch (ColumbaException error) {
                        assertTrue(error.errorCode() == ErrorCode.INDEX_CORRUPT || error.errorCode() == ErrorCode.FORMAT_TOO_NEW,
                                error.getMessage());
                    }
                }
            }
        });
    }
}
