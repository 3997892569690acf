package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chooser: the smallest estimate wins, and the shapes of data land where they should. */
class SegmentEncoderTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        allocator.close();
    }

    private EncodedSegment encode(SqlType type, List<Object> values, DictionarySource dictionaries, EncodingOptions options) {
        try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
            return SegmentEncoder.encode(vector, type, dictionaries, options);
        }
    }

    private List<Object> decode(EncodedSegment segment, SqlType type, Dictionary primary, Dictionary secondary) {
        SegmentReader reader = SegmentReader.open(MemorySegment.ofArray(segment.bytes()), type, primary, secondary, "chosen");
        try (FieldVector decoded = TestColumns.newVector(allocator, type)) {
            reader.decode(0, reader.rowCount(), decoded, 0);
            return TestColumns.read(decoded);
        }
    }

    @Test
    void sortedIntsWithRepeatsChooseRunLength() {
        List<Object> values = new ArrayList<>();
        for (int value = 0; values.size() < 100_000; value += 3) {
            for (int repeat = 0; repeat < 200; repeat++) {
                values.add(value);
            }
        }
        EncodedSegment segment = encode(SqlType.INT, values, DictionarySource.none(), EncodingOptions.DEFAULT);
        assertEquals(EncodingKind.RUN_LENGTH, segment.metadata().encoding());
        assertTrue(segment.bytes().length < 2000, segment.metadata().toString());
        assertEquals(values, decode(segment, SqlType.INT, null, null));
    }

    @Test
    void sortedDistinctIntsChooseValueEncoding() {
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < 100_000; row++) {
            values.add(2_000_000_000 + row);
        }
        EncodedSegment segment = encode(SqlType.INT, values, DictionarySource.none(), EncodingOptions.DEFAULT);
        assertEquals(EncodingKind.VALUE, segment.metadata().encoding());
        // 17 bits a row: 100,000 x 17 / 8 bytes, rounded to words, plus header and packed-stream header.
        assertEquals(16 + 9 + ((100_000L * 17 + 63) / 64) * 8, segment.bytes().length);
        assertEquals(2_000_000_000, segment.metadata().min());
        assertEquals(2_000_099_999, segment.metadata().max());
        assertEquals(values, decode(segment, SqlType.INT, null, null));
    }

    @Test
    void fewDistinctStringsChooseADictionary() throws Exception {
        Seeds.run("SegmentEncoderTest.fewDistinctStringsChooseADictionary", random -> {
            SqlType type = SqlType.varchar(60);
            List<Object> pool = new ArrayList<>();
            for (int index = 0; index < 12; index++) {
                pool.add("a rather long country name number " + index);
            }
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < 50_000; row++) {
                values.add(row % 100 == 0 ? null : pool.get(random.nextInt(pool.size())));
            }
            Dictionary secondary = secondaryOf(type, values, DictionaryBuilder.DEFAULT_CAP_BYTES, 17);
            EncodedSegment segment = encode(type, values, DictionarySource.of(null, secondary), EncodingOptions.DEFAULT);
            assertEquals(EncodingKind.DICTIONARY, segment.metadata().encoding());
            assertEquals(17, segment.metadata().secondaryDictionaryId());
            assertEquals(SegmentMetadata.NO_DICTIONARY, segment.metadata().primaryDictionaryId());
            assertEquals(values, decode(segment, type, null, secondary));

            Collections.sort(values, (left, right) -> left == null ? (right == null ? 0 : -1)
                    : right == null ? 1 : TestColumns.compare(type, left, right));
            EncodedSegment sorted = encode(type, values, DictionarySource.of(null, secondary), EncodingOptions.DEFAULT);
            assertEquals(EncodingKind.DICTIONARY_RUN_LENGTH, sorted.metadata().encoding());
            assertEquals(values, decode(sorted, type, null, secondary));
        });
    }

    @Test
    void allDistinctWideStringsOverflowASmallCapAndFallBackToPlain() throws Exception {
        Seeds.run("SegmentEncoderTest.allDistinctWideStringsOverflowASmallCapAndFallBackToPlain", random -> {
            SqlType type = SqlType.varchar(300);
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < 5_000; row++) {
                values.add(row + ":" + "x".repeat(200 + random.nextInt(50)));
            }
            long cap = 64 * 1024;
            try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                DictionaryBuilder builder = DictionaryBuilder.secondary(type, null, cap);
                int fitted = builder.tryAddAll(vector, 0, values.size());
                assertTrue(fitted < values.size(), "the cap holds " + fitted + " rows");
                assertTrue(builder.sizeBytes() <= cap);
                assertTrue(builder.sizeBytes() + builder.addedBytes(vector, fitted) > cap);
                // dictionary_overflow = fallback: keep the rowgroup, give up the dictionary.
                EncodedSegment segment = SegmentEncoder.encode(vector, type,
                        DictionarySource.fallback(FallbackReason.DICTIONARY_OVERFLOW), EncodingOptions.DEFAULT);
                assertEquals(EncodingKind.PLAIN, segment.metadata().encoding());
                assertEquals(FallbackReason.DICTIONARY_OVERFLOW, segment.metadata().fallbackReason());
                assertEquals(SegmentMetadata.NO_DICTIONARY, segment.metadata().secondaryDictionaryId());
                assertEquals(values, decode(segment, type, null, null));
            }
        });
    }

    @Test
    void aDictionaryLargerThanPlainIsNotChosenNorReferenced() {
        SqlType type = SqlType.varchar(20);
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < 1000; row++) {
            values.add("distinct " + row);
        }
        Dictionary secondary = secondaryOf(type, values, DictionaryBuilder.DEFAULT_CAP_BYTES, 3);
        try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
            Map<EncodingKind, Long> estimates = SegmentEncoder.estimates(vector, type, DictionarySource.of(null, secondary));
            assertTrue(estimates.get(EncodingKind.PLAIN) < estimates.get(EncodingKind.DICTIONARY), estimates.toString());
        }
        EncodedSegment segment = encode(type, values, DictionarySource.of(null, secondary), EncodingOptions.DEFAULT);
        assertEquals(EncodingKind.PLAIN, segment.metadata().encoding());
        assertEquals(FallbackReason.NONE, segment.metadata().fallbackReason());
        assertEquals(SegmentMetadata.NO_DICTIONARY, segment.metadata().secondaryDictionaryId());
    }

    @Test
    void doublesChoosePlainUnlessRepetitive() throws Exception {
        Seeds.run("SegmentEncoderTest.doublesChoosePlainUnlessRepetitive", random -> {
            List<Object> noise = new ArrayList<>();
            List<Object> steps = new ArrayList<>();
            for (int row = 0; row < 10_000; row++) {
                noise.add(random.nextGaussian());
                steps.add((double) (row / 1000));
            }
            assertEquals(EncodingKind.PLAIN,
                    encode(SqlType.DOUBLE, noise, DictionarySource.none(), EncodingOptions.DEFAULT).metadata().encoding());
            EncodedSegment repetitive = encode(SqlType.DOUBLE, steps, DictionarySource.none(), EncodingOptions.DEFAULT);
            assertEquals(EncodingKind.RUN_LENGTH, repetitive.metadata().encoding());
            assertEquals(steps, decode(repetitive, SqlType.DOUBLE, null, null));
        });
    }

    @Test
    void theChosenEncodingHasTheSmallestEstimate() throws Exception {
        Seeds.run("SegmentEncoderTest.theChosenEncodingHasTheSmallestEstimate", random -> {
            for (SqlType type : TestColumns.TYPES) {
                for (TestColumns.Shape shape : TestColumns.Shape.values()) {
                    List<Object> values = TestColumns.values(type, shape, 1 + random.nextInt(3000), random.nextDouble() / 2, random);
                    boolean anyValue = values.stream().anyMatch(value -> value != null);
                    Dictionary secondary = anyValue && random.nextBoolean()
                            ? secondaryOf(type, values, DictionaryBuilder.DEFAULT_CAP_BYTES, 1) : null;
                    DictionarySource source = secondary == null ? DictionarySource.none() : DictionarySource.of(null, secondary);
                    try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                        Map<EncodingKind, Long> estimates = SegmentEncoder.estimates(vector, type, source);
                        EncodedSegment segment = SegmentEncoder.encode(vector, type, source, EncodingOptions.DEFAULT);
                        long smallest = Collections.min(estimates.values());
                        String what = type.sqlName() + " " + shape + " " + estimates;
                        assertEquals(smallest, (long) estimates.get(segment.metadata().encoding()), what);
                        for (EncodingKind earlier : EncodingKind.values()) {
                            if (earlier == segment.metadata().encoding()) {
                                break;
                            }
                            assertTrue(!estimates.containsKey(earlier) || estimates.get(earlier) > smallest, "ties go first: " + what);
                        }
                        assertEquals(values.size(), decode(segment, type, null, secondary).size());
                    }
                }
            }
        });
    }

    @Test
    void archivingShrinksCompressibleSegmentsAndReadsBack() throws Exception {
        Seeds.run("SegmentEncoderTest.archivingShrinksCompressibleSegmentsAndReadsBack", random -> {
            SqlType type = SqlType.varchar(100);
            List<Object> values = new ArrayList<>();
            for (int row = 0; row < 20_000; row++) {
                values.add("order " + row + " shipped by truck to warehouse " + (row % 17));
            }
            EncodedSegment plain = encode(type, values, DictionarySource.none(), EncodingOptions.DEFAULT);
            EncodedSegment archived = encode(type, values, DictionarySource.none(), EncodingOptions.ARCHIVE);
            assertFalse(plain.metadata().archived());
            assertTrue(archived.metadata().archived());
            assertEquals(plain.metadata().encoding(), archived.metadata().encoding());
            assertTrue(archived.bytes().length * 4 < plain.bytes().length, archived.bytes().length + " vs " + plain.bytes().length);
            assertEquals(archived.bytes().length, archived.metadata().encodedBytes());
            assertEquals(values, decode(archived, type, null, null));

            List<Object> noise = new ArrayList<>();
            for (int row = 0; row < 1000; row++) {
                noise.add(random.nextLong());
            }
            EncodedSegment incompressible = encode(SqlType.BIGINT, noise, DictionarySource.none(), EncodingOptions.ARCHIVE);
            assertFalse(incompressible.metadata().archived(), "zstd cannot shrink random longs");
            assertEquals(noise, decode(incompressible, SqlType.BIGINT, null, null));
        });
    }

    @Test
    void inputsThatCannotBeEncodedAreRejected() {
        try (FieldVector strings = TestColumns.vector(allocator, SqlType.varchar(5), List.of("a", "b"))) {
            ColumbaException wrongType = assertThrows(ColumbaException.class,
                    () -> SegmentEncoder.encode(strings, SqlType.INT, DictionarySource.none(), EncodingOptions.DEFAULT));
            assertEquals(ErrorCode.WRONG_TYPE, wrongType.errorCode());
            assertEquals("[WRONG_TYPE] INT values come in a IntVector, got VarCharVector", wrongType.getMessage());

            ColumbaException notApplicable = assertThrows(ColumbaException.class, () -> SegmentEncoder.encode(
                    EncodingKind.VALUE, strings, SqlType.varchar(5), DictionarySource.none(), EncodingOptions.DEFAULT));
            assertEquals(ErrorCode.INVALID_ARGUMENT, notApplicable.errorCode());

            Dictionary onlyA = secondaryOf(SqlType.varchar(5), List.of("a"), 1000, 4);
            ColumbaException missing = assertThrows(ColumbaException.class, () -> SegmentEncoder.encode(strings,
                    SqlType.varchar(5), DictionarySource.of(null, onlyA), EncodingOptions.DEFAULT));
            assertEquals(ErrorCode.INVALID_ARGUMENT, missing.errorCode());
            assertTrue(missing.getMessage().contains("row 1"), missing.getMessage());
        }
        try (DecimalVector decimals = (DecimalVector) TestColumns.newVector(allocator, SqlType.decimal(18, 0))) {
            decimals.allocateNew();
            // Arrow refuses such a value through its setters; a corrupt batch could still carry one.
            decimals.setSafe(0, 1L);
            decimals.getDataBuffer().setLong(8, 1L);
            decimals.setValueCount(1);
            ColumbaException tooBig = assertThrows(ColumbaException.class, () -> SegmentEncoder.encode(decimals,
                    SqlType.decimal(18, 0), DictionarySource.none(), EncodingOptions.DEFAULT));
            assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, tooBig.errorCode());
        }
        try (BitVector bits = (BitVector) TestColumns.newVector(allocator, SqlType.BOOLEAN)) {
            bits.allocateNew((1 << 20) + 1);
            bits.setValueCount((1 << 20) + 1);
            ColumbaException tooMany = assertThrows(ColumbaException.class, () -> SegmentEncoder.encode(bits,
                    SqlType.BOOLEAN, DictionarySource.none(), EncodingOptions.DEFAULT));
            assertEquals("[INVALID_ARGUMENT] a segment holds at most 1048576 rows, got 1048577", tooMany.getMessage());
        }
    }

    private Dictionary secondaryOf(SqlType type, List<Object> values, long cap, int id) {
        DictionaryBuilder builder = DictionaryBuilder.secondary(type, null, cap);
        for (Object value : values) {
            assertTrue(builder.tryAdd(value) != DictionaryBuilder.Outcome.FULL);
        }
        return builder.freeze(id);
    }
}
