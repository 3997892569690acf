package dev.columba.columnstore.views;

import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.io.NativeFilesFacade;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The data behind {@code sys.column_store_row_groups}, {@code sys.column_store_segments} and
 * {@code sys.column_store_dictionaries}: SQL Server's questions, named and typed cleanly. Reads the
 * rowgroup directory and the rowgroup files' footers (never a segment's data).
 */
public final class ColumnstoreViews {
    private ColumnstoreViews() {
    }

    /** A row of {@code sys.column_store_row_groups}. */
    public record RowgroupRow(String tableName, int rowgroupId, RowgroupState state, long totalRows, long deletedRows,
                              long sizeInBytes, TrimReason trimReason, Instant created) {
    }

    /** A row of {@code sys.column_store_segments}. */
    public record SegmentRow(String tableName, int rowgroupId, int columnId, String columnName, EncodingKind encoding,
                             boolean archived, long rowCount, long nullCount, Object min, Object max, long onDiskSize,
                             int primaryDictionaryId, int secondaryDictionaryId, FallbackReason fallbackReason) {
    }

    /** Primary or secondary. */
    public enum DictionaryKind { PRIMARY, SECONDARY }

    /** A row of {@code sys.column_store_dictionaries}; {@code rowgroupId} is -1 for a primary dictionary. */
    public record DictionaryRow(String tableName, int columnId, String columnName, DictionaryKind kind, int dictionaryId,
                                int rowgroupId, long entryCount, long onDiskSize) {
    }

    public static List<RowgroupRow> rowgroups(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        List<RowgroupRow> rows = new ArrayList<>();
        for (RowgroupEntry entry : table.rowgroups(reader, counters)) {
            rows.add(new RowgroupRow(table.name(), entry.rowgroupId(), entry.state(), entry.totalRows(),
                    entry.deletedRows(), entry.sizeBytes(), entry.trimReason(),
                    Instant.EPOCH.plusNanos(entry.createdMicros() * 1000)));
        }
        return rows;
    }

    public static List<SegmentRow> segments(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        List<SegmentRow> rows = new ArrayList<>();
        for (RowgroupEntry entry : table.rowgroups(reader, counters)) {
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
                for (int column = 0; column < file.columnCount(); column++) {
                    SqlType type = table.schema().column(column).type();
                    SegmentMetadata segment = FooterMetadata.decode(file.metadata(column), type, file.path().toString());
                    rows.add(new SegmentRow(table.name(), entry.rowgroupId(), column, table.schema().column(column).name(),
                            segment.encoding(), segment.archived(), segment.rowCount(), segment.nullCount(), segment.min(),
                            segment.max(), file.segmentLength(column), segment.primaryDictionaryId(),
                            segment.secondaryDictionaryId(), segment.fallbackReason()));
                }
            }
        }
        return rows;
    }

    public static List<DictionaryRow> dictionaries(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        List<DictionaryRow> rows = new ArrayList<>();
        PrimaryDictionaries primaries = table.primaryDictionaries();
        for (int column = 0; column < table.schema().size(); column++) {
            Dictionary primary = primaries.get(column);
            if (primary != null) {
                rows.add(new DictionaryRow(table.name(), column, table.schema().column(column).name(), DictionaryKind.PRIMARY,
                        primary.id(), -1, primary.entryCount(), primary.sizeBytes()));
            }
        }
        for (RowgroupEntry entry : table.rowgroups(reader, counters)) {
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
                for (int column = 0; column < file.columnCount(); column++) {
                    int blob = file.columnCount() + column;
                    if (blob >= file.blobCount() || file.segmentLength(blob) == 0) {
                        continue;
                    }
                    SqlType type = table.schema().column(column).type();
                    Dictionary secondary = Dictionary.read(file.segment(blob), type, file.path().toString());
                    rows.add(new DictionaryRow(table.name(), column, table.schema().column(column).name(),
                            DictionaryKind.SECONDARY, secondary.id(), entry.rowgroupId(), secondary.entryCount(),
                            secondary.sizeBytes()));
                }
            }
        }
        return rows;
    }
}
