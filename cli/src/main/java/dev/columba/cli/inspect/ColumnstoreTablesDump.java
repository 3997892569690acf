package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.encoding.EncodingKind;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.storage.catalog.CatalogEntry;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * The columnstore part of a database directory's dump: for each columnstore table, its rowgroups
 * from the rowgroup directory and the files of {@code <db>/columnstore/<table id>/}, each checked.
 * A file no rowgroup refers to is flagged as an orphan but is no damage: a rolled-back or killed
 * build leaves it, and the table's next rowgroup build (bulk insert, tuple mover, reorganize)
 * removes it. A compressed rowgroup whose file is
 * missing, or whose file disagrees with the directory, is damage. {@link #printColumns} adds a
 * per-column summary from the rowgroup files' footers: encodings, NULLs, dictionary sizes against
 * the table's {@code dictionary_cap}.
 */
final class ColumnstoreTablesDump {
    private static final String FILE_INDENT = INDENT + INDENT;

    private final Path database;
    private final CatalogView catalog;
    private final boolean catalogFound;
    private final Map<Integer, RowgroupDirectory> directories;
    private final PrintStream out;
    private final Findings findings;

    /**
     * @param catalog      the catalog as read ({@link CatalogView#unreadable()} without a data file)
     * @param catalogFound whether the catalog could be found at all
     * @param directories  the rowgroup directory of each columnstore table in the catalog, by id
     */
    ColumnstoreTablesDump(Path database, CatalogView catalog, boolean catalogFound,
                          Map<Integer, RowgroupDirectory> directories, PrintStream out, Findings findings) {
        this.database = database;
        this.catalog = catalog;
        this.catalogFound = catalogFound;
        this.directories = directories;
        this.out = out;
        this.findings = findings;
    }

    /** Every columnstore table and every directory of {@code <db>/columnstore} that belongs to none. */
    void printSummary() {
        Path root = ColumnstoreLayout.columnstoreDirectory(database);
        out.println("columnstore " + root);
        if (!catalogFound) {
            out.println(INDENT + "(the catalog cannot be read: which files are live cannot be told)");
        }
        if (directories.isEmpty()) {
            out.println(INDENT + "no columnstore tables");
        }
        boolean first = true;
        for (RowgroupDirectory directory : directories.values()) {
            if (!first) {
                out.println();
            }
            first = false;
            printTable(directory);
        }
        for (Path stray : listing(root)) {
            int tableId = ColumnstoreLayout.tableIdOfName(stray.getFileName().toString());
            if (tableId >= 0 && directories.containsKey(tableId)) {
                continue;
            }
            String owner;
            if (tableId < 0) {
                owner = "not a table directory; nothing in the database refers to it";
            } else if (!catalogFound) {
                owner = "the directory of table " + tableId + ", which the unreadable catalog cannot confirm";
            } else {
                owner = catalog.entry(tableId).map(entry -> "object " + tableId + " " + entry.name() + " is no columnstore table")
                        .orElse("no object " + tableId + " in the catalog" + (catalog.complete() ? "" : " as far as it could be"
                                + " read")) + "; nothing in the database refers to it";
            }
            out.println(INDENT + stray.getFileName() + (Files.isDirectory(stray) ? "/" : "") + ": " + owner);
        }
    }

    /** Whether {@code objectId} is a columnstore table of the catalog. */
    boolean isColumnstoreTable(int objectId) {
        return directories.containsKey(objectId);
    }

    /** Names of the columnstore tables, for a usage message. */
    List<String> tableNames() {
        return directories.values().stream().map(directory -> directory.table().name()).toList();
    }

    /** One table: its rowgroups, then its files. */
    void printTable(int tableId) {
        printTable(directories.get(tableId));
    }

    private void printTable(RowgroupDirectory directory) {
        CatalogEntry.Table table = directory.table();
        String label = RowgroupDirectory.label(table);
        Map<RowgroupState, Integer> states = new EnumMap<>(RowgroupState.class);
        long rows = 0;
        long deleted = 0;
        for (RowgroupEntry entry : directory.rowgroups()) {
            states.merge(entry.state(), 1, Integer::sum);
            if (entry.state() != RowgroupState.TOMBSTONE) {
                rows += entry.totalRows();
                deleted += entry.deletedRows();
            }
        }
        StringJoiner counts = new StringJoiner(", ", " (", ")");
        states.forEach((state, count) -> counts.add(count + " " + state));
        out.println(INDENT + label + ": " + directory.rowgroups().size() + " rowgroups" + (states.isEmpty() ? "" : counts)
                + ", " + rows + " rows, " + deleted + " deleted" + (directory.complete() ? ""
                : " (the rowgroup directory was read in part)"));
        out.println(FILE_INDENT + "options   " + optionsText(table));
        if (directory.record() != null) {
            out.println(FILE_INDENT + "directory root page " + table.rootPage() + ", delete bitmap root page "
                    + directory.record().deleteBitmapRoot() + ", next rowgroup id " + directory.record().nextRowgroupId());
        }
        if (!directory.rowgroups().isEmpty()) {
            TextTable rowgroups = new TextTable(FILE_INDENT, "rowgroup", "state", "rows", "deleted", "bytes", "trim reason",
                    "created", "stored in");
            for (RowgroupEntry entry : directory.rowgroups()) {
                rowgroups.row(entry.rowgroupId(), entry.state().name(), entry.totalRows(), entry.deletedRows(),
                        entry.sizeBytes(), entry.trimReason().name(), ValueText.micros(entry.createdMicros()),
                        switch (entry.state()) {
                            case COMPRESSED -> ColumnstoreLayout.rowgroupFileName(entry.rowgroupId());
                            case OPEN, CLOSED -> "delta B+tree, root page " + entry.deltaRoot();
                            case TOMBSTONE -> "-";
                        });
            }
            rowgroups.print(out);
        }
        printFiles(directory);
    }

    private static String optionsText(CatalogEntry.Table table) {
        try {
            ColumnstoreOptions options = ColumnstoreOptions.parse(table.options());
            return "rowgroup_max_rows " + options.rowgroupMaxRows() + ", bulk_min_rows " + options.bulkMinRows()
                    + ", dictionary_cap " + options.dictionaryCapBytes() + ", dictionary_overflow "
                    + options.overflow().name().toLowerCase(Locale.ROOT) + ", compression "
                    + (options.archive() ? "archive" : "none");
        } catch (ColumbaException invalid) {
            return table.options() + " (" + invalid.getMessage() + ")";
        }
    }

    // ---- files ---------------------------------------------------------------------------------

    private void printFiles(RowgroupDirectory directory) {
        CatalogEntry.Table table = directory.table();
        Path tableDirectory = ColumnstoreLayout.tableDirectory(database, table.objectId());
        Set<Integer> live = new HashSet<>();
        for (RowgroupEntry entry : directory.rowgroups()) {
            if (entry.state() == RowgroupState.COMPRESSED) {
                live.add(entry.rowgroupId());
            }
        }
        out.println(FILE_INDENT + "files in " + tableDirectory);
        TextTable files = new TextTable(FILE_INDENT + INDENT, "file", "bytes", "check", "content");
        Set<Integer> found = new HashSet<>();
        boolean orphans = false;
        for (Path file : listing(tableDirectory)) {
            String name = file.getFileName().toString();
            long size = sizeOf(file);
            int rowgroupId = ColumnstoreLayout.rowgroupIdOfName(name);
            int column = ColumnstoreLayout.columnOfDictionaryName(name);
            if (Files.isDirectory(file)) {
                files.row(name + "/", null, "-", "not a columnstore file");
            } else if (rowgroupId >= 0 && live.contains(rowgroupId)) {
                found.add(rowgroupId);
                RowgroupEntry entry = directory.rowgroup(rowgroupId).orElseThrow();
                files.row(name, size, checkRowgroupFile(file, entry, table) ? "OK" : "BAD", "rowgroup " + rowgroupId + ": "
                        + entry.totalRows() + " rows, trim reason " + entry.trimReason());
            } else if (rowgroupId >= 0) {
                orphans = true;
                files.row(name, size, "-", (directory.complete() ? "orphan" : "orphan?") + ": no compressed rowgroup "
                        + rowgroupId + " in the directory refers to it");
            } else if (column >= 0) {
                files.row(name, size, checkDictionaryFile(file, column, table), dictionaryContent(file, column, table));
            } else if (name.endsWith(ColumnstoreLayout.TEMPORARY_SUFFIX)) {
                orphans = true;
                files.row(name, size, "-", "orphan: a file whose write was interrupted");
            } else {
                files.row(name, size, "-", "not a columnstore file");
            }
        }
        for (int rowgroupId : live) {
            if (!found.contains(rowgroupId)) {
                Path file = tableDirectory.resolve(ColumnstoreLayout.rowgroupFileName(rowgroupId));
                findings.report(FILE_INDENT, RowgroupDirectory.label(table) + ": rowgroup " + rowgroupId
                        + " is COMPRESSED but its file " + file + " is missing");
                files.row(file.getFileName().toString(), null, "MISSING", "rowgroup " + rowgroupId + "'s file");
            }
        }
        if (files.isEmpty()) {
            out.println(FILE_INDENT + INDENT + (Files.isDirectory(tableDirectory) ? "no files"
                    : "no directory: the table has no compressed rowgroup"));
        } else {
            files.print(out);
        }
        if (orphans) {
            out.println(FILE_INDENT + "(orphans are left by a rolled-back or killed build; the table's next rowgroup build"
                    + " removes them" + (directory.complete() ? ")"
                    : "; the directory was read in part, so some may be live)"));
        }
    }

    /** The entries of {@code directory} in a stable order: rowgroup files by id, dictionaries by column, then by name. */
    private List<Path> listing(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.sorted(Comparator.comparingInt((Path path) -> order(path.getFileName().toString()))
                    .thenComparingInt(path -> number(path.getFileName().toString()))
                    .thenComparing(path -> path.getFileName().toString())).toList();
        } catch (IOException e) {
            findings.report(FILE_INDENT, "cannot list " + directory + ": " + e.getMessage());
            return List.of();
        }
    }

    private static int order(String name) {
        if (ColumnstoreLayout.rowgroupIdOfName(name) >= 0) {
            return 0;
        }
        return ColumnstoreLayout.columnOfDictionaryName(name) >= 0 ? 1 : 2;
    }

    private static int number(String name) {
        int rowgroupId = ColumnstoreLayout.rowgroupIdOfName(name);
        return rowgroupId >= 0 ? rowgroupId : Math.max(ColumnstoreLayout.columnOfDictionaryName(name),
                ColumnstoreLayout.tableIdOfName(name));
    }

    private long sizeOf(Path file) {
        try {
            return Files.isDirectory(file) ? 0 : Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Checks a live rowgroup file whole: structure, every blob's checksum, and agreement with the
     * directory; reports each problem and returns whether there was none.
     */
    private boolean checkRowgroupFile(Path file, RowgroupEntry entry, CatalogEntry.Table table) {
        List<String> problems = new ArrayList<>();
        try (RowgroupFileReader reader = RowgroupFileReader.open(file)) {
            problems.addAll(reader.problems());
            RowgroupFileReader.Header header = reader.header();
            int columns = header != null && header.checksumOk() ? header.columns() : table.schema().size();
            for (RowgroupFileReader.Blob blob : reader.blobs()) {
                String content = RowgroupFileDump.blobContent(blob, columns, column -> columnLabel(table.schema(), column));
                String problem = RowgroupFileDump.checksumProblem(reader, blob, reader.checksum(blob), content);
                if (problem != null) {
                    problems.add(problem);
                }
            }
            if (reader.size() != entry.sizeBytes()) {
                problems.add(file + " is " + reader.size() + " bytes long, the rowgroup directory says " + entry.sizeBytes());
            }
            if (header != null && header.checksumOk()) {
                if (header.rowgroupId() != entry.rowgroupId()) {
                    problems.add(file + " (offset " + ColumnstoreLayout.HEADER_ROWGROUP_ID + "): rowgroup id "
                            + header.rowgroupId() + ", but the file's name says " + entry.rowgroupId());
                }
                if (header.rows() != entry.totalRows()) {
                    problems.add(file + " (offset " + ColumnstoreLayout.HEADER_ROWS + "): " + header.rows()
                            + " rows, the rowgroup directory says " + entry.totalRows());
                }
            }
        }
        for (String problem : problems) {
            findings.report(FILE_INDENT, problem);
        }
        return problems.isEmpty();
    }

    private static String columnLabel(TableSchema schema, int column) {
        return column >= 0 && column < schema.size() ? column + " " + schema.column(column).name() : String.valueOf(column);
    }

    /** "OK", "BAD" (reported), or "-" for a dictionary of no column of the table. */
    private String checkDictionaryFile(Path file, int column, CatalogEntry.Table table) {
        if (column >= table.schema().size()) {
            return "-";
        }
        Dictionary dictionary = readDictionary(file, table.schema().column(column).type());
        return dictionary == null ? "BAD" : "OK";
    }

    private String dictionaryContent(Path file, int column, CatalogEntry.Table table) {
        if (column >= table.schema().size()) {
            return "no column " + column + " in the table: nothing refers to it";
        }
        StringBuilder content = new StringBuilder("primary dictionary of column ").append(columnLabel(table.schema(), column));
        try (ReadOnlyFile dictionary = ReadOnlyFile.open(file)) {
            DictionaryFileDump.Header header = DictionaryFileDump.Header.of(dictionary.bytes(0,
                    ColumnstoreLayout.DICTIONARY_HEADER_BYTES));
            if (header != null) {
                content.append(": ").append(header.entryCount()).append(" entries");
            }
        }
        return content.toString();
    }

    /** Reads and checks a primary dictionary file; reports and returns null when it does not read. */
    private Dictionary readDictionary(Path file, SqlType type) {
        try (ReadOnlyFile dictionary = ReadOnlyFile.open(file)) {
            if (dictionary.size() > Integer.MAX_VALUE - 8) {
                findings.report(FILE_INDENT, file + " is " + dictionary.size() + " bytes long, more than a dictionary can be");
                return null;
            }
            return Dictionary.read(MemorySegment.ofArray(dictionary.bytes(0, (int) dictionary.size())), type, file.toString());
        } catch (RuntimeException unreadable) {
            findings.report(FILE_INDENT, file + ": " + DataFileDump.reason(unreadable, file.toString()));
            return null;
        }
    }

    // ---- columns -------------------------------------------------------------------------------

    /** What the footers say about one column over the table's compressed rowgroups. */
    private static final class ColumnTotals {
        final Map<EncodingKind, Integer> encodings = new EnumMap<>(EncodingKind.class);
        int fallbacks;
        long rows;
        long nulls;
        int secondaryDictionaries;
        long largestSecondary;
        int undecodable;
    }

    /** The per-column summary of one table: encodings, NULLs and dictionary sizes against the cap. */
    void printColumns(int tableId) {
        RowgroupDirectory directory = directories.get(tableId);
        CatalogEntry.Table table = directory.table();
        TableSchema schema = table.schema();
        Path tableDirectory = ColumnstoreLayout.tableDirectory(database, tableId);
        ColumnTotals[] totals = new ColumnTotals[schema.size()];
        for (int column = 0; column < totals.length; column++) {
            totals[column] = new ColumnTotals();
        }
        int rowgroups = 0;
        int unread = 0;
        for (RowgroupEntry entry : directory.rowgroups()) {
            if (entry.state() != RowgroupState.COMPRESSED) {
                continue;
            }
            rowgroups++;
            Path file = tableDirectory.resolve(ColumnstoreLayout.rowgroupFileName(entry.rowgroupId()));
            if (!Files.exists(file)) {
                unread++;
                continue;
            }
            try (RowgroupFileReader reader = RowgroupFileReader.open(file)) {
                if (reader.footer() == null) {
                    unread++;
                }
                addFooters(reader, schema, totals);
            }
        }
        long cap = -1;
        String capText = "dictionary_cap unknown";
        try {
            ColumnstoreOptions options = ColumnstoreOptions.parse(table.options());
            cap = options.dictionaryCapBytes();
            capText = "dictionary_cap " + cap + " bytes, dictionary_overflow "
                    + options.overflow().name().toLowerCase(Locale.ROOT);
        } catch (ColumbaException invalid) {
            // The options were shown with their problem in the table's section; sizes go without a percentage.
        }
        out.println();
        out.println("columns of " + RowgroupDirectory.label(table) + ": " + rowgroups + " compressed rowgroups"
                + (unread == 0 ? "" : " (" + unread + " without a readable footer, not counted)") + "; " + capText);
        TextTable columns = new TextTable(INDENT, "column", "type", "rows", "nulls", "encodings", "fallbacks",
                "primary dictionary", "secondary dictionaries");
        for (int column = 0; column < schema.size(); column++) {
            ColumnTotals total = totals[column];
            StringJoiner encodings = new StringJoiner(", ");
            total.encodings.forEach((encoding, count) -> encodings.add(encoding + " x" + count));
            if (total.undecodable > 0) {
                encodings.add("UNDECODABLE x" + total.undecodable);
            }
            columns.row(columnLabel(schema, column), schema.column(column).type().sqlName(), total.rows, total.nulls,
                    encodings.length() == 0 ? "-" : encodings.toString(), total.fallbacks,
                    primaryText(tableDirectory.resolve(ColumnstoreLayout.dictionaryFileName(column)), cap),
                    total.secondaryDictionaries == 0 ? "-" : total.secondaryDictionaries + ", largest "
                            + sizeText(total.largestSecondary, cap));
        }
        columns.print(out);
        out.println(INDENT + "(fallbacks: segments encoded without a dictionary because it would have outgrown the cap)");
    }

    private void addFooters(RowgroupFileReader reader, TableSchema schema, ColumnTotals[] totals) {
        for (String problem : reader.problems()) {
            findings.report(INDENT, problem);
        }
        List<RowgroupFileReader.Blob> blobs = reader.blobs();
        int columns = schema.size();
        for (int column = 0; column < Math.min(columns, blobs.size()); column++) {
            RowgroupFileReader.Blob blob = blobs.get(column);
            String origin = reader.path() + " column " + column + " (segment at offset " + blob.offset() + ")";
            try {
                SegmentMetadata segment = FooterMetadata.decode(blob.metadata(), schema.column(column).type(), origin);
                ColumnTotals total = totals[column];
                total.encodings.merge(segment.encoding(), 1, Integer::sum);
                total.rows += segment.rowCount();
                total.nulls += segment.nullCount();
                if (segment.fallbackReason() != FallbackReason.NONE) {
                    total.fallbacks++;
                }
            } catch (RuntimeException undecodable) {
                totals[column].undecodable++;
                findings.report(INDENT, reader.path() + " (offset " + (blob.entryOffset() + ColumnstoreLayout.FOOTER_ENTRY_FIXED)
                        + "): footer metadata of column " + column + " does not decode: "
                        + DataFileDump.reason(undecodable, origin));
            }
            int dictionaryBlob = columns + column;
            if (dictionaryBlob < blobs.size() && blobs.get(dictionaryBlob).length() > 0) {
                totals[column].secondaryDictionaries++;
                totals[column].largestSecondary = Math.max(totals[column].largestSecondary, blobs.get(dictionaryBlob).length());
            }
        }
    }

    private static String primaryText(Path file, long cap) {
        if (!Files.exists(file)) {
            return "-";
        }
        try (ReadOnlyFile dictionary = ReadOnlyFile.open(file)) {
            DictionaryFileDump.Header header = DictionaryFileDump.Header.of(dictionary.bytes(0,
                    ColumnstoreLayout.DICTIONARY_HEADER_BYTES));
            return (header == null ? "?" : header.entryCount()) + " entries, " + sizeText(dictionary.size(), cap);
        }
    }

    /** {@code "1012 bytes (98% of the cap)"}. */
    private static String sizeText(long bytes, long cap) {
        return bytes + " bytes" + (cap > 0 ? " (" + DictionaryFileDump.percent(bytes, cap) + "% of the cap)" : "");
    }
}
