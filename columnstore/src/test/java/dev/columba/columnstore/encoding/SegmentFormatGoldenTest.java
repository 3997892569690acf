package dev.columba.columnstore.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.core.type.SqlType;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Version 1 segments and a dictionary, kept as files under {@code format/segment/v1/} (the
 * examples of {@code docs/format/segment.md}): this build must read them, and must still write the
 * same bytes for the same values. Archived bytes depend on the zstd library, so that golden file
 * is only read.
 */
class SegmentFormatGoldenTest {
    private BufferAllocator allocator;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void close() {
        allocator.close();
    }

    private static byte[] golden(String name) throws IOException {
        try (InputStream in = SegmentFormatGoldenTest.class.getResourceAsStream("/format/segment/v1/" + name)) {
            if (in == null) {
                throw new IOException("missing golden file " + name);
            }
            return in.readAllBytes();
        }
    }

    private void check(String name, EncodingKind kind, SqlType type, List<Object> values, Dictionary secondary,
                       EncodingOptions options, boolean sameBytes) throws IOException {
        byte[] bytes = golden(name);
        SegmentReader reader = SegmentReader.open(MemorySegment.ofArray(bytes), type, null, secondary, name);
        assertEquals(kind, reader.header().encoding());
        try (FieldVector decoded = TestColumns.newVector(allocator, type)) {
            reader.decode(0, reader.rowCount(), decoded, 0);
            assertEquals(values, TestColumns.read(decoded), name);
        }
        if (sameBytes) {
            try (FieldVector vector = TestColumns.vector(allocator, type, values)) {
                DictionarySource source = secondary == null ? DictionarySource.none() : DictionarySource.of(null, secondary);
                assertArrayEquals(bytes, SegmentEncoder.encode(kind, vector, type, source, options).bytes(), name);
            }
        }
    }

    @Test
    void valueEncodedInts() throws IOException {
        check("value-int.seg", EncodingKind.VALUE, SqlType.INT, Arrays.asList(7, null, 3, 10, 3), null,
                EncodingOptions.DEFAULT, true);
    }

    @Test
    void runLengthBigints() throws IOException {
        check("run-length-bigint.seg", EncodingKind.RUN_LENGTH, SqlType.BIGINT, Arrays.asList(5L, 5L, 5L, 9L, 9L), null,
                EncodingOptions.DEFAULT, true);
    }

    @Test
    void plainStrings() throws IOException {
        check("plain-varchar.seg", EncodingKind.PLAIN, SqlType.varchar(5), Arrays.asList("h\u00e9", "", null, "x"), null,
                EncodingOptions.DEFAULT, true);
    }

    @Test
    void dictionaryStringsAndTheirSecondaryDictionary() throws IOException {
        byte[] dictionaryBytes = golden("secondary-varchar.dict");
        Dictionary secondary = Dictionary.read(MemorySegment.ofArray(dictionaryBytes), SqlType.varchar(5),
                "secondary-varchar.dict");
        assertEquals(List.of("apple", "pear"), List.of(secondary.value(0), secondary.value(1)));
        DictionaryBuilder builder = DictionaryBuilder.secondary(SqlType.varchar(5), null, 1000);
        builder.tryAdd("pear");
        builder.tryAdd("apple");
        assertArrayEquals(dictionaryBytes, builder.freeze(4).toBytes());
        check("dictionary-varchar.seg", EncodingKind.DICTIONARY, SqlType.varchar(5), Arrays.asList("pear", "apple", null, "pear"),
                secondary, EncodingOptions.DEFAULT, true);
    }

    @Test
    void archivedPlainStrings() throws IOException {
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < 200; row++) {
            values.add("row " + (row % 10));
        }
        check("archived-plain-varchar.seg", EncodingKind.PLAIN, SqlType.varchar(10), values, null, EncodingOptions.ARCHIVE,
                false);
        assertTrue(SegmentHeader.read(MemorySegment.ofArray(golden("archived-plain-varchar.seg")), "golden").archived());
    }
}
