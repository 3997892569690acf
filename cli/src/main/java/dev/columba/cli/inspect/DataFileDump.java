package dev.columba.cli.inspect;

import static dev.columba.storage.page.PageFormat.PAGE_SIZE;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.lob.OverflowStore;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import dev.columba.storage.page.SlottedPage;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Dumps a data file (docs/format/data-file.md): the summary (file header, boot page, extents,
 * pages by type and by object), the page listing, one page in detail, and the catalog. Opening
 * reads the file header, the boot page, the catalog and the allocation maps, reporting what is
 * damaged and carrying on with what is not. Owns the file until {@link #close()}.
 */
final class DataFileDump implements AutoCloseable {
    static final String INDENT = "  ";

    private final DataFileReader reader;
    private final PrintStream out;
    private final Findings findings;
    private final DataFileReader.Boot boot;
    private final CatalogView catalog;
    private final AllocationView allocation;
    private final DataFileReader.FileHeader header;
    private final PageInfo headerPage;
    private final Map<Integer, RowgroupDirectory> rowgroupDirectories;

    private DataFileDump(DataFileReader reader, PrintStream out, Findings findings, DataFileReader.FileHeader header,
                         PageInfo headerPage, DataFileReader.Boot boot, CatalogView catalog, AllocationView allocation,
                         Map<Integer, RowgroupDirectory> rowgroupDirectories) {
        this.reader = reader;
        this.out = out;
        this.findings = findings;
        this.header = header;
        this.headerPage = headerPage;
        this.boot = boot;
        this.catalog = catalog;
        this.allocation = allocation;
        this.rowgroupDirectories = rowgroupDirectories;
    }

    /** Prints the file's name, then reads what every view needs, reporting damage under it. */
    static DataFileDump open(Path path, PrintStream out, Findings findings) {
        out.println("data file " + path);
        DataFileReader reader = new DataFileReader(path);
        try {
            String name = reader.name();
            if (reader.trailingBytes() != 0) {
                findings.report(INDENT, name + " is " + reader.size() + " bytes long: " + reader.trailingBytes()
                        + " bytes after its last whole page (the file grows in whole " + PageFormat.EXTENT_SIZE
                        + "-byte extents)");
            }
            DataFileReader.FileHeader header = null;
            PageInfo headerPage = null;
            if (reader.pageCount() == 0) {
                findings.report(INDENT, name + " is " + reader.size() + " bytes long, shorter than its header page ("
                        + PAGE_SIZE + " bytes)");
            } else {
                MemorySegment page = reader.read(DataFileFormat.FILE_HEADER_PAGE);
                headerPage = PageInfo.of(DataFileFormat.FILE_HEADER_PAGE, page);
                reportHeader(headerPage, name, findings);
                header = DataFileReader.fileHeader(page);
                checkFileHeader(header, name, findings);
            }
            DataFileReader.Boot boot = readBoot(reader, findings);
            CatalogView catalog = boot == null ? CatalogView.unreadable()
                    : CatalogView.read(reader, boot, findings, INDENT);
            Map<Integer, RowgroupDirectory> rowgroupDirectories = new TreeMap<>();
            List<AllocationView.Chain> chains = new ArrayList<>();
            for (CatalogEntry entry : catalog.entries()) {
                if (entry instanceof CatalogEntry.Table table && table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                    RowgroupDirectory directory = RowgroupDirectory.read(reader, table, findings, INDENT);
                    rowgroupDirectories.put(table.objectId(), directory);
                    chains.addAll(directory.chains());
                }
            }
            AllocationView allocation = AllocationView.read(reader, boot, catalog, chains, findings, INDENT);
            return new DataFileDump(reader, out, findings, header, headerPage, boot, catalog, allocation,
                    rowgroupDirectories);
        } catch (RuntimeException failure) {
            reader.close();
            throw failure;
        }
    }

    private static void reportHeader(PageInfo info, String name, Findings findings) {
        String finding = info.finding(name);
        if (finding != null) {
            findings.report(INDENT, finding);
        }
    }

    private static void checkFileHeader(DataFileReader.FileHeader header, String name, Findings findings) {
        if (header.magic() != DataFileFormat.MAGIC) {
            findings.report(INDENT, String.format("%s: magic at offset %d is 0x%016x, expected 0x%016x (\"CLMBDATA\")", name,
                    DataFileFormat.HEADER_MAGIC_OFFSET, header.magic(), DataFileFormat.MAGIC));
        }
        if (header.version() < DataFileFormat.MIN_READABLE_VERSION || header.version() > DataFileFormat.FORMAT_VERSION) {
            findings.report(INDENT, name + ": file format version " + header.version() + " at offset "
                    + DataFileFormat.HEADER_VERSION_OFFSET + ", this build reads " + DataFileFormat.MIN_READABLE_VERSION
                    + " to " + DataFileFormat.FORMAT_VERSION);
        }
        if (header.pageSize() != PAGE_SIZE) {
            findings.report(INDENT, name + ": page size " + header.pageSize() + " at offset "
                    + DataFileFormat.HEADER_PAGE_SIZE_OFFSET + ", this build uses " + PAGE_SIZE);
        }
    }

    private static DataFileReader.Boot readBoot(DataFileReader reader, Findings findings) {
        long bootPage = DataFileFormat.BOOT_PAGE;
        if (!reader.contains(bootPage)) {
            findings.report(INDENT, reader.name() + " has no boot page (page " + bootPage + "): the file has "
                    + reader.pageCount() + " pages; the catalog cannot be found");
            return null;
        }
        MemorySegment page = reader.read(bootPage);
        PageInfo info = PageInfo.of(bootPage, page);
        if (!info.sound()) {
            findings.report(INDENT, info.finding(reader.name()));
            findings.report(INDENT, reader.name() + ": the boot page is damaged, so the catalog cannot be found");
            return null;
        }
        if (info.type() != PageType.BOOT) {
            findings.report(INDENT, reader.name() + " page " + bootPage + " should be the boot page but is a "
                    + info.typeName() + " page; the catalog cannot be found");
            return null;
        }
        return DataFileReader.boot(page);
    }

    DataFileReader.FileHeader header() {
        return header;
    }

    CatalogView catalog() {
        return catalog;
    }

    /** Whether the catalog could be found at all (the boot page is sound). */
    boolean catalogFound() {
        return boot != null;
    }

    /** The rowgroup directory of each columnstore table in the catalog, by object id. */
    Map<Integer, RowgroupDirectory> rowgroupDirectories() {
        return rowgroupDirectories;
    }

    // ---- summary -------------------------------------------------------------------------------

    void printSummary() {
        long pages = reader.pageCount();
        out.println(INDENT + "size            " + reader.size() + " bytes: " + pages + " pages in "
                + allocation.extentCount() + " extents");
        if (header != null) {
            out.println(INDENT + "magic           " + magicText(header.magic()));
            out.println(INDENT + "format version  " + header.version());
            out.println(INDENT + "page size       " + header.pageSize());
            out.println(INDENT + "database id     " + header.databaseId());
            out.println(INDENT + "created         " + ValueText.micros(header.createdMicros()));
            out.println(INDENT + "header checksum " + (headerPage.checksumOk() ? "OK" : "BAD"));
        }
        if (boot != null) {
            out.println(INDENT + "catalog         root page " + boot.catalogRoot() + ", allocation map page "
                    + boot.catalogFirstOamPage() + ", next object id " + boot.nextObjectId());
        }
        out.println(INDENT + "extents in use  " + allocation.extentsInUse() + " of " + allocation.extentCount() + ": "
                + allocation.extentRanges() + (allocation.extentsAssumed()
                ? " (a global allocation map is damaged: its extents are taken as in use)" : ""));

        Map<PageType, long[]> byType = new EnumMap<>(PageType.class);
        Map<Integer, long[]> byObject = new TreeMap<>();
        long neverWritten = 0;
        long badChecksums = 0;
        long badHeaders = 0;
        long damagedBodies = 0;
        for (long pageId = 0; pageId < pages; pageId++) {
            MemorySegment page = reader.read(pageId);
            PageInfo info = PageInfo.of(pageId, page);
            String finding = info.finding(reader.name());
            if (finding != null) {
                findings.report(INDENT, finding);
                if (info.checksumOk()) {
                    badHeaders++;
                } else {
                    badChecksums++;
                }
            }
            if (info.allZero()) {
                neverWritten++;
                continue;
            }
            AllocationView.State state = allocation.state(pageId);
            if (info.sound() && state != AllocationView.State.FREE) {
                String structure = PageStructure.problem(page, info);
                if (structure != null) {
                    findings.report(INDENT, reader.name() + " page " + pageId + " (" + info.typeName() + "): " + structure);
                    damagedBodies++;
                }
            }
            boolean live = state == AllocationView.State.SYSTEM || state == AllocationView.State.IN_USE;
            PageType type = info.type();
            if (type != null) {
                byType.computeIfAbsent(type, ignored -> new long[2])[live ? 0 : 1]++;
            }
            if (!live) {
                continue;
            }
            int owner = state == AllocationView.State.SYSTEM ? 0 : allocation.owner(pageId);
            if (info.sound() && info.objectId() != owner) {
                findings.report(INDENT, reader.name() + " page " + pageId + " is claimed by object "
                        + catalog.label(owner) + " but its header says object " + info.objectId());
            }
            long[] counts = byObject.computeIfAbsent(owner, ignored -> new long[ObjectColumn.values().length]);
            counts[ObjectColumn.PAGES.ordinal()]++;
            if (type != null) {
                ObjectColumn column = ObjectColumn.of(type);
                if (column != null) {
                    counts[column.ordinal()]++;
                }
            }
        }

        out.println();
        out.println("pages by type");
        TextTable types = new TextTable(INDENT, "type", "in use", "free");
        for (Map.Entry<PageType, long[]> entry : byType.entrySet()) {
            types.row(entry.getKey().name(), entry.getValue()[0], entry.getValue()[1]);
        }
        types.row("never written", 0L, neverWritten);
        types.print(out);
        if (!allocation.ownersKnown()) {
            out.println(INDENT + "(some allocation maps could not be read: \"free\" counts the pages no readable map claims)");
        }

        out.println();
        out.println("pages by object");
        TextTable objects = new TextTable(INDENT, "object", "name", "kind", "pages", "leaf", "internal", "heap",
                "overflow", "maps");
        for (Map.Entry<Integer, long[]> entry : byObject.entrySet()) {
            long[] counts = entry.getValue();
            objects.row(entry.getKey(), catalog.name(entry.getKey()), kind(entry.getKey()),
                    counts[ObjectColumn.PAGES.ordinal()], counts[ObjectColumn.LEAF.ordinal()],
                    counts[ObjectColumn.INTERNAL.ordinal()], counts[ObjectColumn.HEAP.ordinal()],
                    counts[ObjectColumn.OVERFLOW.ordinal()], counts[ObjectColumn.MAPS.ordinal()]);
        }
        objects.print(out);
        out.println();
        out.println("checksums: " + pages + " pages read, " + badChecksums + " BAD"
                + (badHeaders > 0 ? "; " + badHeaders + " more with a bad header" : "")
                + (damagedBodies > 0 ? "; " + damagedBodies + " with a sound header but a damaged body" : ""));
    }

    /** The per-object columns of the summary. */
    private enum ObjectColumn {
        PAGES, LEAF, INTERNAL, HEAP, OVERFLOW, MAPS;

        static ObjectColumn of(PageType type) {
            return switch (type) {
                case BTREE_LEAF -> LEAF;
                case BTREE_INTERNAL -> INTERNAL;
                case HEAP -> HEAP;
                case OVERFLOW -> OVERFLOW;
                case OBJECT_ALLOCATION_MAP, GLOBAL_ALLOCATION_MAP -> MAPS;
                case FREE, FILE_HEADER, BOOT -> null;
            };
        }
    }

    private String kind(int objectId) {
        if (objectId == 0) {
            return "system";
        }
        if (objectId == Catalog.CATALOG_OBJECT_ID) {
            return "catalog";
        }
        return switch (catalog.entry(objectId).orElse(null)) {
            case null -> "?";
            case CatalogEntry.Table table -> switch (table.organization()) {
                case CLUSTERED -> "clustered table";
                case HEAP -> "heap table";
                case COLUMNSTORE -> "columnstore table";
            };
            case CatalogEntry.Index ignored -> "index";
            case CatalogEntry.View ignored -> "view";
            case CatalogEntry.PartitionObject object -> "partition " + object.kind().name().toLowerCase(java.util.Locale.ROOT);
            case CatalogEntry.Login ignored -> "login";
        };
    }

    private static String magicText(long magic) {
        byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(magic).array();
        String ascii = new String(bytes, StandardCharsets.US_ASCII);
        return magic == DataFileFormat.MAGIC ? ascii : String.format("0x%016x (expected CLMBDATA)", magic);
    }

    // ---- page listing --------------------------------------------------------------------------

    /** Lists every page, or those of {@code objectId} (header or allocation map) when it is not null. */
    void printPages(Integer objectId) {
        out.println();
        out.println(objectId == null ? "pages" : "pages of object " + catalog.label(objectId));
        int pageWidth = Math.max(4, String.valueOf(Math.max(0, reader.pageCount() - 1)).length());
        int objectWidth = "object".length();
        for (CatalogEntry entry : catalog.entries()) {
            objectWidth = Math.max(objectWidth, catalog.label(entry.objectId()).length());
        }
        objectWidth = Math.max(objectWidth, catalog.label(Catalog.CATALOG_OBJECT_ID).length());
        String format = INDENT + "%" + pageWidth + "s  %-21s  %-" + objectWidth + "s  %5s  %12s  %5s  %5s  %-8s  %-10s  %s";
        out.println(String.format(format, "page", "type", "object", "level", "lsn", "slots", "free", "checksum",
                "allocation", "notes").stripTrailing());
        long listed = 0;
        for (long pageId = 0; pageId < reader.pageCount(); pageId++) {
            MemorySegment page = reader.read(pageId);
            PageInfo info = PageInfo.of(pageId, page);
            int owner = allocation.owner(pageId);
            if (objectId != null && info.objectId() != objectId && owner != objectId) {
                continue;
            }
            listed++;
            String finding = info.finding(reader.name());
            if (finding != null) {
                findings.record(finding);
            }
            String state = stateText(pageId);
            if (info.allZero()) {
                out.println(String.format(format, pageId, "FREE", "-", "-", "-", "-", "-", "-", state, "never written")
                        .stripTrailing());
                continue;
            }
            List<String> notes = new ArrayList<>(info.problems().stream()
                    .filter(problem -> !problem.startsWith("checksum")).toList());
            if (info.sound()) {
                String structure = PageStructure.problem(page, info);
                if (structure != null) {
                    notes.add(structure);
                    findings.record(reader.name() + " page " + pageId + " (" + info.typeName() + "): " + structure);
                }
            }
            out.println(String.format(format, pageId, info.typeName(), catalog.label(info.objectId()), info.level(),
                    info.lsn(), info.slotCount(), freeBytes(info, page), info.checksumOk() ? "OK" : "BAD", state,
                    String.join("; ", notes))
                    .stripTrailing());
        }
        out.println(INDENT + listed + (listed == 1 ? " page" : " pages"));
    }

    private String stateText(long pageId) {
        return switch (allocation.state(pageId)) {
            case SYSTEM -> "system";
            case IN_USE -> "in use";
            case FREE -> "free";
            case UNKNOWN -> "?";
        };
    }

    /** Free bytes of pages that have a notion of it; "-" for the others. */
    private static String freeBytes(PageInfo info, MemorySegment page) {
        PageType type = info.type();
        if (type == null) {
            return "-";
        }
        return switch (type) {
            case BTREE_LEAF, BTREE_INTERNAL, HEAP -> String.valueOf(SlottedPage.totalFree(page));
            case OBJECT_ALLOCATION_MAP -> String.valueOf(PageFormat.USABLE_SIZE
                    - Math.min(info.slotCount(), DataFileFormat.OAM_ENTRIES_PER_PAGE) * DataFileFormat.OAM_ENTRY_SIZE);
            case OVERFLOW -> {
                int piece = page.get(DataFileReader.INT, PageFormat.HEADER_SIZE);
                yield piece >= 0 && piece <= OverflowStore.BYTES_PER_PAGE ? String.valueOf(OverflowStore.BYTES_PER_PAGE - piece)
                        : "-";
            }
            case FREE, FILE_HEADER, GLOBAL_ALLOCATION_MAP, BOOT -> "-";
        };
    }

    // ---- one page ------------------------------------------------------------------------------

    /**
     * Dumps page {@code pageId} in detail.
     *
     * @throws UsageException when the file has no such page
     */
    void printPage(long pageId, boolean hex) throws UsageException {
        if (!reader.contains(pageId)) {
            throw new UsageException("page " + pageId + " is past the end of " + reader.name() + ", which has "
                    + reader.pageCount() + " pages (0 to " + (reader.pageCount() - 1) + ")");
        }
        MemorySegment page = reader.read(pageId);
        new PageDetail(reader.name(), pageId, page, catalog, allocation, rowgroupDirectories, out, findings).print();
        if (hex) {
            out.println();
            out.println("hex dump of page " + pageId);
            HexDump.print(page, out, INDENT);
        }
    }

    // ---- catalog -------------------------------------------------------------------------------

    /** Prints the catalog's entries, or those of {@code objectId} (a table with its indexes) when not null. */
    void printCatalog(Integer objectId) {
        out.println();
        if (boot == null) {
            out.println("catalog: cannot be found (the boot page is damaged)");
            return;
        }
        out.println("catalog: root page " + boot.catalogRoot() + ", allocation map page " + boot.catalogFirstOamPage()
                + ", next object id " + boot.nextObjectId() + (catalog.complete() ? "" : " (read in part)"));
        int shown = 0;
        for (CatalogEntry entry : catalog.entries()) {
            boolean wanted = objectId == null || entry.objectId() == objectId
                    || entry instanceof CatalogEntry.Index index && index.tableId() == objectId;
            if (!wanted) {
                continue;
            }
            shown++;
            switch (entry) {
                case CatalogEntry.Table table -> {
                    out.println(INDENT + "table " + table.objectId() + " " + table.name());
                    out.println(INDENT + INDENT + "organization    " + switch (table.organization()) {
                        case HEAP -> "heap";
                        case CLUSTERED -> "clustered on " + CatalogText.columns(table.schema(), table.keyColumns())
                                + (table.uniqueKey() ? ", unique" : ", not unique (4-byte uniquifier)");
                        case COLUMNSTORE -> "columnstore";
                    });
                    out.println(INDENT + INDENT + "columns         " + CatalogText.schema(table.schema()));
                    out.println(INDENT + INDENT + "root page       " + switch (table.organization()) {
                        case HEAP -> "- (heap)";
                        case CLUSTERED -> String.valueOf(table.rootPage());
                        case COLUMNSTORE -> table.rootPage() + " (rowgroup directory)";
                    });
                    out.println(INDENT + INDENT + "allocation map  page " + table.firstOamPage());
                    if (!table.options().isEmpty()) {
                        out.println(INDENT + INDENT + "options         " + new TreeMap<>(table.options()));
                    }
                }
                case CatalogEntry.Index index -> {
                    String table = catalog.label(index.tableId());
                    String key = catalog.entry(index.tableId()).orElse(null) instanceof CatalogEntry.Table owner
                            ? CatalogText.columns(owner.schema(), index.keyColumns()) : "columns " + index.keyColumns();
                    out.println(INDENT + "index " + index.objectId() + " " + index.name() + " on table " + table);
                    out.println(INDENT + INDENT + "key             " + key + (index.unique() ? ", unique" : ", not unique"));
                    out.println(INDENT + INDENT + "root page       " + index.rootPage());
                    out.println(INDENT + INDENT + "allocation map  page " + index.firstOamPage());
                }
                case CatalogEntry.View view -> {
                    out.println(INDENT + "view " + view.objectId() + " " + view.name());
                    out.println(INDENT + INDENT + "columns         " + CatalogText.schema(view.schema()));
                    out.println(INDENT + INDENT + "definition      " + view.definition().replaceAll("\\s+", " "));
                }
                case CatalogEntry.PartitionObject object -> {
                    out.println(INDENT + "partition " + object.kind().name().toLowerCase(java.util.Locale.ROOT) + " "
                            + object.objectId() + " " + object.name());
                    out.println(INDENT + INDENT + "definition      " + object.definition().replaceAll("\\s+", " "));
                }
                case CatalogEntry.Login login -> {
                    // The verifier is not printed: a dump is shared more freely than the database.
                    out.println(INDENT + "login " + login.objectId() + " " + login.name() + " (SCRAM-SHA-256 verifier)");
                }
            }
        }
        if (shown == 0) {
            out.println(INDENT + (objectId == null ? "no tables or indexes" : "no entry for object " + objectId));
        }
    }

    /** The object an {@code --object} argument names; see {@link CatalogView#resolve}. */
    int resolveObject(String idOrName) throws UsageException {
        return catalog.resolve(idOrName);
    }

    @Override
    public void close() {
        reader.close();
    }

    /** Reads the key of a B+tree cell as bytes: small, and the decoders want an array. */
    static byte[] bytes(MemorySegment page, int offset, int length) {
        return page.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The message of a decoding failure: a ColumbaException's names its error code. */
    static String reason(RuntimeException failure) {
        return failure instanceof ColumbaException columba ? columba.getMessage() : failure.toString();
    }

    /**
     * The message of a decoding failure for a finding that already names {@code origin} first: the
     * decoders start their messages with the origin they were given, which is left out here, and
     * the error code follows. A null {@code origin} keeps the whole message, for one that names its
     * file itself.
     */
    static String reason(RuntimeException failure, String origin) {
        if (!(failure instanceof ColumbaException columba)) {
            return failure.toString();
        }
        String message = columba.getMessage();
        String code = "[" + columba.errorCode().name() + "] ";
        if (message.startsWith(code)) {
            message = message.substring(code.length());
        }
        if (origin != null && message.startsWith(origin + ": ")) {
            message = message.substring(origin.length() + 2);
        }
        return message + " (" + columba.errorCode().name() + ")";
    }
}
