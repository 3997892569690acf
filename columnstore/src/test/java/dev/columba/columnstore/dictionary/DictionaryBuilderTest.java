package dev.columba.columnstore.dictionary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.DictionaryBuilder.Outcome;
import dev.columba.columnstore.encoding.DictionarySource;
import dev.columba.columnstore.encoding.EncodedSegment;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.EncodingOptions;
import dev.columba.columnstore.encoding.SegmentEncoder;
import dev.columba.columnstore.encoding.SegmentReader;
import dev.columba.columnstore.encoding.Seeds;
import dev.columba.columnstore.encoding.TestColumns;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The incremental builder: its running size is the serialized size, the cap holds to the byte,
 * ids sort like values, and primary plus secondary form one id space that segments decode through.
 */
class DictionaryBuilderTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        allocator.close();
    }

    @Test
    void theRunningSizeIsTheSerializedSize() throws Exception {
        Seeds.run("DictionaryBuilderTest.theRunningSizeIsTheSerializedSize", random -> {
            for (SqlType type : TestColumns.TYPES) {
                List<Object> values = TestColumns.values(type, TestColumns.Shape.RANDOM, 1500, 0.1, random);
                DictionaryBuilder builder = DictionaryBuilder.primary(type, DictionaryBuilder.DEFAULT_CAP_BYTES);
                try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                    for (int row = 0; row < values.size(); row++) {
                        long before = builder.sizeBytes();
                        long predicted = random.nextBoolean() ? builder.addedBytes(values.get(row)) : builder.addedBytes(vector, row);
                        Outcome outcome = random.nextBoolean() ? builder.tryAdd(values.get(row)) : builder.tryAdd(vector, row);
                        assertEquals(outcome == Outcome.ADDED ? predicted : 0, builder.sizeBytes() - before);
                        assertEquals(outcome == Outcome.ADDED, predicted > 0);
                        if (row % 97 == 0) {
                            Dictionary frozen = builder.freeze(row);
                            assertEquals(builder.sizeBytes(), frozen.sizeBytes(), type.sqlName());
                            assertEquals(builder.sizeBytes(), frozen.toBytes().length);
                            assertEquals(builder.entryCount(), frozen.entryCount());
                        }
                    }
                }
                Set<Object> distinct = new HashSet<>();
                values.stream().filter(value -> value != null).forEach(distinct::add);
                assertEquals(distinct.size(), builder.entryCount(), type.sqlName());
            }
        });
    }

    @Test
    void theCapHoldsToTheByte() throws Exception {
        Seeds.run("DictionaryBuilderTest.theCapHoldsToTheByte", random -> {
            SqlType type = SqlType.varchar(40);
            // Find the size after 50 distinct values, and use it as the cap.
            List<Object> values = TestColumns.values(type, TestColumns.Shape.ALL_DISTINCT, 60, 0, random);
            DictionaryBuilder probe = DictionaryBuilder.secondary(type, null, DictionaryBuilder.DEFAULT_CAP_BYTES);
            for (int index = 0; index < 50; index++) {
                probe.tryAdd(values.get(index));
            }
            long cap = probe.sizeBytes();
            DictionaryBuilder builder = DictionaryBuilder.secondary(type, null, cap);
            for (int index = 0; index < 50; index++) {
                assertEquals(Outcome.ADDED, builder.tryAdd(values.get(index)));
            }
            assertEquals(cap, builder.sizeBytes());
            assertEquals(Outcome.FULL, builder.tryAdd(values.get(50)));
            assertEquals(cap, builder.sizeBytes());
            assertEquals(50, builder.entryCount());
            assertEquals(Outcome.PRESENT, builder.tryAdd(values.get(7)));
            assertEquals(Outcome.PRESENT, builder.tryAdd(null));
            assertEquals(4 + ((String) values.get(50)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length,
                    builder.addedBytes(values.get(50)));
            assertEquals(cap, builder.freeze(1).sizeBytes());

            // One byte more and the next value fits exactly when it costs one byte: an empty string costs 4.
            DictionaryBuilder roomy = DictionaryBuilder.secondary(type, null, cap + 4);
            for (int index = 0; index < 50; index++) {
                roomy.tryAdd(values.get(index));
            }
            assertEquals(Outcome.ADDED, roomy.tryAdd(""));
            assertEquals(cap + 4, roomy.sizeBytes());
            assertEquals(Outcome.FULL, roomy.tryAdd("x"));
        });
    }

    @Test
    void tryAddAllStopsAtTheFirstRowThatDoesNotFit() throws Exception {
        Seeds.run("DictionaryBuilderTest.tryAddAllStopsAtTheFirstRowThatDoesNotFit", random -> {
            SqlType type = SqlType.BIGINT;
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < 1000; row++) {
                values.add(row % 3 == 0 ? null : (long) (row / 2));
            }
            // 24-byte header, 8 bytes an entry: room for exactly 100 distinct values.
            DictionaryBuilder builder = DictionaryBuilder.primary(type, 24 + 8 * 100);
            try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                int fitted = builder.tryAddAll(vector, 0, values.size());
                assertEquals(100, builder.entryCount());
                assertEquals(24 + 8 * 100, builder.sizeBytes());
                assertEquals(Outcome.FULL, builder.tryAdd(vector, fitted));
                Set<Object> distinctBefore = new HashSet<>(values.subList(0, fitted));
                distinctBefore.remove(null);
                assertEquals(100, distinctBefore.size());
                assertTrue(!distinctBefore.contains(values.get(fitted)));
            }
        });
    }

    @Test
    void idsSortLikeValues() throws Exception {
        Seeds.run("DictionaryBuilderTest.idsSortLikeValues", random -> {
            for (SqlType type : TestColumns.TYPES) {
                DictionaryBuilder builder = DictionaryBuilder.primary(type, DictionaryBuilder.DEFAULT_CAP_BYTES);
                for (Object value : TestColumns.values(type, TestColumns.Shape.EDGES, 500, 0, random)) {
                    builder.tryAdd(value);
                }
                Dictionary dictionary = builder.freeze(5);
                for (int index = 0; index < dictionary.entryCount(); index++) {
                    Object value = dictionary.value(index);
                    assertEquals(index, dictionary.indexOf(value), type.sqlName() + " " + value);
                    if (index > 0) {
                        Object previous = dictionary.value(index - 1);
                        int order = type instanceof SqlType.DoubleType
                                ? Double.compare((Double) previous, (Double) value) : TestColumns.compare(type, previous, value);
                        assertTrue(order < 0, type.sqlName() + ": " + previous + " before " + value);
                    }
                }
            }
        });
    }

    @Test
    void doublesKeepSignedZerosApartAndOneNaN() {
        DictionaryBuilder builder = DictionaryBuilder.primary(SqlType.DOUBLE, 1000);
        assertEquals(Outcome.ADDED, builder.tryAdd(0.0));
        assertEquals(Outcome.ADDED, builder.tryAdd(-0.0));
        assertEquals(Outcome.ADDED, builder.tryAdd(Double.NaN));
        assertEquals(Outcome.PRESENT, builder.tryAdd(Double.longBitsToDouble(0xfff8000000000123L)));
        Dictionary dictionary = builder.freeze(0);
        assertEquals(List.of(-0.0, 0.0, Double.NaN), List.of(dictionary.value(0), dictionary.value(1), dictionary.value(2)));
        assertEquals(0, dictionary.lowerBound(0.0));
        assertEquals(2, dictionary.upperBound(-0.0));
    }

    @Test
    void primaryAndSecondaryShareOneIdSpace() throws Exception {
        Seeds.run("DictionaryBuilderTest.primaryAndSecondaryShareOneIdSpace", random -> {
            SqlType type = SqlType.varchar(40);
            DictionaryBuilder primaryBuilder = DictionaryBuilder.primary(type, DictionaryBuilder.DEFAULT_CAP_BYTES);
            for (int index = 0; index < 30; index++) {
                primaryBuilder.tryAdd("common " + index);
            }
            Dictionary primary = primaryBuilder.freeze(1);
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < 2000; row++) {
                values.add(random.nextInt(10) == 0 ? null
                        : random.nextBoolean() ? "common " + random.nextInt(30) : "local " + random.nextInt(50));
            }
            try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                DictionaryBuilder secondaryBuilder = DictionaryBuilder.secondary(type, primary, DictionaryBuilder.DEFAULT_CAP_BYTES);
                assertEquals(values.size(), secondaryBuilder.tryAddAll(vector, 0, values.size()));
                assertEquals(Outcome.PRESENT, secondaryBuilder.tryAdd("common 3"));
                Dictionary secondary = secondaryBuilder.freeze(77);
                assertEquals(Dictionary.NOT_FOUND, secondary.indexOf("common 3"));
                assertTrue(secondary.isSecondary());
                long localValues = values.stream().filter(value -> value != null && ((String) value).startsWith("local")).distinct().count();
                assertEquals(localValues, secondary.entryCount());

                EncodedSegment segment = SegmentEncoder.encode(EncodingKind.DICTIONARY, vector, type,
                        DictionarySource.of(primary, secondary), EncodingOptions.DEFAULT);
                assertEquals(1, segment.metadata().primaryDictionaryId());
                assertEquals(77, segment.metadata().secondaryDictionaryId());
                // The dictionaries travel as bytes, as the rowgroup file stores them.
                Dictionary primaryRead = Dictionary.read(MemorySegment.ofArray(primary.toBytes()), type, "primary");
                Dictionary secondaryRead = Dictionary.read(MemorySegment.ofArray(secondary.toBytes()), type, "secondary");
                SegmentReader reader = SegmentReader.open(MemorySegment.ofArray(segment.bytes()), type, primaryRead,
                        secondaryRead, "segment");
                try (FieldVector decoded = TestColumns.newVector(allocator, type)) {
                    reader.decode(0, values.size(), decoded, 0);
                    assertEquals(values, TestColumns.read(decoded));
                }
            }
        });
    }

    @Test
    void aCapOutsideItsBoundsIsRejected() {
        ColumbaException error = assertThrows(ColumbaException.class, () -> DictionaryBuilder.primary(SqlType.INT, 23));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals("[INVALID_ARGUMENT] dictionary cap must be 24..2147483639 bytes, was 23", error.getMessage());
        ColumbaException wrongValue = assertThrows(ColumbaException.class,
                () -> DictionaryBuilder.primary(SqlType.INT, 100).tryAdd("seven"));
        assertEquals(ErrorCode.WRONG_TYPE, wrongValue.errorCode());
        assertNotEquals(null, wrongValue.getMessage());
    }
}
