package dev.columba.columnstore.diag;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.build.PrimaryDictionaries;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.io.NativeFilesFacade;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Diagnoses dictionary pressure in a columnstore table, the condition of seed 001: which columns'
 * dictionaries fill up, how many rowgroups they trimmed and how small that left them, how large a
 * read-ahead request such rowgroups allow against the 8 MB ceiling, what a cold scan costs against
 * a layout of full rowgroups, and what to do about it, ranked by estimated effect.
 *
 * <p>Everything comes from metadata: the rowgroup directory, and each rowgroup file's footer, which
 * keeps for every column how large the builder's dictionary was when the rowgroup closed. A
 * what-if ({@link #simulate}) replays the rowgroup builder's cutting decisions over those figures
 * with other settings, without reading or rewriting any data: each source rowgroup's dictionary is
 * taken to grow evenly over its rows (exact for all-distinct text, the pressured case), and values
 * repeated across rowgroups are counted again (an over-estimate of growth where they are common).
 */
public final class DictionaryDiagnostics {
    private DictionaryDiagnostics() {
    }

    /** A column whose dictionary came within this share of the cap is counted as at the cap. */
    static final double NEAR_CAP = 0.9;

    /**
     * The cold-scan cost model: read bandwidth with large requests, a fixed latency per read-ahead
     * request and per rowgroup opened (file, mapping, footer, first request's wait). Figures of
     * this machine's disk (docs/design/columnstore.md, "Diagnostics"); ratios between layouts are
     * what the model is for, not absolute times.
     */
    public record CostModel(double bytesPerSecond, double secondsPerRequest, double secondsPerRowgroup,
                            long maxRequestBytes) {
        public static final CostModel DEFAULT = new CostModel(1000.0 * (1 << 20), 0.0005, 0.0003, 8L << 20);

        double seconds(long bytes) {
            long requests = Math.max(1, (bytes + maxRequestBytes - 1) / maxRequestBytes);
            return secondsPerRowgroup + requests * secondsPerRequest + bytes / bytesPerSecond;
        }

        long requests(long bytes) {
            return Math.max(1, (bytes + maxRequestBytes - 1) / maxRequestBytes);
        }
    }

    /** A rowgroup layout and what a cold full scan of it costs by the model. */
    public record Layout(int rowgroups, long rows, long bytes, double averageRows, double averageBytes,
                         double averageRequestBytes, double estimatedColdScanSeconds) {
        static Layout of(List<long[]> rowgroups, CostModel model) {
            long rows = 0;
            long bytes = 0;
            long requests = 0;
            double seconds = 0;
            for (long[] rowgroup : rowgroups) {
                rows += rowgroup[0];
                bytes += rowgroup[1];
                requests += model.requests(rowgroup[1]);
                seconds += model.seconds(rowgroup[1]);
            }
            int count = rowgroups.size();
            return new Layout(count, rows, bytes, count == 0 ? 0 : (double) rows / count,
                    count == 0 ? 0 : (double) bytes / count, requests == 0 ? 0 : (double) bytes / requests, seconds);
        }
    }

    /** One column's dictionary pressure. */
    public record ColumnPressure(int column, String name, SqlType type, int rowgroupsAtCap, long maxDictionaryBytes,
                                 double averageDictionaryBytes, long dictionaryEntries, long primaryBytes, int fallbacks,
                                 long segmentBytes, Map<EncodingKind, Integer> encodings) {
    }

    /** A thing to do, its expected layout, and its expected effect on a cold scan. */
    public record Recommendation(String action, String reason, Layout expected, double estimatedSpeedup) {
    }

    /** The whole diagnosis of a table. */
    public record Report(String table, ColumnstoreOptions options, Layout current, Map<TrimReason, Integer> trimReasons,
                         int deltaRowgroups, List<ColumnPressure> columns, List<String> culprits, Layout fullRowgroups,
                         List<Recommendation> recommendations) {
    }

    /** Per-rowgroup figures read from the footers. */
    private record RowgroupFigures(long rows, long bytes, long[] columnBytes, long[] dictionaryBytes,
                                   long[] dictionaryEntries, boolean[] fellBack, EncodingKind[] encodings,
                                   TrimReason trimReason) {
    }

    private static List<RowgroupFigures> figures(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        List<RowgroupFigures> figures = new ArrayList<>();
        int columns = table.schema().size();
        for (RowgroupEntry entry : table.rowgroups(reader, counters)) {
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            try (RowgroupFile file = RowgroupFile.open(NativeFilesFacade.INSTANCE, table.rowgroupFile(entry.rowgroupId()))) {
                long[] columnBytes = new long[columns];
                long[] dictionaryBytes = new long[columns];
                long[] dictionaryEntries = new long[columns];
                boolean[] fellBack = new boolean[columns];
                EncodingKind[] encodings = new EncodingKind[columns];
                for (int column = 0; column < columns; column++) {
                    FooterMetadata.Entry footer = FooterMetadata.decodeEntry(file.metadata(column),
                            table.schema().column(column).type(), file.path().toString());
                    columnBytes[column] = file.segmentLength(column)
                            + (file.blobCount() > columns + column ? file.segmentLength(columns + column) : 0);
                    dictionaryBytes[column] = footer.builderDictionaryBytes();
                    dictionaryEntries[column] = footer.builderDictionaryEntries();
                    fellBack[column] = footer.segment().fallbackReason() == FallbackReason.DICTIONARY_OVERFLOW;
                    encodings[column] = footer.segment().encoding();
                }
                figures.add(new RowgroupFigures(entry.totalRows(), entry.sizeBytes(), columnBytes, dictionaryBytes,
                        dictionaryEntries, fellBack, encodings, entry.trimReason()));
            }
        }
        return figures;
    }

    /** Diagnoses {@code table} with the default cost model. */
    public static Report analyze(ColumnstoreTable table, PageReader reader, IoCounters counters) {
        return analyze(table, reader, counters, CostModel.DEFAULT);
    }

    public static Report analyze(ColumnstoreTable table, PageReader reader, IoCounters counters, CostModel model) {
        ColumnstoreOptions options = table.options();
        List<RowgroupFigures> figures = figures(table, reader, counters);
        int deltas = (int) table.rowgroups(reader, counters).stream().filter(RowgroupEntry::isDelta).count();
        Map<TrimReason, Integer> trims = new EnumMap<>(TrimReason.class);
        for (RowgroupFigures rowgroup : figures) {
            trims.merge(rowgroup.trimReason(), 1, Integer::sum);
        }
        int columnCount = table.schema().size();
        PrimaryDictionaries primaries = table.primaryDictionaries();
        List<ColumnPressure> columns = new ArrayList<>();
        for (int column = 0; column < columnCount; column++) {
            int atCap = 0;
            int fallbacks = 0;
            long maxBytes = 0;
            double sumBytes = 0;
            long entries = 0;
            long segmentBytes = 0;
            Map<EncodingKind, Integer> encodings = new EnumMap<>(EncodingKind.class);
            for (RowgroupFigures rowgroup : figures) {
                long bytes = rowgroup.dictionaryBytes()[column];
                if (bytes >= NEAR_CAP * options.dictionaryCapBytes()) {
                    atCap++;
                }
                if (rowgroup.fellBack()[column]) {
                    fallbacks++;
                }
                maxBytes = Math.max(maxBytes, bytes);
                sumBytes += bytes;
                entries += rowgroup.dictionaryEntries()[column];
                segmentBytes += rowgroup.columnBytes()[column];
                encodings.merge(rowgroup.encodings()[column], 1, Integer::sum);
            }
            Dictionary primary = primaries.get(column);
            columns.add(new ColumnPressure(column, table.schema().column(column).name(), table.schema().column(column).type(),
                    atCap, maxBytes, figures.isEmpty() ? 0 : sumBytes / figures.size(), entries,
                    primary == null ? 0 : primary.sizeBytes(), fallbacks, segmentBytes, encodings));
        }
        List<String> culprits = new ArrayList<>();
        for (ColumnPressure column : columns) {
            if (column.rowgroupsAtCap() > 0 || column.fallbacks() > 0) {
                culprits.add(column.name());
            }
        }
        Layout current = Layout.of(figures.stream().map(rowgroup -> new long[] {rowgroup.rows(), rowgroup.bytes()}).toList(),
                model);
        Layout full = fullRowgroups(current, options, model);
        List<Recommendation> recommendations = recommend(table, figures, current, full, trims, columns, culprits, model);
        return new Report(table.name(), options, current, trims, deltas, columns, culprits, full, recommendations);
    }

    /** The same rows and bytes in rowgroups of the maximum size. */
    private static Layout fullRowgroups(Layout current, ColumnstoreOptions options, CostModel model) {
        List<long[]> rowgroups = new ArrayList<>();
        long remaining = current.rows();
        double bytesPerRow = current.rows() == 0 ? 0 : (double) current.bytes() / current.rows();
        while (remaining > 0) {
            long rows = Math.min(remaining, options.rowgroupMaxRows());
            rowgroups.add(new long[] {rows, Math.round(rows * bytesPerRow)});
            remaining -= rows;
        }
        return Layout.of(rowgroups, model);
    }

    /**
     * The layout the table would have if reloaded with {@code changes} applied to its options
     * ({@code dictionary_cap}, {@code rowgroup_max_rows}, {@code dictionary_overflow}), computed
     * from the metadata alone.
     */
    public static Layout simulate(ColumnstoreTable table, PageReader reader, IoCounters counters, Map<String, String> changes) {
        return simulate(table, figures(table, reader, counters), changes, List.of(), CostModel.DEFAULT);
    }

    private static Layout simulate(ColumnstoreTable table, List<RowgroupFigures> figures, Map<String, String> changes,
                                   List<Integer> droppedColumns, CostModel model) {
        Map<String, String> merged = new HashMap<>(table.options().toMap());
        merged.putAll(changes);
        ColumnstoreOptions options = ColumnstoreOptions.parse(merged);
        int columns = table.schema().size();
        boolean trim = options.overflow() == ColumnstoreOptions.DictionaryOverflow.TRIM;
        List<long[]> rowgroups = new ArrayList<>();
        long rows = 0;
        double bytes = 0;
        double[] dictionaries = new double[columns];
        for (RowgroupFigures source : figures) {
            long remaining = source.rows();
            double[] growth = new double[columns];
            double bytesPerRow = 0;
            for (int column = 0; column < columns; column++) {
                if (droppedColumns.contains(column)) {
                    continue;
                }
                bytesPerRow += (double) source.columnBytes()[column] / Math.max(1, source.rows());
                // A column that fell back stopped growing at the cap: its growth per row is unknown
                // beyond it, so take the cap over the rows, a lower bound.
                growth[column] = source.dictionaryBytes()[column] / (double) Math.max(1, source.rows());
            }
            while (remaining > 0) {
                long fits = Math.min(remaining, options.rowgroupMaxRows() - rows);
                boolean dictionaryFull = false;
                if (trim) {
                    for (int column = 0; column < columns; column++) {
                        if (growth[column] > 0) {
                            long room = (long) Math.floor((options.dictionaryCapBytes() - dictionaries[column]) / growth[column]);
                            if (room < fits) {
                                fits = Math.max(0, room);
                                dictionaryFull = true;
                            }
                        }
                    }
                }
                if (fits == 0 && rows == 0) {
                    fits = 1;
                }
                rows += fits;
                bytes += fits * bytesPerRow;
                for (int column = 0; column < columns; column++) {
                    dictionaries[column] += fits * growth[column];
                }
                remaining -= fits;
                if (rows >= options.rowgroupMaxRows() || (dictionaryFull && remaining > 0)) {
                    rowgroups.add(new long[] {rows, Math.round(bytes)});
                    rows = 0;
                    bytes = 0;
                    java.util.Arrays.fill(dictionaries, 0);
                }
            }
        }
        if (rows > 0) {
            rowgroups.add(new long[] {rows, Math.round(bytes)});
        }
        return Layout.of(rowgroups, model);
    }

    private static List<Recommendation> recommend(ColumnstoreTable table, List<RowgroupFigures> figures, Layout current,
                                                  Layout full, Map<TrimReason, Integer> trims, List<ColumnPressure> columns,
                                                  List<String> culprits, CostModel model) {
        List<Recommendation> recommendations = new ArrayList<>();
        ColumnstoreOptions options = table.options();
        int dictionaryTrims = trims.getOrDefault(TrimReason.DICTIONARY_SIZE, 0);
        if (dictionaryTrims > 0) {
            Layout fallback = simulate(table, figures, Map.of("dictionary_overflow", "fallback"), List.of(), model);
            recommendations.add(new Recommendation("ALTER TABLE " + table.name() + " SET (dictionary_overflow = fallback),"
                    + " then ALTER INDEX ALL ON " + table.name() + " REBUILD",
                    dictionaryTrims + " rowgroups were cut short by the dictionaries of " + String.join(", ", culprits)
                            + "; with fallback they stay full and those columns' segments go without a dictionary",
                    fallback, speedup(current, fallback)));
            long neededCap = (neededCap(columns, figures, options) + (1L << 20) - 1) / (1L << 20) * (1L << 20);
            long doubled = Math.min(1L << 30, options.dictionaryCapBytes() * 2);
            Layout raised = simulate(table, figures, Map.of("dictionary_cap", String.valueOf(doubled)), List.of(), model);
            recommendations.add(new Recommendation("ALTER TABLE " + table.name() + " SET (dictionary_cap = '"
                    + formatBytes(doubled) + "'), then REBUILD",
                    "twice the cap holds twice the rows per rowgroup" + (neededCap <= (1L << 30)
                            ? "; full rowgroups would need about " + formatBytes(neededCap) : ""),
                    raised, speedup(current, raised)));
            List<Integer> dropped = new ArrayList<>();
            for (ColumnPressure column : columns) {
                if (culprits.contains(column.name())) {
                    dropped.add(column.column());
                }
            }
            Layout without = simulate(table, figures, Map.of(), dropped, model);
            recommendations.add(new Recommendation("Keep " + String.join(", ", culprits) + " out of the columnstore "
                    + "(a rowstore table keyed by the row's id)", "the remaining columns compress into full rowgroups; "
                    + "queries that need " + String.join(", ", culprits) + " join to the rowstore", without,
                    speedup(current, without)));
        }
        int small = trims.getOrDefault(TrimReason.BULKLOAD, 0) + trims.getOrDefault(TrimReason.REORG, 0)
                + trims.getOrDefault(TrimReason.MEMORY_LIMITATION, 0);
        if (small > 1 && current.averageRows() < options.rowgroupMaxRows() / 2.0) {
            recommendations.add(new Recommendation("ALTER INDEX ALL ON " + table.name() + " REORGANIZE (merges small rowgroups)"
                    + "; load in batches of at least " + options.rowgroupMaxRows() + " rows",
                    small + " rowgroups are small for reasons other than dictionaries", full, speedup(current, full)));
        }
        recommendations.sort(Comparator.comparingDouble(Recommendation::estimatedSpeedup).reversed());
        return recommendations;
    }

    /** The cap the pressured columns would need for full rowgroups, from their growth per row. */
    private static long neededCap(List<ColumnPressure> columns, List<RowgroupFigures> figures, ColumnstoreOptions options) {
        double worst = 0;
        for (ColumnPressure column : columns) {
            for (RowgroupFigures rowgroup : figures) {
                worst = Math.max(worst, rowgroup.dictionaryBytes()[column.column()] / (double) Math.max(1, rowgroup.rows()));
            }
        }
        return (long) Math.ceil(worst * options.rowgroupMaxRows());
    }

    private static double speedup(Layout current, Layout expected) {
        return expected.estimatedColdScanSeconds() == 0 ? 1 : current.estimatedColdScanSeconds()
                / expected.estimatedColdScanSeconds();
    }

    /** Whole units where exact (what option values take), else megabytes with two decimals. */
    static String formatBytes(long bytes) {
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + "MB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0 && bytes < (1L << 20)) {
            return bytes / (1L << 10) + "KB";
        }
        return String.format(Locale.ROOT, "%.2fMB", bytes / 1048576.0);
    }

    /** A text rendering for people. */
    public static String format(Report report) {
        StringBuilder out = new StringBuilder();
        Layout current = report.current();
        out.append(String.format(Locale.ROOT, "Table %s: %,d rows in %d compressed rowgroups (%d delta), %.0f rows and %.2f MB each"
                        + " on average%n", report.table(), current.rows(), current.rowgroups(), report.deltaRowgroups(),
                current.averageRows(), current.averageBytes() / 1048576));
        out.append(String.format(Locale.ROOT, "  options: rowgroup_max_rows %d, dictionary_cap %s, dictionary_overflow %s%n",
                report.options().rowgroupMaxRows(), formatBytes(report.options().dictionaryCapBytes()),
                report.options().overflow().name().toLowerCase(Locale.ROOT)));
        out.append("  trim reasons:");
        report.trimReasons().forEach((reason, count) -> out.append(' ').append(reason).append(' ').append(count));
        out.append(String.format(Locale.ROOT, "%n  read-ahead: %.2f MB per request on average against the %d MB ceiling%n",
                current.averageRequestBytes() / 1048576, CostModel.DEFAULT.maxRequestBytes() >> 20));
        out.append(String.format(Locale.ROOT, "  estimated cold scan: %.2f s now, %.2f s with full rowgroups (%.1fx)%n",
                current.estimatedColdScanSeconds(), report.fullRowgroups().estimatedColdScanSeconds(),
                speedup(current, report.fullRowgroups())));
        out.append("  columns:\n");
        for (ColumnPressure column : report.columns()) {
            if (column.maxDictionaryBytes() == 0 && column.fallbacks() == 0) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "    %-20s dictionary up to %s (%.0f%% of the cap), at the cap in %d rowgroups,"
                            + " fell back in %d, %s%n", column.name(), formatBytes(column.maxDictionaryBytes()),
                    100.0 * column.maxDictionaryBytes() / report.options().dictionaryCapBytes(), column.rowgroupsAtCap(),
                    column.fallbacks(), column.encodings()));
        }
        out.append("  cause: ").append(report.culprits().isEmpty() ? "no dictionary pressure"
                : "dictionary pressure from " + String.join(", ", report.culprits())).append('\n');
        int rank = 1;
        for (Recommendation recommendation : report.recommendations()) {
            Layout expected = recommendation.expected();
            out.append(String.format(Locale.ROOT, "  %d. %s%n     %s%n     expected: %d rowgroups of %.0f rows, %.2f MB per"
                            + " read-ahead request, cold scan %.2f s (%.1fx)%n", rank++, recommendation.action(),
                    recommendation.reason(), expected.rowgroups(), expected.averageRows(),
                    expected.averageRequestBytes() / 1048576, expected.estimatedColdScanSeconds(),
                    recommendation.estimatedSpeedup()));
        }
        return out.toString();
    }

}
