package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.columnstore.encoding.TestColumns.Shape;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every segment encoding honours, run against each one by a subclass (after Lucene's
 * {@code BaseDocValuesFormatTestCase}): random columns of every type it applies to, in every shape,
 * with and without NULLs, round-trip exactly; any sub-range decodes into any target offset like the
 * whole; single rows fetch; skipping and reading agree; filters on encoded data select what a
 * reference evaluation on Java values selects; the estimate is the size; metadata describes the
 * values; and damaged bytes fail with INDEX_CORRUPT or FORMAT_TOO_NEW, never anything else.
 * Randomized tests print their seed; replay with {@code -Dcolumba.test.seed=<seed>}.
 */
abstract class AbstractEncodingTest {
    static final int MAX_ROWS = 2500;
    static final String ORIGIN = "test segment";

    BufferAllocator allocator;
    Arena arena;

    /** The encoding under test. */
    abstract EncodingKind kind();

    /** Whether the encoding applies to values of {@code type}. */
    abstract boolean appliesTo(SqlType type);

    EncodingOptions options() {
        return EncodingOptions.DEFAULT;
    }

    /** The dictionaries a segment of these values is encoded with; none unless the encoding needs them. */
    TestDictionaries dictionariesFor(SqlType type, FieldVector values, Random random) {
        return TestDictionaries.NONE;
    }

    /** Dictionaries given to the encoder and, identically, to the reader. */
    record TestDictionaries(Dictionary primary, Dictionary secondary) {
        static final TestDictionaries NONE = new TestDictionaries(null, null);

        DictionarySource source() {
            return primary == null && secondary == null ? DictionarySource.none() : DictionarySource.of(primary, secondary);
        }
    }

    record Encoded(SqlType type, List<Object> values, EncodedSegment segment, TestDictionaries dictionaries) {
        byte[] bytes() {
            return segment.bytes();
        }
    }

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
        arena = Arena.ofConfined();
    }

    @AfterEach
    void close() {
        arena.close();
        allocator.close();
    }

    boolean applies(SqlType type, List<Object> values) {
        return appliesTo(type) && (!kind().usesDictionary() || values.stream().anyMatch(value -> value != null));
    }

    Encoded encode(SqlType type, List<Object> values, Random random) {
        try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
            TestDictionaries dictionaries = dictionariesFor(type, vector, random);
            EncodedSegment segment = SegmentEncoder.encode(kind(), vector, type, dictionaries.source(), options());
            return new Encoded(type, values, segment, dictionaries);
        }
    }

    /** The segment's bytes copied off the heap, as the rowgroup file's mapping would hold them. */
    MemorySegment offHeap(byte[] bytes) {
        MemorySegment segment = arena.allocate(Math.max(1, bytes.length)).asSlice(0, bytes.length);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, segment, 0, bytes.length);
        return segment;
    }

    SegmentReader open(Encoded encoded, byte[] bytes) {
        return SegmentReader.open(offHeap(bytes), encoded.type(), encoded.dictionaries().primary(),
                encoded.dictionaries().secondary(), ORIGIN);
    }

    SegmentReader open(Encoded encoded) {
        return open(encoded, encoded.bytes());
    }

    /** Random segments: every applicable type, every shape, a random NULL fraction. */
    List<Encoded> randomSegments(Random random, int perShape) {
        List<Encoded> segments = new ArrayList<>();
        for (SqlType type : TestColumns.TYPES) {
            for (Shape shape : Shape.values()) {
                for (int repeat = 0; repeat < perShape; repeat++) {
                    int rows = switch (random.nextInt(6)) {
                        case 0 -> 1 + random.nextInt(3);
                        case 1 -> 64 * (1 + random.nextInt(4));
                        default -> 1 + random.nextInt(MAX_ROWS);
                    };
                    double nullFraction = new double[] {0, 0, 0.05, 0.5, 0.95}[random.nextInt(5)];
                    List<Object> values = TestColumns.values(type, shape, rows, nullFraction, random);
                    if (applies(type, values)) {
                        segments.add(encode(type, values, random));
                    }
                }
            }
        }
        return segments;
    }

    static String describe(Encoded encoded) {
        return encoded.type().sqlName() + " segment of " + encoded.values().size() + " rows, "
                + encoded.segment().metadata();
    }

    void assertValues(List<Object> expected, List<Object> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": row count");
        for (int row = 0; row < expected.size(); row++) {
            if (!TestColumns.same(expected.get(row), actual.get(row))) {
                fail(what + ": row " + row + " expected " + expected.get(row) + " but was " + actual.get(row));
            }
        }
    }

    // ---- Round trips --------------------------------------------------------------------------------

    @Test
    void everyTypeAndShapeRoundTrips() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".everyTypeAndShapeRoundTrips", random -> {
            for (Encoded encoded : randomSegments(random, 2)) {
                SegmentReader reader = open(encoded);
                try (FieldVector decoded = TestColumns.newVector(allocator, encoded.type())) {
                    reader.decode(0, reader.rowCount(), decoded, 0);
                    assertValues(encoded.values(), TestColumns.read(decoded), describe(encoded));
                }
            }
        });
    }

    /**
     * Strings decoded with their {@link CodedStrings} in two consecutive ranges: a dictionary
     * encoding hands on codes for every row, below the code count, one value per code (a consumer
     * may map a code to the value of any row that has it); any other encoding marks no codes.
     */
    @Test
    void decodedStringsCarryCodesThatNameTheirValues() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".decodedStringsCarryCodesThatNameTheirValues", random -> {
            for (Encoded encoded : randomSegments(random, 2)) {
                if (!(encoded.type() instanceof SqlType.VarcharType) || encoded.values().isEmpty()) {
                    continue;
                }
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                int split = random.nextInt(rows + 1);
                CodedStrings codes = new CodedStrings();
                try (FieldVector decoded = TestColumns.newVector(allocator, encoded.type())) {
                    reader.decode(0, split, decoded, 0, codes);
                    reader.decode(split, rows - split, decoded, split, codes);
                    assertValues(encoded.values(), TestColumns.read(decoded), describe(encoded));
                    if (!kind().usesDictionary()) {
                        assertEquals(0, codes.codedRows(), describe(encoded) + ": codes without a dictionary");
                        continue;
                    }
                    assertEquals(rows, codes.codedRows(), describe(encoded) + ": coded rows");
                    java.util.Map<Integer, Object> valueOfCode = new java.util.HashMap<>();
                    for (int row = 0; row < rows; row++) {
                        Object value = encoded.values().get(row);
                        if (value == null) {
                            continue;
                        }
                        int code = codes.codes()[row];
                        assertTrue(code >= 0 && code < codes.codeCount(), describe(encoded) + ": code " + code + " of row " + row);
                        Object seen = valueOfCode.putIfAbsent(code, value);
                        assertTrue(seen == null || seen.equals(value), describe(encoded) + ": code " + code + " names two values");
                    }
                }
            }
        });
    }

    /**
     * Codes alone ({@link SegmentReader#decodeCodes}): a dictionary of strings writes the codes a
     * whole decode writes, empty strings and the right NULLs, and a later decode of the same rows
     * writes the strings over them (the deferred strings); any other encoding writes nothing.
     */
    @Test
    void codesAloneAreTheCodesOfAWholeDecode() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".codesAloneAreTheCodesOfAWholeDecode", random -> {
            for (Encoded encoded : randomSegments(random, 2)) {
                if (!(encoded.type() instanceof SqlType.VarcharType) || encoded.values().isEmpty()) {
                    continue;
                }
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                int from = random.nextInt(rows);
                int count = 1 + random.nextInt(rows - from);
                CodedStrings wholeCodes = new CodedStrings();
                CodedStrings aloneCodes = new CodedStrings();
                try (FieldVector whole = TestColumns.newVector(allocator, encoded.type());
                     FieldVector alone = TestColumns.newVector(allocator, encoded.type())) {
                    reader.decode(from, count, whole, 0, wholeCodes);
                    boolean coded = reader.decodeCodes(from, count, alone, aloneCodes);
                    assertEquals(kind().usesDictionary(), coded, describe(encoded) + ": codes alone");
                    if (!coded) {
                        assertEquals(0, aloneCodes.codedRows(), describe(encoded) + ": codes without a dictionary");
                        continue;
                    }
                    assertEquals(count, aloneCodes.codedRows(), describe(encoded));
                    assertSame(wholeCodes.codeSpace(), aloneCodes.codeSpace(), describe(encoded));
                    assertEquals(count, alone.getValueCount(), describe(encoded));
                    for (int row = 0; row < count; row++) {
                        Object value = encoded.values().get(from + row);
                        assertEquals(value == null, alone.isNull(row), describe(encoded) + ": NULL of row " + row);
                        if (value != null) {
                            assertEquals(wholeCodes.codes()[row], aloneCodes.codes()[row], describe(encoded) + ": code of row " + row);
                            assertEquals("", alone.getObject(row).toString(), describe(encoded) + ": row " + row + " before its strings");
                        }
                    }
                    reader.decode(from, count, alone, 0, aloneCodes);
                    assertValues(encoded.values().subList(from, from + count), TestColumns.read(alone), describe(encoded));
                }
            }
        });
    }

    @Test
    void edgeValuesRoundTrip() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".edgeValuesRoundTrip", random -> {
            for (SqlType type : TestColumns.TYPES) {
                if (!appliesTo(type)) {
                    continue;
                }
                List<Object> values = new ArrayList<>();
                for (int row = 0; row < 300; row++) {
                    values.add(row % 7 == 3 ? null : TestColumns.edgeValue(type, random));
                }
                Encoded encoded = encode(type, values, random);
                try (FieldVector decoded = TestColumns.newVector(allocator, type)) {
                    open(encoded).decode(0, values.size(), decoded, 0);
                    assertValues(values, TestColumns.read(decoded), describe(encoded));
                }
            }
        });
    }

    @Test
    void singleRowEmptyAndAllNullSegments() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".singleRowEmptyAndAllNullSegments", random -> {
            for (SqlType type : TestColumns.TYPES) {
                List<List<Object>> cases = new ArrayList<>();
                cases.add(List.of(TestColumns.randomValue(type, random)));
                cases.add(new ArrayList<>(Arrays.asList((Object) null)));
                cases.add(List.of());
                cases.add(TestColumns.values(type, Shape.ALL_NULL, 1000, 1, random));
                for (List<Object> values : cases) {
                    if (!applies(type, values)) {
                        continue;
                    }
                    Encoded encoded = encode(type, values, random);
                    SegmentReader reader = open(encoded);
                    assertEquals(values.size(), reader.rowCount());
                    try (FieldVector decoded = TestColumns.newVector(allocator, type)) {
                        reader.decode(0, values.size(), decoded, 0);
                        assertValues(values, TestColumns.read(decoded), describe(encoded));
                    }
                    for (int row = 0; row < values.size(); row++) {
                        assertTrue(TestColumns.same(values.get(row), reader.fetch(row)), describe(encoded));
                    }
                }
            }
        });
    }

    /**
     * {@link SegmentReader#sumValues}: the exact total of a range's stored longs for packed and
     * run-length segments of integral types without NULLs (edge values included, so 64-bit
     * running sums spill), and false, adding nothing, for NULLs, other encodings and other types.
     */
    @Test
    void sumsOfARangeAreExactOrRefused() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".sumsOfARangeAreExactOrRefused", random -> {
            for (Encoded encoded : randomSegments(random, 2)) {
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                int from = random.nextInt(rows);
                int count = random.nextInt(rows - from + 1);
                ExactTotal total = new ExactTotal();
                boolean summed = reader.sumValues(from, count, total);
                SqlType type = encoded.type();
                boolean expected = (kind() == EncodingKind.VALUE || kind() == EncodingKind.RUN_LENGTH)
                        && ValueKind.of(type).integral() && !(type instanceof SqlType.BooleanType)
                        && encoded.values().stream().allMatch(java.util.Objects::nonNull);
                String what = describe(encoded) + ", rows " + from + "+" + count;
                if (type instanceof SqlType.BooleanType) {
                    continue;
                }
                assertEquals(expected, summed, what);
                BigInteger reference = BigInteger.ZERO;
                if (expected) {
                    for (Object value : encoded.values().subList(from, from + count)) {
                        reference = reference.add(BigInteger.valueOf(ValueKind.toLong(type, value)));
                    }
                }
                assertEquals(reference, total.value(), what);
            }
        });
    }

    @Test
    void subRangesDecodeIntoAnyTargetOffset() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".subRangesDecodeIntoAnyTargetOffset", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                for (int attempt = 0; attempt < 4; attempt++) {
                    // Two ranges decoded one after the other into one vector, as a scan fills a batch.
                    int firstFrom = random.nextInt(rows);
                    int firstCount = random.nextInt(rows - firstFrom + 1);
                    int secondFrom = random.nextInt(rows);
                    int secondCount = random.nextInt(rows - secondFrom + 1);
                    int targetOffset = random.nextInt(3) == 0 ? 0 : random.nextInt(50);
                    try (FieldVector target = TestColumns.newVector(allocator, encoded.type())) {
                        if (random.nextBoolean()) {
                            target.setInitialCapacity(1 + random.nextInt(16));
                            target.allocateNew();
                        }
                        reader.decode(firstFrom, firstCount, target, targetOffset);
                        reader.decode(secondFrom, secondCount, target, targetOffset + firstCount);
                        List<Object> actual = TestColumns.read(target);
                        String what = describe(encoded) + ", rows " + firstFrom + "+" + firstCount + " and " + secondFrom
                                + "+" + secondCount + " at " + targetOffset;
                        assertEquals(targetOffset + firstCount + secondCount, actual.size(), what);
                        assertValues(encoded.values().subList(firstFrom, firstFrom + firstCount),
                                actual.subList(targetOffset, targetOffset + firstCount), what);
                        assertValues(encoded.values().subList(secondFrom, secondFrom + secondCount),
                                actual.subList(targetOffset + firstCount, actual.size()), what);
                    }
                }
            }
        });
    }

    @Test
    void selectedRowsDecodeAtTheirPositions() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".selectedRowsDecodeAtTheirPositions", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                for (int attempt = 0; attempt < 4; attempt++) {
                    // A batch of a range whose filters kept a sparse, ascending subset of its rows.
                    int from = random.nextInt(rows);
                    int count = 1 + random.nextInt(rows - from);
                    int[] selection = new int[count];
                    int selected = 0;
                    int keepOneIn = 1 + random.nextInt(8);
                    for (int row = 0; row < count; row++) {
                        if (random.nextInt(keepOneIn) == 0) {
                            selection[selected++] = row;
                        }
                    }
                    CodedStrings selectedCodes = new CodedStrings();
                    CodedStrings wholeCodes = new CodedStrings();
                    try (FieldVector target = TestColumns.newVector(allocator, encoded.type());
                         FieldVector whole = TestColumns.newVector(allocator, encoded.type())) {
                        reader.decodeSelected(from, count, selection, selected, target, selectedCodes);
                        List<Object> actual = TestColumns.read(target);
                        String what = describe(encoded) + ", rows " + from + "+" + count + ", " + selected + " selected";
                        assertEquals(count, actual.size(), what);
                        for (int index = 0; index < selected; index++) {
                            int row = selection[index];
                            assertValues(Collections.singletonList(encoded.values().get(from + row)), actual.subList(row, row + 1),
                                    what + ", selected row " + row);
                        }
                        // A string segment's codes: those of the selected rows are the ids a whole decode gives them.
                        reader.decode(from, count, whole, 0, wholeCodes);
                        assertEquals(wholeCodes.codedRows(), selectedCodes.codedRows(), what);
                        assertEquals(wholeCodes.codeSpace(), selectedCodes.codeSpace(), what);
                        for (int index = 0; index < selected && selectedCodes.codedRows() > 0; index++) {
                            int row = selection[index];
                            assertEquals(wholeCodes.codes()[row], selectedCodes.codes()[row], what + ", code of selected row " + row);
                        }
                    }
                }
            }
        });
    }

    @Test
    void scannerSkipsAndReadsInOrder() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".scannerSkipsAndReadsInOrder", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentScanner scanner = open(encoded).scanner();
                while (scanner.remaining() > 0) {
                    int rows = 1 + random.nextInt(Math.max(1, encoded.values().size() / 3));
                    int from = scanner.position();
                    if (random.nextBoolean()) {
                        scanner.skip(Math.min(rows, scanner.remaining()));
                        continue;
                    }
                    try (FieldVector target = TestColumns.newVector(allocator, encoded.type())) {
                        int read = scanner.next(rows, target, 0);
                        assertEquals(Math.min(rows, encoded.values().size() - from), read);
                        assertValues(encoded.values().subList(from, from + read), TestColumns.read(target), describe(encoded));
                    }
                }
            }
        });
    }

    @Test
    void fetchReturnsEveryRow() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".fetchReturnsEveryRow", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentReader reader = open(encoded);
                for (int attempt = 0; attempt < 50; attempt++) {
                    int row = random.nextInt(reader.rowCount());
                    Object expected = encoded.values().get(row);
                    assertTrue(TestColumns.same(expected, reader.fetch(row)), describe(encoded) + " row " + row
                            + " expected " + expected + " but was " + reader.fetch(row));
                    assertEquals(expected == null, reader.isNull(row));
                }
            }
        });
    }

    // ---- Metadata and sizes -------------------------------------------------------------------------

    @Test
    void metadataDescribesTheValues() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".metadataDescribesTheValues", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentMetadata metadata = encoded.segment().metadata();
                List<Object> values = encoded.values();
                List<Object> present = values.stream().filter(value -> value != null).toList();
                assertEquals(kind(), metadata.encoding(), describe(encoded));
                assertEquals(values.size(), metadata.rowCount());
                assertEquals(values.size() - present.size(), metadata.nullCount());
                assertEquals(encoded.bytes().length, metadata.encodedBytes());
                assertEquals(FallbackReason.NONE, metadata.fallbackReason());
                Object min = present.stream().min((left, right) -> totalOrder(encoded.type(), left, right)).orElse(null);
                Object max = present.stream().max((left, right) -> totalOrder(encoded.type(), left, right)).orElse(null);
                assertTrue(TestColumns.same(min, metadata.min()), describe(encoded) + " min " + min);
                assertTrue(TestColumns.same(max, metadata.max()), describe(encoded) + " max " + max);
                SegmentHeader header = open(encoded).header();
                assertEquals(metadata.archived(), header.archived());
                assertEquals(metadata.primaryDictionaryId(), header.primaryDictionaryId());
                assertEquals(metadata.secondaryDictionaryId(), header.secondaryDictionaryId());
            }
        });
    }

    /** The order metadata uses: SQL order, except DOUBLE's IEEE total order ({@code -0.0 < 0.0}). */
    static int totalOrder(SqlType type, Object left, Object right) {
        if (left instanceof Double leftDouble) {
            return Double.compare(leftDouble, (Double) right);
        }
        return TestColumns.compare(type, left, right);
    }

    @Test
    void estimateIsTheEncodedSize() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".estimateIsTheEncodedSize", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                try (FieldVector vector = TestColumns.vector(allocator, encoded.type(), encoded.values())) {
                    long estimate = SegmentEncoder.estimates(vector, encoded.type(), encoded.dictionaries().source()).get(kind());
                    SegmentMetadata metadata = encoded.segment().metadata();
                    Dictionary secondary = encoded.dictionaries().secondary();
                    long stored = metadata.secondaryDictionaryId() == SegmentMetadata.NO_DICTIONARY ? 0 : secondary.sizeBytes();
                    if (metadata.archived()) {
                        assertTrue(metadata.encodedBytes() + stored < estimate, describe(encoded));
                    } else {
                        assertEquals(estimate, metadata.encodedBytes() + stored, describe(encoded));
                    }
                }
            }
        });
    }

    // ---- Filters -------------------------------------------------------------------------------------

    @Test
    void filtersSelectWhatTheReferenceSelects() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".filtersSelectWhatTheReferenceSelects", random -> {
            for (Encoded encoded : randomSegments(random, 1)) {
                SegmentReader reader = open(encoded);
                int rows = reader.rowCount();
                int[] selection = new int[rows];
                for (int attempt = 0; attempt < 6; attempt++) {
                    ColumnPredicate predicate = randomPredicate(encoded.type(), encoded.values(), random);
                    SegmentFilter filter = reader.filter(predicate);
                    int from = random.nextInt(3) == 0 ? 0 : random.nextInt(rows);
                    int count = from == 0 && random.nextBoolean() ? rows : random.nextInt(rows - from + 1);
                    int selected = filter.select(from, count, selection);
                    int[] expected = referenceSelection(encoded, predicate, from, count);
                    String what = describe(encoded) + ", " + predicate + " on rows " + from + "+" + count;
                    assertEquals(Arrays.toString(expected), Arrays.toString(Arrays.copyOf(selection, selected)), what);
                    // Refining a random subset, dense or sparse, keeps exactly the matching rows of the subset.
                    int subset = 0;
                    int[] candidates = new int[count];
                    int keepOneIn = 1 + random.nextInt(random.nextBoolean() ? 2 : 128);
                    for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                        if (random.nextInt(keepOneIn) == 0) {
                            candidates[subset++] = rowInRange;
                        }
                    }
                    int[] refined = Arrays.copyOf(candidates, subset);
                    int kept = filter.refine(from, refined, subset);
                    int[] expectedRefined = Arrays.stream(candidates, 0, subset)
                            .filter(rowInRange -> Arrays.binarySearch(expected, rowInRange) >= 0).toArray();
                    assertEquals(Arrays.toString(expectedRefined), Arrays.toString(Arrays.copyOf(refined, kept)), what);
                    // ANDed into a bitmap (word-parallel or row by row): clears exactly the rows that do not match.
                    long[] bits = new long[count / 64 + 2];
                    long[] preset = new long[bits.length];
                    for (int word = 0; word < bits.length; word++) {
                        preset[word] = random.nextInt(4) == 0 ? random.nextLong() : -1L;
                    }
                    System.arraycopy(preset, 0, bits, 0, bits.length);
                    filter.andMatches(from, count, bits);
                    for (int rowInRange = 0; rowInRange < count; rowInRange++) {
                        boolean before = (preset[rowInRange >>> 6] & (1L << rowInRange)) != 0;
                        boolean after = (bits[rowInRange >>> 6] & (1L << rowInRange)) != 0;
                        boolean matches = Arrays.binarySearch(expected, rowInRange) >= 0;
                        assertEquals(before && matches, after, what + ", bitmap row " + rowInRange
                                + (filter.wordParallel() ? " (word-parallel)" : ""));
                    }
                }
            }
        });
    }

    static int[] referenceSelection(Encoded encoded, ColumnPredicate predicate, int from, int count) {
        List<Integer> rows = new ArrayList<>();
        for (int rowInRange = 0; rowInRange < count; rowInRange++) {
            if (referenceMatches(encoded.type(), predicate, encoded.values().get(from + rowInRange))) {
                rows.add(rowInRange);
            }
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    /** SQL semantics of a predicate on one value, written apart from the code under test. */
    static boolean referenceMatches(SqlType type, ColumnPredicate predicate, Object value) {
        return switch (predicate) {
            case ColumnPredicate.IsNull ignored -> value == null;
            case ColumnPredicate.IsNotNull ignored -> value != null;
            case ColumnPredicate.Comparison comparison -> {
                if (value == null || comparison.constant() == null) {
                    yield false;
                }
                int order = TestColumns.compare(type, value, padded(type, comparison.constant()));
                yield switch (comparison.operator()) {
                    case EQUAL -> order == 0;
                    case NOT_EQUAL -> order != 0;
                    case LESS -> order < 0;
                    case LESS_OR_EQUAL -> order <= 0;
                    case GREATER -> order > 0;
                    case GREATER_OR_EQUAL -> order >= 0;
                };
            }
            case ColumnPredicate.In in -> value != null && in.constants().stream()
                    .anyMatch(constant -> constant != null && TestColumns.compare(type, value, padded(type, constant)) == 0);
        };
    }

    private static Object padded(SqlType type, Object constant) {
        return type instanceof SqlType.CharType character ? TestColumns.padded((String) constant, character.length()) : constant;
    }

    static ColumnPredicate randomPredicate(SqlType type, List<Object> values, Random random) {
        int choice = random.nextInt(12);
        if (choice == 0) {
            return ColumnPredicate.isNull();
        }
        if (choice == 1) {
            return ColumnPredicate.isNotNull();
        }
        if (choice <= 3) {
            List<Object> constants = new ArrayList<>();
            int size = random.nextInt(6);
            for (int index = 0; index < size; index++) {
                constants.add(randomConstant(type, values, random));
            }
            return new ColumnPredicate.In(constants);
        }
        ColumnPredicate.Operator[] operators = ColumnPredicate.Operator.values();
        return ColumnPredicate.compare(operators[random.nextInt(operators.length)], randomConstant(type, values, random));
    }

    static Object randomConstant(SqlType type, List<Object> values, Random random) {
        int choice = random.nextInt(20);
        if (choice < 10) {
            Object value = values.get(random.nextInt(values.size()));
            if (value != null) {
                return value;
            }
        }
        if (choice < 14) {
            return TestColumns.randomValue(type, random);
        }
        if (choice < 17) {
            return TestColumns.edgeValue(type, random);
        }
        if (choice < 19) {
            // Constants a column cannot hold exactly: more fractional digits, an unpadded CHAR.
            return switch (type) {
                case SqlType.DecimalType ignored -> ((BigDecimal) TestColumns.randomValue(type, random))
                        .add(new BigDecimal(random.nextBoolean() ? "0.00000000000005" : "-0.00000000000005"));
                case SqlType.CharType ignored -> random.nextBoolean() ? "a" : "";
                default -> TestColumns.randomValue(type, random);
            };
        }
        return null;
    }

    @Test
    void aConstantOfAnotherTypeIsRejected() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".aConstantOfAnotherTypeIsRejected", random -> {
            for (SqlType type : TestColumns.TYPES) {
                List<Object> values = TestColumns.values(type, Shape.RANDOM, 10, 0, random);
                if (!applies(type, values)) {
                    continue;
                }
                SegmentReader reader = open(encode(type, values, random));
                Object wrong = type instanceof SqlType.VarcharType || type instanceof SqlType.CharType ? 7 : "seven";
                ColumbaException error = assertThrows(ColumbaException.class,
                        () -> reader.filter(ColumnPredicate.equal(wrong)));
                assertEquals(ErrorCode.WRONG_TYPE, error.errorCode(), error.getMessage());
            }
        });
    }

    // ---- Corruption ----------------------------------------------------------------------------------

    /** A small segment of {@code type} with NULLs, for the corruption tests. */
    Encoded sample(SqlType type, Random random) {
        List<Object> values = TestColumns.values(type, Shape.FEW_DISTINCT, 40 + random.nextInt(60), 0.2, random);
        values.set(0, TestColumns.randomValue(type, random));
        return encode(type, values, random);
    }

    @Test
    void everyTruncationIsCorrupt() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".everyTruncationIsCorrupt", random -> {
            for (SqlType type : TestColumns.TYPES) {
                if (!appliesTo(type)) {
                    continue;
                }
                Encoded encoded = sample(type, random);
                byte[] bytes = encoded.bytes();
                for (int length = 0; length < bytes.length; length++) {
                    byte[] truncated = Arrays.copyOf(bytes, length);
                    ColumbaException error = assertThrows(ColumbaException.class, () -> open(encoded, truncated),
                            describe(encoded) + " truncated to " + truncated.length);
                    assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
                    assertTrue(error.getMessage().contains(ORIGIN), error.getMessage());
                }
            }
        });
    }

    @Test
    void damagedBytesFailOnlyWithCorruptionErrors() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".damagedBytesFailOnlyWithCorruptionErrors", random -> {
            for (SqlType type : TestColumns.TYPES) {
                if (!appliesTo(type)) {
                    continue;
                }
                Encoded encoded = sample(type, random);
                for (int attempt = 0; attempt < 300; attempt++) {
                    byte[] damaged = encoded.bytes().clone();
                    int flips = 1 + random.nextInt(3);
                    for (int flip = 0; flip < flips; flip++) {
                        int position = random.nextInt(damaged.length);
                        damaged[position] = random.nextBoolean() ? (byte) random.nextInt()
                                : (byte) (damaged[position] ^ (1 << random.nextInt(8)));
                    }
                    try {
                        exercise(encoded, damaged, random);
                    } catch (ColumbaException error) {
                        assertTrue(error.errorCode() == ErrorCode.INDEX_CORRUPT || error.errorCode() == ErrorCode.FORMAT_TOO_NEW,
                                error.getMessage());
                    } catch (RuntimeException escaped) {
                        throw new AssertionError(describe(encoded) + ": damaged bytes escaped as " + escaped, escaped);
                    }
                }
            }
        });
    }

    /** Opens the bytes and uses every operation on them. */
    private void exercise(Encoded encoded, byte[] bytes, Random random) {
        SegmentReader reader = open(encoded, bytes);
        try (FieldVector target = TestColumns.newVector(allocator, encoded.type())) {
            reader.decode(0, reader.rowCount(), target, 0);
        }
        for (int row = 0; row < reader.rowCount(); row++) {
            reader.fetch(row);
        }
        int[] selection = new int[reader.rowCount()];
        reader.filter(randomPredicate(encoded.type(), encoded.values(), random)).select(0, reader.rowCount(), selection);
    }

    @Test
    void aNewerVersionIsTooNew() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".aNewerVersionIsTooNew", random -> {
            SqlType type = TestColumns.TYPES.stream().filter(this::appliesTo).findFirst().orElseThrow();
            Encoded encoded = sample(type, random);
            byte[] bytes = encoded.bytes().clone();
            bytes[4] = 2;
            ColumbaException error = assertThrows(ColumbaException.class, () -> open(encoded, bytes));
            assertEquals(ErrorCode.FORMAT_TOO_NEW, error.errorCode());
            assertEquals("[FORMAT_TOO_NEW] test segment: segment format version 2 at offset 4; this build reads versions up to 1",
                    error.getMessage());
        });
    }

    @Test
    void aBadHeaderIsCorrupt() throws Exception {
        Seeds.run(getClass().getSimpleName() + ".aBadHeaderIsCorrupt", random -> {
            SqlType type = TestColumns.TYPES.stream().filter(this::appliesTo).findFirst().orElseThrow();
            Encoded encoded = sample(type, random);
            byte[] badMagic = encoded.bytes().clone();
            badMagic[0] = 'X';
            assertCorrupt(encoded, badMagic, "[INDEX_CORRUPT] test segment: bad segment magic 0x47455358 at offset 0");
            byte[] badEncoding = encoded.bytes().clone();
            badEncoding[5] = 99;
            assertCorrupt(encoded, badEncoding, "[INDEX_CORRUPT] test segment: unknown encoding 99 at offset 5");
            byte[] badFlags = encoded.bytes().clone();
            badFlags[7] |= (byte) 0x80;
            assertCorrupt(encoded, badFlags, "[INDEX_CORRUPT] test segment: segment flags 0x"
                    + Integer.toHexString(Byte.toUnsignedInt(badFlags[7])) + " at offset 7");
            byte[] tooManyRows = encoded.bytes().clone();
            MemorySegment.ofArray(tooManyRows).set(SegmentFormat.LE_INT, 8, (1 << 20) + 1);
            assertCorrupt(encoded, tooManyRows, "[INDEX_CORRUPT] test segment: row count 1048577 at offset 8 exceeds 1048576");
            byte[] version0 = encoded.bytes().clone();
            version0[4] = 0;
            assertCorrupt(encoded, version0, "[INDEX_CORRUPT] test segment: segment format version 0 at offset 4");
            ColumbaException wrongColumn = assertThrows(ColumbaException.class, () -> SegmentReader.open(
                    offHeap(encoded.bytes()), type instanceof SqlType.VarcharType ? SqlType.INT : SqlType.varchar(3),
                    encoded.dictionaries().primary(), encoded.dictionaries().secondary(), ORIGIN));
            assertEquals(ErrorCode.INDEX_CORRUPT, wrongColumn.errorCode());
            assertTrue(wrongColumn.getMessage().contains("(offset 6), the column is"), wrongColumn.getMessage());
        });
    }

    void assertCorrupt(Encoded encoded, byte[] bytes, String message) {
        ColumbaException error = assertThrows(ColumbaException.class, () -> open(encoded, bytes));
        assertEquals(ErrorCode.INDEX_CORRUPT, error.errorCode(), error.getMessage());
        assertEquals(message, error.getMessage());
    }

    /** Offset of the first body byte in an unarchived sample (after header and null bitmap). */
    static int bodyOffset(Encoded encoded) {
        MemorySegment bytes = MemorySegment.ofArray(encoded.bytes());
        SegmentHeader header = SegmentHeader.read(bytes, ORIGIN);
        int bitmap = header.hasNulls() ? (header.rowCount() + 7) / 8 : 0;
        return header.headerBytes() + bitmap;
    }

    static byte byteAt(byte[] bytes, int offset) {
        return MemorySegment.ofArray(bytes).get(ValueLayout.JAVA_BYTE, offset);
    }
}
