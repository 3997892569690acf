package dev.columba.cli.inspect;

import static dev.columba.storage.file.DataFileFormat.EXTENTS_PER_GAM;
import static dev.columba.storage.file.DataFileFormat.OAM_ENTRIES_PER_PAGE;
import static dev.columba.storage.file.DataFileFormat.OAM_ENTRY_SIZE;
import static dev.columba.storage.page.PageFormat.HEADER_SIZE;
import static dev.columba.storage.page.PageFormat.PAGES_PER_EXTENT;

import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.file.DataFileFormat;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which pages are in use and by whom, from the allocation structures (docs/format/data-file.md):
 * the global allocation maps say which extents are in use, and each object's chain of allocation
 * map pages, found from the boot page (the catalog) and the catalog entries, says which of its
 * extents' pages it uses. A page no map claims keeps whatever it held when it was freed, so a
 * page's header alone does not say whether it is live; this does.
 */
final class AllocationView {
    /** What a page is used for. */
    enum State {
        /** The file header, the boot page, a global allocation map. */
        SYSTEM,
        /** Claimed by an object's allocation map. */
        IN_USE,
        /** Claimed by nothing: never written, or freed (its contents are stale). */
        FREE,
        /** Not known: some allocation map could not be read. */
        UNKNOWN
    }

    /**
     * An allocation map chain beyond the one a catalog entry names: a columnstore table owns
     * several B+trees (delete bitmap, delta rowgroups), each with its own chain, all under the
     * table's object id.
     *
     * @param name how messages name the chain's owner, e.g. {@code "sales (delete bitmap)"}
     */
    record Chain(int objectId, String name, long firstOamPage) {
    }

    private static final int NO_OWNER = -1;

    private final BitSet extentsInUse;
    private final long extentCount;
    private final int[] owners;
    private final BitSet systemPages;
    private final boolean ownersKnown;
    private final boolean extentsAssumed;

    private AllocationView(BitSet extentsInUse, long extentCount, int[] owners, BitSet systemPages, boolean ownersKnown,
                           boolean extentsAssumed) {
        this.extentsInUse = extentsInUse;
        this.extentCount = extentCount;
        this.owners = owners;
        this.systemPages = systemPages;
        this.ownersKnown = ownersKnown;
        this.extentsAssumed = extentsAssumed;
    }

    /**
     * Reads the global allocation maps and the allocation map chains of the catalog ({@code boot},
     * null if the boot page is unreadable), of every catalog entry and the {@code moreChains}
     * found elsewhere, reporting what is wrong.
     */
    static AllocationView read(DataFileReader reader, DataFileReader.Boot boot, CatalogView catalog,
                               List<Chain> moreChains, Findings findings, String indent) {
        long pageCount = reader.pageCount();
        long extentCount = (pageCount + PAGES_PER_EXTENT - 1) / PAGES_PER_EXTENT;
        if (pageCount > Integer.MAX_VALUE) {
            throw new IllegalStateException("data file " + reader.name() + " has " + pageCount
                    + " pages, more than inspect can map");
        }
        BitSet extents = new BitSet();
        BitSet systemPages = new BitSet();
        boolean extentsAssumed = false;
        systemPages.set((int) DataFileFormat.FILE_HEADER_PAGE);
        systemPages.set((int) DataFileFormat.BOOT_PAGE);
        for (long interval = 0; interval * EXTENTS_PER_GAM < extentCount; interval++) {
            long firstExtent = interval * EXTENTS_PER_GAM;
            long gamPage = DataFileFormat.gamPageFor(firstExtent);
            if (!reader.contains(gamPage)) {
                continue;
            }
            systemPages.set((int) gamPage);
            MemorySegment page = reader.read(gamPage);
            PageInfo info = PageInfo.of(gamPage, page);
            if (!info.sound() || info.type() != PageType.GLOBAL_ALLOCATION_MAP) {
                findings.report(indent, info.sound() ? reader.name() + " page " + gamPage + " should be the global "
                        + "allocation map of extents " + firstExtent + "-" + (firstExtent + EXTENTS_PER_GAM - 1) + " but is a "
                        + info.typeName() + " page" : info.finding(reader.name()));
                // Unknown: count the interval's extents in the file as in use rather than hide pages.
                extents.set((int) firstExtent, (int) Math.min(extentCount, firstExtent + EXTENTS_PER_GAM));
                extentsAssumed = true;
                continue;
            }
            for (int bit = 0; bit < EXTENTS_PER_GAM; bit++) {
                if ((page.get(ValueLayout.JAVA_BYTE, HEADER_SIZE + bit / 8) & (1 << (bit % 8))) == 0) {
                    continue;
                }
                long extent = firstExtent + bit;
                if (extent >= extentCount) {
                    findings.report(indent, reader.name() + " page " + gamPage + ": the global allocation map marks extent "
                            + extent + " in use, past the end of the file (" + extentCount + " extents)");
                } else {
                    extents.set((int) extent);
                }
            }
        }

        int[] owners = new int[(int) pageCount];
        Arrays.fill(owners, NO_OWNER);
        boolean known = boot != null && catalog.complete();
        if (boot != null) {
            known &= claim(reader, Catalog.CATALOG_OBJECT_ID, "(catalog)", boot.catalogFirstOamPage(), extents, owners,
                    findings, indent);
        }
        for (CatalogEntry entry : catalog.entries()) {
            known &= claim(reader, entry.objectId(), entry.name(), entry.firstOamPage(), extents, owners, findings, indent);
        }
        for (Chain chain : moreChains) {
            known &= claim(reader, chain.objectId(), chain.name(), chain.firstOamPage(), extents, owners, findings, indent);
        }
        return new AllocationView(extents, extentCount, owners, systemPages, known, extentsAssumed);
    }

    /** Walks one object's allocation map chain and marks the pages it claims; false if it could not be read whole. */
    private static boolean claim(DataFileReader reader, int objectId, String name, long firstOamPage, BitSet extents,
                                 int[] owners, Findings findings, String indent) {
        String object = "object " + objectId + " " + name;
        Set<Long> visited = new HashSet<>();
        for (long oamPage = firstOamPage; oamPage != PageFormat.NO_PAGE; ) {
            if (!reader.contains(oamPage)) {
                findings.report(indent, reader.name() + ": the allocation map chain of " + object + " leads to page "
                        + oamPage + ", outside the file's " + reader.pageCount() + " pages");
                return false;
            }
            if (!visited.add(oamPage)) {
                findings.report(indent, reader.name() + ": the allocation map chain of " + object + " comes back to page "
                        + oamPage + " (a cycle)");
                return false;
            }
            MemorySegment page = reader.read(oamPage);
            PageInfo info = PageInfo.of(oamPage, page);
            if (!info.sound()) {
                findings.report(indent, info.finding(reader.name()));
                return false;
            }
            if (info.type() != PageType.OBJECT_ALLOCATION_MAP || info.objectId() != objectId) {
                findings.report(indent, reader.name() + " page " + oamPage + " should be an allocation map of " + object
                        + " but is a " + info.typeName() + " page of object " + info.objectId());
                return false;
            }
            int entries = info.slotCount();
            if (entries > OAM_ENTRIES_PER_PAGE) {
                findings.report(indent, reader.name() + " page " + oamPage + ": allocation map with " + entries
                        + " entries, more than a page holds (" + OAM_ENTRIES_PER_PAGE + ")");
                entries = OAM_ENTRIES_PER_PAGE;
            }
            for (int entry = 0; entry < entries; entry++) {
                long extent = extentAt(page, entry);
                int bitmap = bitmapAt(page, entry);
                if (!extents.get((int) Math.min(Integer.MAX_VALUE, extent))) {
                    findings.report(indent, reader.name() + " page " + oamPage + " entry " + entry + ": " + object
                            + " lists extent " + extent + ", which the global allocation map does not mark in use");
                }
                for (int pageInExtent = 0; pageInExtent < PAGES_PER_EXTENT; pageInExtent++) {
                    if ((bitmap & (1 << pageInExtent)) == 0) {
                        continue;
                    }
                    long pageId = PageFormat.firstPageOf(extent) + pageInExtent;
                    if (pageId >= owners.length) {
                        findings.report(indent, reader.name() + " page " + oamPage + " entry " + entry + ": " + object
                                + " claims page " + pageId + ", past the end of the file");
                        continue;
                    }
                    int previous = owners[(int) pageId];
                    if (previous != NO_OWNER && previous != objectId) {
                        findings.report(indent, reader.name() + ": page " + pageId + " is claimed by objects " + previous
                                + " and " + objectId);
                    }
                    owners[(int) pageId] = objectId;
                }
            }
            oamPage = info.next();
        }
        return true;
    }

    static long extentAt(MemorySegment page, int entry) {
        return Integer.toUnsignedLong(page.get(DataFileReader.INT, HEADER_SIZE + (long) entry * OAM_ENTRY_SIZE));
    }

    static int bitmapAt(MemorySegment page, int entry) {
        return Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, HEADER_SIZE + (long) entry * OAM_ENTRY_SIZE + 4));
    }

    State state(long pageId) {
        if (systemPages.get((int) pageId)) {
            return State.SYSTEM;
        }
        if (owners[(int) pageId] != NO_OWNER) {
            return State.IN_USE;
        }
        return ownersKnown ? State.FREE : State.UNKNOWN;
    }

    /** The object whose allocation map claims the page, or -1. */
    int owner(long pageId) {
        return owners[(int) pageId];
    }

    /** Whether every allocation map could be read, so that an unclaimed page is surely free. */
    boolean ownersKnown() {
        return ownersKnown;
    }

    long extentCount() {
        return extentCount;
    }

    /** Whether some extents count as in use only because their global allocation map is unreadable. */
    boolean extentsAssumed() {
        return extentsAssumed;
    }

    long extentsInUse() {
        return extentsInUse.cardinality();
    }

    /** The extents in use as ranges, e.g. {@code 0-17, 20, 22-30}. */
    String extentRanges() {
        return ranges(extentsInUse);
    }

    static String ranges(BitSet bits) {
        StringBuilder text = new StringBuilder();
        for (int start = bits.nextSetBit(0); start >= 0; ) {
            int end = bits.nextClearBit(start) - 1;
            if (!text.isEmpty()) {
                text.append(", ");
            }
            text.append(start == end ? String.valueOf(start) : start + "-" + end);
            start = bits.nextSetBit(end + 1);
        }
        return text.isEmpty() ? "none" : text.toString();
    }
}
