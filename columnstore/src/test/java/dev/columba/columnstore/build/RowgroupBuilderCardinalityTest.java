package dev.columba.columnstore.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.NativeFilesFacade;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A string column whose dictionary does not pay for itself (nearly every value distinct) gives it
 * up after the rowgroup's first {@link RowgroupBuilder#CARDINALITY_SAMPLE_ROWS} rows with
 * {@code dictionary_overflow = fallback}, records {@code HIGH_CARDINALITY} and leaves no primary
 * dictionary behind; columns with few values keep theirs; {@code trim} keeps every dictionary; and
 * the batch hand-over decides at the same row as row-by-row adding, so both build the same bytes.
 */
class RowgroupBuilderCardinalityTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.BIGINT),
            Column.notNull("mode", SqlType.varchar(10)),
            Column.notNull("code", SqlType.varchar(30)),
            Column.notNull("comment", SqlType.varchar(44)),
            Column.nullable("sparse", SqlType.varchar(20)));
    private static final int MODE = 1;
    private static final int CODE = 2;
    private static final int COMMENT = 3;
    private static final int SPARSE = 4;
    private static final int ROWS = 180_000;
    private static final int ROWGROUP_ROWS = 150_000;

    @TempDir
    Path directory;

    private record Build(List<BuiltRowgroup> rowgroups, PrimaryDictionaries primaries) {
    }

    private static List<Object[]> rows() {
        String[] modes = {"AIR", "RAIL", "TRUCK", "MAIL"};
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            rows.add(new Object[] {
                    (long) id,
                    modes[id % modes.length],
                    "code number " + (id * 7919 % 3_000),
                    "a unique comment, number " + id + " of them",
                    // Distinct, NULL in some rows and in every row just before the sample ends.
                    id % 50 == 0 || id >= 131_000 && id < 131_072 ? null : "sparse " + id});
        }
        return rows;
    }

    private Build build(String name, ColumnstoreOptions.DictionaryOverflow overflow, Random batches) throws Exception {
        Path files = Files.createDirectories(directory.resolve(name));
        PrimaryDictionaries primaries = new PrimaryDictionaries(NativeFilesFacade.INSTANCE, files, SCHEMA,
                dev.columba.columnstore.file.CheckedObjects.unshared());
        // The default cap, far above what these columns need: only the weighing can make them fall back.
        ColumnstoreOptions options = new ColumnstoreOptions(ROWGROUP_ROWS, 1, DictionaryBuilder.DEFAULT_CAP_BYTES, overflow,
                false);
        List<BuiltRowgroup> built = new ArrayList<>();
        AtomicInteger ids = new AtomicInteger();
        List<Object[]> rows = rows();
        try (RootAllocator allocator = new RootAllocator();
             RowgroupBuilder builder = new RowgroupBuilder(SCHEMA, options, primaries, allocator, 1L << 30,
                     ids::incrementAndGet, built::add)) {
            if (batches == null) {
                rows.forEach(builder::add);
            } else {
                int done = 0;
                while (done < rows.size()) {
                    int count = Math.min(rows.size() - done, 1 + batches.nextInt(20_000));
                    ColumnBatch batch = new ColumnBatch(SCHEMA, 64);
                    for (int row = done; row < done + count; row++) {
                        for (int column = 0; column < SCHEMA.size(); column++) {
                            batch.setValue(column, rows.get(row)[column]);
                        }
                        batch.commitRow();
                    }
                    builder.addBatch(batch);
                    done += count;
                }
            }
            builder.finish(TrimReason.BULKLOAD);
        }
        return new Build(built, primaries);
    }

    @Test
    void aDictionaryThatDoesNotPayForItselfIsGivenUp() throws Exception {
        Build build = build("fallback", ColumnstoreOptions.DictionaryOverflow.FALLBACK, null);
        assertEquals(2, build.rowgroups().size());
        List<SegmentMetadata> first = build.rowgroups().getFirst().segments();
        assertEquals(FallbackReason.HIGH_CARDINALITY, first.get(COMMENT).fallbackReason());
        assertEquals(FallbackReason.HIGH_CARDINALITY, first.get(SPARSE).fallbackReason());
        assertFalse(first.get(COMMENT).encoding().usesDictionary());
        assertEquals(FallbackReason.NONE, first.get(MODE).fallbackReason());
        assertEquals(FallbackReason.NONE, first.get(CODE).fallbackReason());
        assertTrue(first.get(MODE).encoding().usesDictionary(), first.get(MODE).toString());
        assertTrue(first.get(CODE).encoding().usesDictionary(), first.get(CODE).toString());
        // The second rowgroup (30,000 rows) never reaches the sample: its comments are weighed by the encoder alone.
        assertEquals(FallbackReason.NONE, build.rowgroups().get(1).segments().get(COMMENT).fallbackReason());
        assertNotNull(build.primaries().get(MODE));
        assertNotNull(build.primaries().get(CODE));
        // The first rowgroup gave the comments' dictionary up, so it was not stored as the primary;
        // the second built and stored its own.
        assertEquals(ROWS - ROWGROUP_ROWS, build.primaries().get(COMMENT).entryCount());
    }

    @Test
    void trimKeepsEveryDictionaryUpToItsCap() throws Exception {
        Build build = build("trim", ColumnstoreOptions.DictionaryOverflow.TRIM, null);
        for (BuiltRowgroup rowgroup : build.rowgroups()) {
            for (SegmentMetadata segment : rowgroup.segments()) {
                assertEquals(FallbackReason.NONE, segment.fallbackReason(), segment.toString());
            }
        }
        assertEquals(ROWGROUP_ROWS, build.primaries().get(COMMENT).entryCount());
    }

    @Test
    void batchesGiveTheDictionaryUpAtTheRowRowsDo() throws Exception {
        long seed = System.nanoTime();
        Build expected = build("rows", ColumnstoreOptions.DictionaryOverflow.FALLBACK, null);
        Build actual = build("batches", ColumnstoreOptions.DictionaryOverflow.FALLBACK, new Random(seed));
        assertEquals(expected.rowgroups().size(), actual.rowgroups().size(), "seed " + seed);
        for (int index = 0; index < expected.rowgroups().size(); index++) {
            BuiltRowgroup want = expected.rowgroups().get(index);
            BuiltRowgroup got = actual.rowgroups().get(index);
            String where = "seed " + seed + ", rowgroup " + index;
            assertEquals(want.rows(), got.rows(), where);
            assertEquals(want.segments(), got.segments(), where);
            for (int blob = 0; blob < want.blobs().size(); blob++) {
                assertArrayEquals(want.blobs().get(blob).bytes(), got.blobs().get(blob).bytes(), where + ", blob " + blob);
                assertArrayEquals(want.blobs().get(blob).metadata(), got.blobs().get(blob).metadata(),
                        where + ", blob " + blob);
            }
        }
        assertEquals(FallbackReason.HIGH_CARDINALITY, actual.rowgroups().getFirst().segments().get(COMMENT).fallbackReason(),
                "seed " + seed);
    }
}
