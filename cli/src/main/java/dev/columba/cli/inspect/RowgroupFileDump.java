package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.ValueKind;
import dev.columba.columnstore.encoding.SegmentHeader;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.encoding.SegmentReader;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.RowgroupFileFormat;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.table.RowgroupState;
import dev.columba.core.type.SqlType;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Dumps a rowgroup file (docs/format/rowgroup-file.md): its header, every blob with its checksum
 * checked, each column segment's footer metadata and segment header (segment.md), the secondary
 * dictionaries, and with {@code --column N} the first rows of one segment decoded. Column types come
 * from the catalog of the database the file lies in ({@link ColumnstoreFileContext}).
 *
 * <p>Damage is reported and the dump carries on: a lost footer still shows the header and the
 * segments found at 8 KB boundaries; a bad blob checksum is marked BAD and its segment still
 * decoded, since its values are what a person debugging it wants to see.
 */
final class RowgroupFileDump {
    private static final String HEADER_FORMAT = "%-16s%s";
    /** The most bytes of a segment header: 32 with dictionary references. */
    private static final int SEGMENT_HEADER_BYTES = 32;
    /** Blobs longer than a Java array cannot be decoded here (a segment is a rowgroup's column: far less). */
    private static final long MAX_DECODED_BYTES = Integer.MAX_VALUE - 8;

    private final Path path;
    private final PrintStream out;
    private final Findings findings;
    private final ColumnstoreFileContext context;

    RowgroupFileDump(Path path, PrintStream out, Findings findings) {
        this.path = path;
        this.out = out;
        this.findings = findings;
        this.context = ColumnstoreFileContext.of(path);
    }

    /**
     * Dumps the file, then decodes the first {@code rows} rows of column {@code column} unless it is -1.
     *
     * @throws UsageException when the file has no column {@code column}
     */
    void dump(int column, int rows) throws UsageException {
        out.println("rowgroup file " + path);
        try (RowgroupFileReader reader = RowgroupFileReader.open(path)) {
            int columns = columnCount(reader);
            if (column >= 0 && column >= columns && columns > 0) {
                throw new UsageException("--column " + column + ": " + path + " has " + columns + " columns (0 to "
                        + (columns - 1) + ")");
            }
            printHeader(reader);
            for (String problem : reader.problems()) {
                findings.report(INDENT, problem);
            }
            if (reader.footer() == null) {
                printFound(reader);
                if (column >= 0) {
                    out.println();
                    out.println("column " + column + " cannot be decoded: without the footer its segment's place and length"
                            + " are unknown");
                }
                return;
            }
            List<SegmentHeader> headers = new ArrayList<>();
            printBlobs(reader, columns);
            printSegments(reader, columns, headers);
            printDictionaries(reader, columns, headers);
            if (column >= 0) {
                if (column >= reader.blobs().size()) {
                    findings.report(INDENT, path + ": column " + column + " has no footer entry, so its segment cannot be found");
                    return;
                }
                printRows(reader, column, columns, rows, headers.get(column));
            }
        }
    }

    /** The columns the blobs serve: the header's if it is sound, else the catalog's, else the header's as found. */
    private int columnCount(RowgroupFileReader reader) {
        RowgroupFileReader.Header header = reader.header();
        if (header != null && header.checksumOk()) {
            return header.columns();
        }
        if (context.table() != null) {
            return context.table().schema().size();
        }
        return header == null ? 0 : header.columns();
    }

    private void field(String name, Object value) {
        out.println(INDENT + String.format(HEADER_FORMAT, name, value));
    }

    private void printHeader(RowgroupFileReader reader) {
        field("table", context.description());
        int nameId = ColumnstoreLayout.rowgroupIdOfName(path.getFileName().toString());
        if (context.directory() != null && nameId >= 0) {
            RowgroupEntry entry = context.directory().rowgroup(nameId).orElse(null);
            if (entry == null || entry.state() != RowgroupState.COMPRESSED) {
                field("directory", (entry == null ? "no rowgroup " + nameId : "rowgroup " + nameId + " is " + entry.state())
                        + " in the rowgroup directory: " + (context.directory().complete() ? "an orphan"
                        : "an orphan, unless its entry is in the part of the directory that cannot be read")
                        + ", left by a rolled-back or killed build (the table's next rowgroup build removes it)");
            } else {
                field("directory", "rowgroup " + nameId + ": " + entry.totalRows() + " rows (" + entry.deletedRows()
                        + " deleted), " + entry.sizeBytes() + " bytes, trim reason " + entry.trimReason() + ", created "
                        + ValueText.micros(entry.createdMicros()));
                if (entry.sizeBytes() != reader.size()) {
                    findings.report(INDENT, path + " is " + reader.size() + " bytes long, the rowgroup directory says "
                            + entry.sizeBytes());
                }
                RowgroupFileReader.Header header = reader.header();
                if (header != null && header.checksumOk() && header.rows() != entry.totalRows()) {
                    findings.report(INDENT, path + " (offset " + ColumnstoreLayout.HEADER_ROWS + "): " + header.rows()
                            + " rows, the rowgroup directory says " + entry.totalRows());
                }
            }
        }
        field("size", reader.size() + " bytes");
        RowgroupFileReader.Header header = reader.header();
        if (header == null) {
            return;
        }
        field("magic", magicText(header.magic()));
        field("format version", header.version());
        field("flags", String.format("0x%x", header.flags()) + ((header.flags() & RowgroupFileFormat.FLAG_ARCHIVE) != 0
                ? " (archive: segments are zstd-compressed)" : ""));
        field("rowgroup id", header.rowgroupId());
        field("rows", header.rows());
        field("columns", header.columns());
        field("blobs", header.blobs());
        field("header checksum", ValueText.hex32(header.storedCrc()) + (header.checksumOk() ? " OK"
                : " BAD, computed " + ValueText.hex32(header.computedCrc())));
        if (header.checksumOk() && nameId >= 0 && header.rowgroupId() != nameId) {
            findings.report(INDENT, path + " (offset " + ColumnstoreLayout.HEADER_ROWGROUP_ID + "): rowgroup id "
                    + header.rowgroupId() + ", but the file's name says " + nameId);
        }
        if (header.checksumOk() && context.table() != null && header.columns() != context.table().schema().size()) {
            findings.report(INDENT, path + " (offset " + ColumnstoreLayout.HEADER_COLUMNS + "): " + header.columns()
                    + " columns, table " + context.table().name() + " has " + context.table().schema().size());
        }
        RowgroupFileReader.Footer footer = reader.footer();
        field("footer", footer == null ? "cannot be found (see below)" : "offset " + footer.offset() + ", " + footer.length()
                + " bytes, " + reader.blobs().size() + " entries, checksum " + ValueText.hex32(footer.storedCrc())
                + (footer.checksumOk() ? " OK" : " BAD, computed " + ValueText.hex32(footer.computedCrc())));
    }

    static String magicText(long magic) {
        if (magic == RowgroupFileFormat.MAGIC) {
            byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(magic).array();
            return new String(bytes, StandardCharsets.US_ASCII);
        }
        return String.format("0x%016x (expected CLMBRGRP)", magic);
    }

    /** What blob {@code index} holds, e.g. {@code "segment of column 1 region"}. */
    static String blobContent(RowgroupFileReader.Blob blob, int columns, IntFunction<String> columnLabel) {
        if (blob.index() < columns) {
            return "segment of column " + columnLabel.apply(blob.index());
        }
        int column = blob.index() - columns;
        return blob.length() == 0 ? "no secondary dictionary (column " + columnLabel.apply(column) + ")"
                : "secondary dictionary of column " + columnLabel.apply(column);
    }

    /** The finding of a blob whose checksum does not match, or null when it does. */
    static String checksumProblem(RowgroupFileReader reader, RowgroupFileReader.Blob blob, int computed, String content) {
        if (computed == blob.storedCrc()) {
            return null;
        }
        return reader.path() + " (offset " + blob.offset() + "): blob " + blob.index() + " (" + content
                + ") checksum BAD: stored " + ValueText.hex32(blob.storedCrc()) + ", computed " + ValueText.hex32(computed);
    }

    private void printBlobs(RowgroupFileReader reader, int columns) {
        out.println();
        out.println("blobs");
        TextTable table = new TextTable(INDENT, "blob", "offset", "length", "checksum", "check", "content");
        long bad = 0;
        for (RowgroupFileReader.Blob blob : reader.blobs()) {
            String content = blobContent(blob, columns, context::columnLabel);
            String problem = checksumProblem(reader, blob, reader.checksum(blob), content);
            if (problem != null) {
                // The line says BAD; the closing list says the rest.
                findings.record(problem);
                bad++;
            }
            table.row(blob.index(), blob.offset(), blob.length(), ValueText.hex32(blob.storedCrc()), problem == null ? "OK" : "BAD",
                    content);
        }
        table.print(out);
        out.println(INDENT + reader.blobs().size() + " blobs, " + bad + " BAD");
    }

    /** The column's type: the catalog's, else what the segment header's value kind reads as; null if neither. */
    private SqlType typeOf(int column, SegmentHeader header) {
        SqlType type = context.type(column);
        if (type != null) {
            return type;
        }
        return header == null ? null : ColumnstoreFileContext.typeOf(header.kind());
    }

    private String origin(int column, RowgroupFileReader.Blob blob) {
        return path + " column " + column + " (segment at offset " + blob.offset() + ")";
    }

    /** Prints each column's footer metadata and segment header, filling {@code headers} (null where unreadable). */
    private void printSegments(RowgroupFileReader reader, int columns, List<SegmentHeader> headers) {
        int segments = Math.min(columns, reader.blobs().size());
        List<String> headerProblems = new ArrayList<>();
        for (int column = 0; column < segments; column++) {
            headers.add(segmentHeader(reader, reader.blobs().get(column), column, headerProblems));
        }
        out.println();
        out.println("segments (footer metadata)" + (context.table() == null
                ? ": types from the segments' value kinds, the catalog being unknown (DECIMAL values unscaled)" : ""));
        TextTable table = new TextTable(INDENT, "column", "type", "encoding", "archived", "rows", "nulls", "min", "max",
                "bytes", "primary", "secondary", "fallback");
        for (int column = 0; column < segments; column++) {
            RowgroupFileReader.Blob blob = reader.blobs().get(column);
            SqlType type = typeOf(column, headers.get(column));
            if (type == null) {
                table.row(context.columnLabel(column), "?", "(the column's type is unknown: the metadata cannot be decoded)",
                        null, null, null, null, null, null, null, null, null);
            } else {
                try {
                    SegmentMetadata segment = FooterMetadata.decode(blob.metadata(), type, origin(column, blob));
                    table.row(context.columnLabel(column), type.sqlName(), segment.encoding().name(),
                            segment.archived() ? "yes" : "no", segment.rowCount(), segment.nullCount(),
                            ValueText.value(segment.min()), ValueText.value(segment.max()), segment.encodedBytes(),
                            dictionaryId(segment.primaryDictionaryId()), dictionaryId(segment.secondaryDictionaryId()),
                            segment.fallbackReason().name());
                    checkMetadata(reader, column, blob, segment, headers.get(column));
                } catch (RuntimeException undecodable) {
                    findings.report(INDENT, path + " (offset " + (blob.entryOffset() + ColumnstoreLayout.FOOTER_ENTRY_FIXED)
                            + "): footer metadata of column " + column + " does not decode: "
                            + DataFileDump.reason(undecodable, origin(column, blob)));
                    table.row(context.columnLabel(column), type.sqlName(), "UNDECODABLE", null, null, null, null, null, null,
                            null, null, null);
                }
            }
        }
        table.print(out);

        out.println();
        out.println("segment headers");
        for (String problem : headerProblems) {
            findings.report(INDENT, problem);
        }
        TextTable headerTable = new TextTable(INDENT, "column", "offset", "kind", "encoding", "flags", "rows", "nulls",
                "primary (entries)", "secondary (entries)");
        List<String> unreadable = new ArrayList<>();
        for (int column = 0; column < segments; column++) {
            SegmentHeader header = headers.get(column);
            RowgroupFileReader.Blob blob = reader.blobs().get(column);
            if (header == null) {
                headerTable.row(context.columnLabel(column), blob.offset(), "UNREADABLE", null, null, null, null, null, null);
                unreadable.add("column " + context.columnLabel(column) + " starts with " + ValueText.hex(reader.bytes(
                        blob.offset(), (int) Math.min(SEGMENT_HEADER_BYTES, blob.length()))));
                continue;
            }
            List<String> flags = new ArrayList<>();
            if (header.hasNulls()) {
                flags.add("NULLS");
            }
            if (header.archived()) {
                flags.add("ARCHIVED");
            }
            headerTable.row(context.columnLabel(column), blob.offset(), header.kind().name(), header.encoding().name(),
                    flags.isEmpty() ? "-" : String.join(",", flags), header.rowCount(), header.nullCount(),
                    reference(header.primaryDictionaryId(), header.primaryEntryCount()),
                    reference(header.secondaryDictionaryId(), header.secondaryEntryCount()));
        }
        headerTable.print(out);
        for (String bytes : unreadable) {
            out.println(INDENT + "(" + bytes + ")");
        }
    }

    /** Reads and checks the segment's header; adds its problem to {@code problems} and returns null when it does not read. */
    private SegmentHeader segmentHeader(RowgroupFileReader reader, RowgroupFileReader.Blob blob, int column,
                                        List<String> problems) {
        byte[] bytes = reader.bytes(blob.offset(), (int) Math.min(SEGMENT_HEADER_BYTES, blob.length()));
        String origin = origin(column, blob);
        try {
            SegmentHeader header = SegmentHeader.read(MemorySegment.ofArray(bytes), origin);
            SqlType type = context.type(column);
            if (type != null && ValueKind.of(type) != header.kind()) {
                problems.add(origin + ": the segment holds " + header.kind() + " values, the column is " + type.sqlName());
            }
            return header;
        } catch (RuntimeException unreadable) {
            problems.add(origin + ": the segment header does not read: " + DataFileDump.reason(unreadable, origin));
            return null;
        }
    }

    /** The footer's metadata must agree with the file header and the segment header. */
    private void checkMetadata(RowgroupFileReader reader, int column, RowgroupFileReader.Blob blob, SegmentMetadata segment,
                               SegmentHeader header) {
        String where = origin(column, blob);
        RowgroupFileReader.Header fileHeader = reader.header();
        if (fileHeader != null && fileHeader.checksumOk() && segment.rowCount() != fileHeader.rows()) {
            findings.report(INDENT, where + ": the footer says " + segment.rowCount() + " rows, the file header "
                    + fileHeader.rows());
        }
        if (segment.encodedBytes() != blob.length()) {
            findings.report(INDENT, where + ": the footer metadata says " + segment.encodedBytes() + " bytes, the blob is "
                    + blob.length());
        }
        if (header == null) {
            return;
        }
        List<String> differences = new ArrayList<>();
        compare(differences, "encoding", segment.encoding(), header.encoding());
        compare(differences, "archived", segment.archived(), header.archived());
        compare(differences, "rows", segment.rowCount(), header.rowCount());
        compare(differences, "nulls", segment.nullCount(), header.nullCount());
        compare(differences, "primary dictionary", segment.primaryDictionaryId(), header.primaryDictionaryId());
        compare(differences, "secondary dictionary", segment.secondaryDictionaryId(), header.secondaryDictionaryId());
        if (!differences.isEmpty()) {
            findings.report(INDENT, where + ": footer metadata and segment header disagree: " + String.join(", ", differences));
        }
    }

    private static void compare(List<String> differences, String what, Object footer, Object header) {
        if (!footer.equals(header)) {
            differences.add(what + " " + footer + " in the footer, " + header + " in the header");
        }
    }

    private static String dictionaryId(int id) {
        return id == SegmentMetadata.NO_DICTIONARY ? "-" : String.valueOf(id);
    }

    private static String reference(int id, int entries) {
        return id == SegmentMetadata.NO_DICTIONARY ? "-" : id + " (" + entries + ")";
    }

    /** The secondary dictionaries stored after the segments, checked against the segments that refer to them. */
    private void printDictionaries(RowgroupFileReader reader, int columns, List<SegmentHeader> headers) {
        boolean any = reader.blobs().stream().anyMatch(blob -> blob.index() >= columns && blob.length() > 0);
        out.println();
        out.println(any ? "secondary dictionaries" : "secondary dictionaries: none");
        TextTable table = new TextTable(INDENT, "column", "offset", "id", "entries", "bytes", "check");
        for (RowgroupFileReader.Blob blob : reader.blobs()) {
            int column = blob.index() - columns;
            if (column < 0 || blob.length() == 0) {
                continue;
            }
            SegmentHeader segment = column < headers.size() ? headers.get(column) : null;
            String origin = path + " secondary dictionary of column " + column + " (offset " + blob.offset() + ")";
            DictionaryFileDump.Header header = DictionaryFileDump.Header.of(reader.bytes(blob.offset(),
                    (int) Math.min(ColumnstoreLayout.DICTIONARY_HEADER_BYTES, blob.length())));
            String check = "OK";
            SqlType type = typeOf(column, segment);
            if (type == null && header != null && ValueKind.ofCode(header.kindCode()) != null) {
                type = ColumnstoreFileContext.typeOf(ValueKind.ofCode(header.kindCode()));
            }
            if (blob.length() > MAX_DECODED_BYTES || type == null) {
                check = "-";
            } else {
                try {
                    Dictionary.read(MemorySegment.ofArray(reader.bytes(blob)), type, origin);
                } catch (RuntimeException unreadable) {
                    findings.report(INDENT, origin + ": " + DataFileDump.reason(unreadable, origin));
                    check = "BAD";
                }
            }
            if (header != null && segment != null && segment.secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY
                    && (segment.secondaryDictionaryId() != header.id() || segment.secondaryEntryCount() != header.entryCount())) {
                findings.report(INDENT, origin + " is dictionary " + header.id() + " of " + header.entryCount()
                        + " entries, the segment refers to dictionary " + segment.secondaryDictionaryId() + " of "
                        + segment.secondaryEntryCount());
            }
            if (segment != null && segment.secondaryDictionaryId() == SegmentMetadata.NO_DICTIONARY) {
                findings.report(INDENT, origin + " is stored, but the column's segment refers to no secondary dictionary");
            }
            table.row(context.columnLabel(column), blob.offset(), header == null ? "?" : header.id(),
                    header == null ? "?" : header.entryCount(), blob.length(), check);
        }
        for (int column = 0; column < headers.size(); column++) {
            SegmentHeader segment = headers.get(column);
            int blob = columns + column;
            if (segment != null && segment.secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY
                    && (blob >= reader.blobs().size() || reader.blobs().get(blob).length() == 0)) {
                findings.report(INDENT, path + ": column " + column + "'s segment refers to secondary dictionary "
                        + segment.secondaryDictionaryId() + ", which the file does not store");
            }
        }
        if (any) {
            table.print(out);
        }
    }

    /** The footer is lost: where segments and dictionaries start can still be found from their magics. */
    private void printFound(RowgroupFileReader reader) {
        out.println();
        List<RowgroupFileReader.Found> found = reader.findBlobs();
        out.println("the footer cannot be found: " + found.size() + " segments and dictionaries found at "
                + RowgroupFileFormat.SEGMENT_ALIGNMENT + "-byte boundaries");
        TextTable table = new TextTable(INDENT, "offset", "what", "header");
        int segments = 0;
        for (RowgroupFileReader.Found blob : found) {
            byte[] bytes = reader.bytes(blob.offset(), SEGMENT_HEADER_BYTES);
            if (blob.segment()) {
                String text;
                try {
                    SegmentHeader header = SegmentHeader.read(MemorySegment.ofArray(bytes), "segment");
                    text = header.encoding() + " " + header.kind() + ", " + header.rowCount() + " rows, " + header.nullCount()
                            + " nulls";
                } catch (RuntimeException unreadable) {
                    text = "does not read: " + DataFileDump.reason(unreadable, "segment");
                }
                table.row(blob.offset(), "segment " + segments++ + "?", text);
            } else {
                DictionaryFileDump.Header header = DictionaryFileDump.Header.of(bytes);
                table.row(blob.offset(), "dictionary", header == null ? "cut short"
                        : "id " + header.id() + ", " + header.entryCount() + " entries");
            }
        }
        table.print(out);
    }

    /** Decodes the first {@code rows} rows of {@code column} with its dictionaries. */
    private void printRows(RowgroupFileReader reader, int column, int columns, int rows, SegmentHeader header) {
        RowgroupFileReader.Blob blob = reader.blobs().get(column);
        out.println();
        SqlType type = typeOf(column, header);
        if (header == null || type == null) {
            findings.report(INDENT, path + ": column " + column + "'s segment cannot be decoded: its header does not read");
            return;
        }
        if (blob.length() > MAX_DECODED_BYTES) {
            findings.report(INDENT, path + ": column " + column + "'s segment of " + blob.length() + " bytes is too long to decode");
            return;
        }
        String origin = origin(column, blob);
        List<String> sources = new ArrayList<>();
        try {
            Dictionary primary = null;
            if (header.primaryDictionaryId() != SegmentMetadata.NO_DICTIONARY) {
                Path file = path.resolveSibling(ColumnstoreLayout.dictionaryFileName(column));
                if (!Files.exists(file)) {
                    findings.report(INDENT, origin + " refers to primary dictionary " + header.primaryDictionaryId() + ", but "
                            + file + " is missing");
                    return;
                }
                try (ReadOnlyFile dictionary = ReadOnlyFile.open(file)) {
                    if (dictionary.size() > MAX_DECODED_BYTES) {
                        findings.report(INDENT, file + " is " + dictionary.size() + " bytes long, too long to read");
                        return;
                    }
                    primary = Dictionary.read(MemorySegment.ofArray(dictionary.bytes(0, (int) dictionary.size())), type,
                            file.toString());
                }
                sources.add("primary dictionary " + primary.id() + " from " + file.getFileName() + ", " + primary.entryCount()
                        + " entries");
            }
            Dictionary secondary = null;
            int dictionaryBlob = columns + column;
            if (header.secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY && dictionaryBlob < reader.blobs().size()
                    && reader.blobs().get(dictionaryBlob).length() > 0) {
                RowgroupFileReader.Blob stored = reader.blobs().get(dictionaryBlob);
                secondary = Dictionary.read(MemorySegment.ofArray(reader.bytes(stored)), type,
                        path + " secondary dictionary of column " + column + " (offset " + stored.offset() + ")");
                sources.add("secondary dictionary " + secondary.id() + " from blob " + dictionaryBlob + ", "
                        + secondary.entryCount() + " entries");
            }
            SegmentReader segment = SegmentReader.open(MemorySegment.ofArray(reader.bytes(blob)), type, primary, secondary,
                    origin);
            int shown = Math.min(rows, segment.rowCount());
            out.println("column " + context.columnLabel(column) + " " + type.sqlName() + ": " + (shown == 0 ? "no rows shown"
                    : "rows 0 to " + (shown - 1)) + " of " + segment.rowCount() + " (" + header.encoding()
                    + (sources.isEmpty() ? "" : "; " + String.join("; ", sources)) + ")");
            if (reader.checksum(blob) != blob.storedCrc()) {
                out.println(INDENT + "(the segment's checksum is BAD: these values may not be the ones written)");
            }
            TextTable table = new TextTable(INDENT, "row", "value");
            for (int row = 0; row < shown; row++) {
                table.row(row, ValueText.value(segment.fetch(row)));
            }
            table.print(out);
        } catch (RuntimeException undecodable) {
            findings.report(INDENT, origin + " does not decode: " + DataFileDump.reason(undecodable, origin));
        }
    }
}
