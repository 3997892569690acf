package dev.columba.cli.inspect;

import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.PageType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The header of one data-file page as found on disk, and what is wrong with it, never throwing:
 * the same checks as storage's {@link Page#verify} (checksum, format version, the page's own id)
 * plus a known page type, each reported with the values found.
 *
 * @param pageId   the page's position in the file (offset / 8192)
 * @param typeCode the raw type byte; {@link #type()} is null when no {@link PageType} has it
 */
record PageInfo(long pageId, boolean allZero, int storedChecksum, int computedChecksum, int typeCode, int formatVersion,
                int flags, long headerPageId, long lsn, int objectId, int level, int slotCount, int freeStart,
                int freeEnd, int garbage, long previous, long next, long special) {

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static PageInfo of(long pageId, MemorySegment page) {
        boolean allZero = Page.isAllZero(page);
        return new PageInfo(pageId, allZero, page.get(INT, PageFormat.CHECKSUM_OFFSET), Page.computeChecksum(page),
                Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, PageFormat.TYPE_OFFSET)), Page.formatVersion(page),
                Short.toUnsignedInt(page.get(SHORT, PageFormat.FLAGS_OFFSET)), Page.pageId(page), Page.lsn(page),
                Page.objectId(page), Page.level(page), Page.slotCount(page), Page.freeStart(page), Page.freeEnd(page),
                Page.garbageBytes(page), Page.previous(page), Page.next(page), Page.special(page));
    }

    /** An all-zero page was given room in the file but never written: it passes verification. */
    boolean checksumOk() {
        return allZero || storedChecksum == computedChecksum;
    }

    PageType type() {
        for (PageType type : PageType.values()) {
            if (type.code() == typeCode) {
                return type;
            }
        }
        return null;
    }

    String typeName() {
        PageType type = type();
        return type == null ? "UNKNOWN(" + typeCode + ")" : type.name();
    }

    /** Whether the header can be trusted: checksum, version, id and type all as they should be. */
    boolean sound() {
        return problems().isEmpty();
    }

    /** What is wrong with the header, each with the values found; empty for a sound page. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (allZero) {
            return problems;
        }
        if (storedChecksum != computedChecksum) {
            problems.add(String.format("checksum BAD: stored 0x%08x, computed 0x%08x", storedChecksum, computedChecksum));
        }
        boolean compressedHeap = formatVersion == PageFormat.COMPRESSED_HEAP_FORMAT_VERSION && type() == PageType.HEAP;
        if (formatVersion != PageFormat.PAGE_FORMAT_VERSION && !compressedHeap) {
            problems.add("format version " + formatVersion + ", expected " + PageFormat.PAGE_FORMAT_VERSION
                    + " (or " + PageFormat.COMPRESSED_HEAP_FORMAT_VERSION + " for a compressed heap page)");
        }
        if (headerPageId != pageId) {
            problems.add("header says page " + headerPageId + " (a misdirected write)");
        }
        if (type() == null) {
            problems.add("unknown page type " + typeCode);
        }
        return problems;
    }

    /** The problems as one finding naming file, page and offset; null for a sound page. */
    String finding(String fileName) {
        List<String> problems = problems();
        if (problems.isEmpty()) {
            return null;
        }
        return fileName + " page " + pageId + " (offset " + PageFormat.offsetOf(pageId) + "): " + String.join("; ", problems);
    }
}
