package dev.columba.trino;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.SegmentDistinct;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.statistics.ColumnStatistics;
import io.trino.spi.statistics.DoubleRange;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A table's statistics for Trino's cost-based optimizer, from what the rowgroups already record:
 * the row count from the rowgroup directory, and per column the NULL fraction and the min/max range
 * (numbers, dates and timestamps, as Trino wants them: doubles) from the compressed rowgroups'
 * footers, and the distinct values of whole-number and string columns estimated from the footers as the
 * embedded planner estimates them ({@link SegmentDistinct}: value runs and min/max for whole numbers, the
 * larger of the primary dictionary's entries and the rowgroups' dictionary builders' for strings). Delta rowgroups have
 * no footer: their rows count, their values are not seen, so the range may miss a fresh row's value (an
 * estimate). Reads every compressed rowgroup's footer (its file mapped) at each call, when a query is planned.
 */
final class FooterStatistics {
    private FooterStatistics() {
    }

    static TableStatistics of(ColumnstoreTable table, List<ColumbaColumnHandle> columns) {
        int columnCount = table.schema().size();
        long liveRows = 0;
        long[] footerRows = new long[columnCount];
        long[] nulls = new long[columnCount];
        double[] min = new double[columnCount];
        double[] max = new double[columnCount];
        boolean[] ranged = new boolean[columnCount];
        List<List<SegmentDistinct.Segment>> segments = new ArrayList<>();
        long[] dictionaryEntries = new long[columnCount];
        for (int column = 0; column < columnCount; column++) {
            segments.add(new ArrayList<>());
            Dictionary primary = table.primaryDictionaries().get(column);
            dictionaryEntries[column] = primary == null ? 0 : primary.entryCount();
        }
        java.util.Arrays.fill(min, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
        try (ObjectLocks.Lease ignored = table.database().locks().shared(table.objectId())) {
            for (RowgroupEntry entry : table.rowgroups(table.database().bufferPool(), new IoCounters())) {
                liveRows += entry.totalRows() - entry.deletedRows();
                if (entry.state() != RowgroupState.COMPRESSED) {
                    continue;
                }
                try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
                    for (int column = 0; column < columnCount; column++) {
                        SqlType type = table.schema().column(column).type();
                        FooterMetadata.Entry footer = FooterMetadata.decodeEntry(file.metadata(column), type,
                                file.path().toString());
                        SegmentMetadata segment = footer.segment();
                        segments.get(column).add(new SegmentDistinct.Segment(segment.rowCount() - segment.nullCount(),
                                SegmentDistinct.ofSegment(type, footer, dictionaryEntries[column]), segment.min(), segment.max()));
                        footerRows[column] += segment.rowCount();
                        nulls[column] += segment.nullCount();
                        if (segment.min() != null && ranged(type)) {
                            double low = asDouble(segment.min());
                            double high = asDouble(segment.max());
                            if (!Double.isNaN(low) && !Double.isNaN(high)) {
                                min[column] = Math.min(min[column], low);
                                max[column] = Math.max(max[column], high);
                                ranged[column] = true;
                            }
                        }
                    }
                }
            }
        }
        TableStatistics.Builder statistics = TableStatistics.builder().setRowCount(Estimate.of(liveRows));
        for (ColumbaColumnHandle column : columns) {
            int ordinal = column.ordinal();
            if (footerRows[ordinal] == 0) {
                continue;
            }
            ColumnStatistics.Builder columnStatistics = ColumnStatistics.builder()
                    .setNullsFraction(Estimate.of((double) nulls[ordinal] / footerRows[ordinal]));
            if (ranged[ordinal]) {
                columnStatistics.setRange(new DoubleRange(min[ordinal], max[ordinal]));
            }
            OptionalDouble distinct = SegmentDistinct.ofColumn(table.schema().column(ordinal).type(), segments.get(ordinal));
            if (distinct.isPresent()) {
                columnStatistics.setDistinctValuesCount(Estimate.of(distinct.getAsDouble()));
            }
            statistics.setColumnStatistics(column, columnStatistics.build());
        }
        return statistics.build();
    }

    /** Whether Trino keeps a range for the type: numbers, dates and timestamps. */
    private static boolean ranged(SqlType type) {
        return switch (type) {
            case SqlType.IntegerType ignored -> true;
            case SqlType.BigintType ignored -> true;
            case SqlType.DoubleType ignored -> true;
            case SqlType.DecimalType ignored -> true;
            case SqlType.DateType ignored -> true;
            case SqlType.TimestampType ignored -> true;
            case SqlType.BooleanType ignored -> false;
            case SqlType.VarcharType ignored -> false;
            case SqlType.CharType ignored -> false;
            case SqlType.VarbinaryType ignored -> false;
            case SqlType.BinaryType ignored -> false;
            case SqlType.UuidType ignored -> false;
        };
    }

    /** A footer value as Trino's statistics count it: the number, days since the epoch, microseconds since the epoch. */
    private static double asDouble(Object value) {
        return switch (value) {
            case Integer number -> number;
            case Long number -> number;
            case Double number -> number;
            case BigDecimal number -> number.doubleValue();
            case LocalDate date -> date.toEpochDay();
            case LocalDateTime timestamp -> timestamp.toEpochSecond(ZoneOffset.UTC) * 1_000_000.0 + timestamp.getNano() / 1_000;
            default -> throw new IllegalArgumentException("no statistics range for " + value.getClass().getSimpleName());
        };
    }
}
