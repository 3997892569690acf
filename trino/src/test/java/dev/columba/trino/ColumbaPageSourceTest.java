package dev.columba.trino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.datagen.ResultComparison;
import io.airlift.slice.DynamicSliceOutput;
import io.airlift.slice.SliceInput;
import io.trino.spi.block.Block;
import io.trino.spi.block.BlockEncoding;
import io.trino.spi.block.ByteArrayBlockEncoding;
import io.trino.spi.block.Int128ArrayBlockEncoding;
import io.trino.spi.block.IntArrayBlockEncoding;
import io.trino.spi.block.LongArrayBlockEncoding;
import io.trino.spi.block.VariableWidthBlockEncoding;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorSplitSource;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.DynamicFilter;
import io.trino.spi.connector.MemoryContext;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SourcePage;
import io.trino.spi.type.Type;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector without a cluster: a table of every type with NULLs, in compressed rowgroups and a
 * delta rowgroup, read split by split through the page sources. Every block survives Trino's wire
 * encoding (what a worker sends to the next stage), and the rows equal the driver's.
 */
class ColumbaPageSourceTest {
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");

    @Test
    void everySplitsPagesEncodeAndMatchTheDriver(@TempDir Path directory) throws Exception {
        Path database = directory.resolve("types");
        List<List<Object>> expected = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:columba:" + database);
             Statement statement = connection.createStatement()) {
            statement.execute("""
                    CREATE TABLE t (id BIGINT NOT NULL, flag BOOLEAN, small INT, ratio DOUBLE, price DECIMAL(12,2),
                      wide DECIMAL(30,4), name VARCHAR(25), code CHAR(4), day DATE, moment TIMESTAMP)
                    WITH (storage = columnstore, rowgroup_max_rows = 2048, bulk_min_rows = 1024)""");
            StringBuilder insert = new StringBuilder("INSERT INTO t VALUES ");
            for (int row = 0; row < 5000; row++) {
                boolean nulls = row % 7 == 3;
                insert.append(row == 0 ? "" : ", ").append('(').append(row).append(", ")
                        .append(nulls ? "NULL" : row % 2 == 0).append(", ")
                        .append(nulls ? "NULL" : row * 31 - 7000).append(", ")
                        .append(nulls ? "NULL" : row / 7.0).append(", ")
                        .append(nulls ? "NULL" : row + ".25").append(", ")
                        .append(nulls ? "NULL" : "123456789012345678901" + row + ".5").append(", ")
                        .append(nulls ? "NULL" : "'name " + (row % 13 == 0 ? "ü✓ " : "") + row % 100 + "'").append(", ")
                        .append(nulls ? "NULL" : "'c" + row % 5 + "'").append(", ")
                        .append(nulls ? "NULL" : "DATE '" + LocalDate.of(2020, 1, 1).plusDays(row) + "'").append(", ")
                        .append(nulls ? "NULL" : "TIMESTAMP '" + LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(97L * row)
                                .plusNanos(1000L * row).format(MICROS) + "'").append(')');
            }
            statement.executeUpdate(insert.toString());
            statement.executeUpdate("INSERT INTO t VALUES (-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
            statement.executeUpdate("INSERT INTO t VALUES (-2, true, 1, 0.5, 1.00, 1.0000, 'x', 'y', DATE '1970-01-01', "
                    + "TIMESTAMP '1970-01-01 00:00:00')");
            try (ResultSet rows = statement.executeQuery("SELECT * FROM t ORDER BY id")) {
                while (rows.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int column = 1; column <= 10; column++) {
                        row.add(rows.getObject(column));
                    }
                    expected.add(row);
                }
            }
        }
        ColumbaConnector connector = (ColumbaConnector) new ColumbaConnectorFactory().create("columba",
                Map.of(ColumbaConfig.DATABASE_DIRECTORY, database.toString()), null);
        List<List<Object>> actual = new ArrayList<>();
        int splits = 0;
        try {
            ConnectorTableHandle table = connector.getMetadata(null, ColumbaTransactionHandle.SHARED)
                    .getTableHandle(null, new SchemaTableName("types", "t"), Optional.empty(), Optional.empty());
            List<ColumnHandle> columns = List.copyOf(connector.getMetadata(null, ColumbaTransactionHandle.SHARED)
                    .getColumnHandles(null, table).values());
            List<ConnectorSplit> all = new ArrayList<>();
            try (ConnectorSplitSource source = connector.getSplitManager().getSplits(ColumbaTransactionHandle.SHARED,
                    null, table, java.util.Set.copyOf(columns), Constraint.alwaysTrue())) {
                while (!source.isFinished()) {
                    all.addAll(source.getNextBatch(1000, io.trino.spi.connector.DynamicFilterSnapshot.EMPTY).get());
                }
            }
            for (ConnectorSplit split : all) {
                splits++;
                try (ConnectorPageSource pages = connector.getPageSourceProvider().createPageSource(
                        ColumbaTransactionHandle.SHARED, null, split, table, Optional.empty(), columns,
                        DynamicFilter.EMPTY, MemoryContext.NO_LIMIT)) {
                    SourcePage page;
                    while ((page = pages.getNextSourcePage()) != null || !pages.isFinished()) {
                        if (page == null) {
                            continue;
                        }
                        Block[] decoded = new Block[page.getChannelCount()];
                        for (int channel = 0; channel < decoded.length; channel++) {
                            decoded[channel] = roundTrip(page.getBlock(channel));
                        }
                        for (int position = 0; position < page.getPositionCount(); position++) {
                            List<Object> row = new ArrayList<>();
                            for (int channel = 0; channel < decoded.length; channel++) {
                                Type type = ((ColumbaColumnHandle) columns.get(channel)).type();
                                row.add(type.getObjectValue(decoded[channel], position));
                            }
                            actual.add(row);
                        }
                    }
                    assertTrue(pages.getCompletedBytes() > 0, "split " + split + " reports its bytes");
                }
            }
        } finally {
            connector.shutdown();
        }
        assertTrue(splits >= 4, splits + " splits: compressed rowgroups and the delta rowgroup");
        actual.sort(Comparator.comparingLong(row -> (Long) row.getFirst()));
        assertEquals(expected.size(), actual.size());
        List<List<Object>> normalized = new ArrayList<>();
        for (List<Object> row : actual) {
            List<Object> values = new ArrayList<>();
            for (Object value : row) {
                values.add(TrinoValues.toJava(value));
            }
            normalized.add(values);
        }
        assertNull(ResultComparison.difference(expected, normalized, new int[] {0}));
    }

    /** The block after Trino's own wire encoding of its class, vectorized, as a server does it here. */
    private static Block roundTrip(Block block) {
        BlockEncoding encoding = switch (block.getClass().getSimpleName()) {
            case "ByteArrayBlock" -> new ByteArrayBlockEncoding(true, true);
            case "IntArrayBlock" -> new IntArrayBlockEncoding(true, true);
            case "LongArrayBlock" -> new LongArrayBlockEncoding(true, true);
            case "Int128ArrayBlock" -> new Int128ArrayBlockEncoding();
            case "VariableWidthBlock" -> new VariableWidthBlockEncoding();
            default -> throw new AssertionError(block.getClass());
        };
        DynamicSliceOutput output = new DynamicSliceOutput(1024);
        encoding.writeBlock(null, output, block);
        output.writeInt(0x5eed);
        SliceInput input = output.slice().getInput();
        Block read = encoding.readBlock(null, input);
        assertEquals(0x5eed, input.readInt(), block.getClass().getSimpleName() + " read back what was written");
        return read;
    }
}
