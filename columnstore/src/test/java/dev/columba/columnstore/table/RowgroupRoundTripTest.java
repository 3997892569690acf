package dev.columba.columnstore.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.columba.columnstore.scan.ColumnstoreScan;
import dev.columba.columnstore.scan.ScanOptions;
import dev.columba.core.batch.Batch;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.core.type.Values;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole rowgroups round-trip: random schemas over every type, random rows with NULLs and edge
 * values (each type's extremes, empty and multi-byte strings, all-equal and all-distinct columns),
 * bulk-inserted into several compressed rowgroups (some trimmed, some with archival compression,
 * some with a delta tail) and scanned back exactly. Replay with {@code -Dcolumba.seed=<seed>}.
 */
class RowgroupRoundTripTest {
    @TempDir
    Path directory;

    private static final List<SqlType> TYPES = List.of(SqlType.BOOLEAN, SqlType.INT, SqlType.BIGINT, SqlType.DOUBLE,
            SqlType.decimal(9, 2), SqlType.decimal(38, 10), SqlType.varchar(40), SqlType.character(5), SqlType.DATE,
            SqlType.TIMESTAMP);

    private static Object value(SqlType type, Random random, int row, int shape) {
        if (shape == 0) {
            row = 7;
        }
        if (random.nextInt(10) == 0) {
            return edge(type, random);
        }
        return switch (type) {
            case SqlType.BooleanType ignored -> row % 3 == 0;
            case SqlType.IntegerType ignored -> shape == 2 ? random.nextInt() : row * 3 - 100;
            case SqlType.BigintType ignored -> shape == 2 ? random.nextLong() : row * 1_000_003L;
            case SqlType.DoubleType ignored -> shape == 2 ? random.nextGaussian() * 1e6 : row / 4.0;
            case SqlType.DecimalType decimal -> BigDecimal.valueOf(shape == 2 ? random.nextInt(1_000_000) : row, decimal.scale())
                    .setScale(decimal.scale());
            case SqlType.VarcharType ignored -> shape == 2 ? "v" + random.nextLong() : "value " + (row % 50);
            case SqlType.CharType ignored -> Values.canonical(type, Integer.toString(row % 1000)).toString();
            case SqlType.DateType ignored -> LocalDate.of(2000, 1, 1).plusDays(row % 9000);
            case SqlType.TimestampType ignored -> LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(row * 1_000L);
            case SqlType.VarbinaryType ignored -> new byte[] {(byte) (row % 50), (byte) row};
            case SqlType.BinaryType binary -> Values.canonical(type, new byte[] {(byte) (row % 1000)});
            case SqlType.UuidType ignored -> new java.util.UUID(row % 50, shape == 2 ? random.nextLong() : row);
        };
    }

    private static Object edge(SqlType type, Random random) {
        return switch (type) {
            case SqlType.BooleanType ignored -> random.nextBoolean();
            case SqlType.IntegerType ignored -> random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
            case SqlType.BigintType ignored -> random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            case SqlType.DoubleType ignored -> new double[] {-0.0, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE,
                Double.NEGATIVE_INFINITY}[random.nextInt(5)];
            case SqlType.DecimalType decimal -> new BigDecimal(BigInteger.TEN.pow(decimal.precision()).subtract(BigInteger.ONE)
                    .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1)), decimal.scale());
            case SqlType.VarcharType ignored -> new String[] {"", "ünïcödé ✓", "\u0000nul", "😀".repeat(10)}[random.nextInt(4)];
            case SqlType.CharType ignored -> new String[] {"     ", "é    ", "ZZZZZ"}[random.nextInt(3)];
            case SqlType.DateType ignored -> random.nextBoolean() ? LocalDate.of(1, 1, 1) : LocalDate.of(9999, 12, 31);
            case SqlType.TimestampType ignored -> random.nextBoolean() ? LocalDateTime.of(1, 1, 1, 0, 0)
                    : LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000);
            case SqlType.VarbinaryType ignored -> random.nextBoolean() ? new byte[0] : new byte[] {0, (byte) 0xff};
            case SqlType.BinaryType binary -> Values.canonical(type, new byte[] {(byte) 0xff});
            case SqlType.UuidType ignored -> random.nextBoolean() ? new java.util.UUID(0, 0) : new java.util.UUID(-1, -1);
        };
    }

    @Test
    void randomTablesRoundTripThroughCompressedRowgroups() {
        long seed = Long.getLong("columba.seed", System.nanoTime());
        System.out.println("RowgroupRoundTripTest seed " + seed);
        Random random = new Random(seed);
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", "32MB");
        try (Database database = Database.open(directory, settings, NativeFilesFacade.INSTANCE);
             RootAllocator allocator = new RootAllocator(1L << 30)) {
            for (int round = 0; round < 4; round++) {
                List<Column> columns = new ArrayList<>();
                int[] shapes = new int[3 + random.nextInt(6)];
                for (int column = 0; column < shapes.length; column++) {
                    columns.add(Column.nullable("c" + column, TYPES.get(random.nextInt(TYPES.size()))));
                    shapes[column] = random.nextInt(3);
                }
                TableSchema schema = new TableSchema(columns);
                int rowCount = 3000 + random.nextInt(4000);
                List<Object[]> rows = new ArrayList<>();
                for (int row = 0; row < rowCount; row++) {
                    Object[] values = new Object[schema.size()];
                    for (int column = 0; column < values.length; column++) {
                        values[column] = random.nextInt(8) == 0 ? null
                                : value(schema.column(column).type(), random, row, shapes[column]);
                    }
                    rows.add(values);
                }
                Map<String, String> options = new HashMap<>(Map.of("rowgroup_max_rows", "1024", "bulk_min_rows", "500",
                        "dictionary_cap", "4KB"));
                options.put("dictionary_overflow", random.nextBoolean() ? "trim" : "fallback");
                options.put("compression", random.nextBoolean() ? "archive" : "none");
                String context = "seed " + seed + ", round " + round + ", " + schema + ", " + options;
                ColumnstoreTable table;
                try (Transaction transaction = database.begin()) {
                    table = ColumnstoreTable.create(database, transaction, "t" + round, schema, options);
                    table.bulkInsert(transaction, rows.subList(0, rowCount - 100).iterator());
                    for (Object[] row : rows.subList(rowCount - 100, rowCount)) {
                        table.insert(transaction, row);
                    }
                    transaction.commit();
                }
                int[] projection = new int[schema.size()];
                Arrays.setAll(projection, column -> column);
                int index = 0;
                try (ColumnstoreScan scan = new ColumnstoreScan(table, database.bufferPool(),
                        ScanOptions.all(schema.size()).withBatchSize(700), new IoCounters(), allocator)) {
                    Batch batch;
                    while ((batch = scan.next()) != null) {
                        for (int selected = 0; selected < batch.selectedCount(); selected++) {
                            int row = batch.selectedRow(selected);
                            Object[] expected = rows.get(index);
                            for (int column = 0; column < schema.size(); column++) {
                                Object actual = VectorValues.get(batch.column(column), row, schema.column(column).type());
                                Object wanted = expected[column] == null ? null
                                        : Values.canonical(schema.column(column).type(), expected[column]);
                                assertEquals(wanted, actual, context + ", row " + index + ", column " + column);
                            }
                            index++;
                        }
                    }
                }
                assertEquals(rowCount, index, context);
            }
        }
    }
}
