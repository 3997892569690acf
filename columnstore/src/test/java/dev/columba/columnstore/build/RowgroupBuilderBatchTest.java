package dev.columba.columnstore.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.storage.io.NativeFilesFacade;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The column-wise hand-over ({@link RowgroupBuilder#addBatch}) builds the very rowgroups that
 * {@link RowgroupBuilder#add} row by row builds: the same cuts, trim reasons, segment bytes,
 * metadata and secondary dictionaries, for every type with NULLs, rowgroups cut inside a batch,
 * text columns whose dictionary overflows in some rowgroups, and the primary dictionary the first
 * rowgroup leaves for the next ones. Randomized; the seed is in every message.
 */
class RowgroupBuilderBatchTest {
    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("id", SqlType.BIGINT),
            Column.nullable("small", SqlType.INT),
            Column.nullable("amount", SqlType.decimal(9, 2)),
            Column.nullable("wide", SqlType.decimal(30, 4)),
            Column.nullable("day", SqlType.DATE),
            Column.nullable("moment", SqlType.TIMESTAMP),
            Column.nullable("flag", SqlType.BOOLEAN),
            Column.nullable("ratio", SqlType.DOUBLE),
            Column.nullable("code", SqlType.character(3)),
            Column.nullable("mode", SqlType.varchar(20)),
            Column.nullable("note", SqlType.varchar(40)));

    @TempDir
    Path directory;

    private static List<Object[]> rows(long seed, int count) {
        Random random = new Random(seed);
        String[] modes = {"AIR", "RAIL", "TRUCK", "日本", "", "MAIL"};
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            Object[] row = {
                    (long) id,
                    random.nextInt(5) == 0 ? null : random.nextInt(),
                    random.nextInt(5) == 0 ? null : BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2),
                    random.nextInt(5) == 0 ? null : new BigDecimal(new BigInteger(90, random).negate(), 4),
                    random.nextInt(5) == 0 ? null : LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000),
                    random.nextInt(5) == 0 ? null : LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(random.nextInt(1 << 30)),
                    random.nextInt(5) == 0 ? null : random.nextBoolean(),
                    random.nextInt(5) == 0 ? null : random.nextGaussian(),
                    random.nextInt(5) == 0 ? null : "C" + random.nextInt(30),
                    random.nextInt(7) == 0 ? null : modes[random.nextInt(modes.length)],
                    // Rising cardinality: the small cap overflows in later rowgroups only.
                    random.nextInt(9) == 0 ? null : "note " + random.nextInt(1 + id / 3)};
            for (int column = 0; column < row.length; column++) {
                row[column] = row[column] == null ? null : Values.canonical(SCHEMA.column(column).type(), row[column]);
            }
            rows.add(row);
        }
        return rows;
    }

    private List<BuiltRowgroup> build(String name, ColumnstoreOptions options, List<Object[]> rows, Random batches,
                                      boolean threads) throws Exception {
        Path files = Files.createDirectories(directory.resolve(name));
        PrimaryDictionaries primaries = new PrimaryDictionaries(NativeFilesFacade.INSTANCE, files, SCHEMA,
                dev.columba.columnstore.file.CheckedObjects.unshared());
        List<BuiltRowgroup> built = new ArrayList<>();
        AtomicInteger ids = new AtomicInteger();
        ForkJoinPool pool = threads ? new ForkJoinPool(2) : null;
        try (RootAllocator allocator = new RootAllocator();
             RowgroupBuilder builder = new RowgroupBuilder(SCHEMA, options, primaries, allocator, 1L << 30,
                     ids::incrementAndGet, built::add)) {
            builder.encodeOn(pool);
            if (batches == null) {
                for (Object[] row : rows) {
                    builder.add(row);
                }
            } else {
                int done = 0;
                while (done < rows.size()) {
                    int count = Math.min(rows.size() - done, 1 + batches.nextInt(900));
                    ColumnBatch batch = new ColumnBatch(SCHEMA, 1 + batches.nextInt(64));
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
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        return built;
    }

    @ParameterizedTest
    @EnumSource(ColumnstoreOptions.DictionaryOverflow.class)
    void batchesBuildTheRowgroupsRowsBuild(ColumnstoreOptions.DictionaryOverflow overflow) throws Exception {
        long seed = System.nanoTime();
        List<Object[]> rows = rows(seed, 7_000);
        ColumnstoreOptions options = new ColumnstoreOptions(1_500, 1, 1_200, overflow, false);
        List<BuiltRowgroup> expected = build("rows-" + overflow, options, rows, null, false);
        List<BuiltRowgroup> actual = build("batches-" + overflow, options, rows, new Random(seed), true);
        assertTrue(expected.size() >= 5, "seed " + seed + ": " + expected.size() + " rowgroups");
        if (overflow == ColumnstoreOptions.DictionaryOverflow.FALLBACK) {
            assertTrue(expected.stream().anyMatch(rowgroup -> rowgroup.segments().stream()
                            .anyMatch(segment -> segment.fallbackReason() != dev.columba.columnstore.encoding.FallbackReason.NONE)),
                    "seed " + seed + ": some segment falls back");
        }
        assertEquals(expected.size(), actual.size(), "seed " + seed);
        for (int index = 0; index < expected.size(); index++) {
            BuiltRowgroup want = expected.get(index);
            BuiltRowgroup got = actual.get(index);
            String where = "seed " + seed + ", rowgroup " + index;
            assertEquals(want.rowgroupId(), got.rowgroupId(), where);
            assertEquals(want.rows(), got.rows(), where);
            assertEquals(want.trimReason(), got.trimReason(), where);
            assertEquals(want.segments(), got.segments(), where);
            assertEquals(want.blobs().size(), got.blobs().size(), where);
            for (int blob = 0; blob < want.blobs().size(); blob++) {
                assertArrayEquals(want.blobs().get(blob).bytes(), got.blobs().get(blob).bytes(), where + ", blob " + blob);
                assertArrayEquals(want.blobs().get(blob).metadata(), got.blobs().get(blob).metadata(),
                        where + ", blob " + blob);
            }
        }
    }
}
