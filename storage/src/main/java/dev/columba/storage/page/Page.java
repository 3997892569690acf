package dev.columba.storage.page;

import static dev.columba.storage.page.PageFormat.*;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Static accessors for the page header and its checksum over an 8 KB {@link MemorySegment} (a
 * buffer-pool frame, a WAL image, a dump). Stateless: no object per page on hot paths.
 */
public final class Page {
    private Page() {
    }

    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Zeroes the page and writes a fresh header. */
    public static void format(MemorySegment page, long pageId, PageType type, int objectId, int level) {
        page.asSlice(0, PAGE_SIZE).fill((byte) 0);
        page.set(ValueLayout.JAVA_BYTE, TYPE_OFFSET, (byte) type.code());
        page.set(ValueLayout.JAVA_BYTE, VERSION_OFFSET, (byte) PAGE_FORMAT_VERSION);
        page.set(LONG, PAGE_ID_OFFSET, pageId);
        page.set(INT, OBJECT_ID_OFFSET, objectId);
        page.set(SHORT, LEVEL_OFFSET, (short) level);
        setFreeStart(page, HEADER_SIZE);
        setFreeEnd(page, PAGE_SIZE);
    }

    public static PageType type(MemorySegment page) {
        return PageType.fromCode(Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, TYPE_OFFSET)), pageId(page));
    }

    public static int formatVersion(MemorySegment page) {
        return Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, VERSION_OFFSET));
    }

    /** Sets the format version byte (a compressed heap page is formatted, then marked version 2). */
    public static void setFormatVersion(MemorySegment page, int version) {
        page.set(ValueLayout.JAVA_BYTE, VERSION_OFFSET, (byte) version);
    }

    public static int flags(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, FLAGS_OFFSET));
    }

    public static void setFlags(MemorySegment page, int flags) {
        page.set(SHORT, FLAGS_OFFSET, (short) flags);
    }

    public static long pageId(MemorySegment page) {
        return page.get(LONG, PAGE_ID_OFFSET);
    }

    public static long lsn(MemorySegment page) {
        return page.get(LONG, LSN_OFFSET);
    }

    public static void setLsn(MemorySegment page, long lsn) {
        page.set(LONG, LSN_OFFSET, lsn);
    }

    public static int objectId(MemorySegment page) {
        return page.get(INT, OBJECT_ID_OFFSET);
    }

    public static int level(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, LEVEL_OFFSET));
    }

    public static int slotCount(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, SLOT_COUNT_OFFSET));
    }

    public static void setSlotCount(MemorySegment page, int count) {
        page.set(SHORT, SLOT_COUNT_OFFSET, (short) count);
    }

    public static int freeStart(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, FREE_START_OFFSET));
    }

    public static void setFreeStart(MemorySegment page, int offset) {
        page.set(SHORT, FREE_START_OFFSET, (short) offset);
    }

    /** Start of cell data; a value of 0 stands for {@link PageFormat#PAGE_SIZE} (which a u16 cannot hold). */
    public static int freeEnd(MemorySegment page) {
        int value = Short.toUnsignedInt(page.get(SHORT, FREE_END_OFFSET));
        return value == 0 ? PAGE_SIZE : value;
    }

    public static void setFreeEnd(MemorySegment page, int offset) {
        page.set(SHORT, FREE_END_OFFSET, (short) (offset == PAGE_SIZE ? 0 : offset));
    }

    public static int garbageBytes(MemorySegment page) {
        return Short.toUnsignedInt(page.get(SHORT, GARBAGE_OFFSET));
    }

    public static void setGarbageBytes(MemorySegment page, int bytes) {
        page.set(SHORT, GARBAGE_OFFSET, (short) bytes);
    }

    public static long previous(MemorySegment page) {
        return page.get(LONG, PREVIOUS_OFFSET);
    }

    public static void setPrevious(MemorySegment page, long pageId) {
        page.set(LONG, PREVIOUS_OFFSET, pageId);
    }

    public static long next(MemorySegment page) {
        return page.get(LONG, NEXT_OFFSET);
    }

    public static void setNext(MemorySegment page, long pageId) {
        page.set(LONG, NEXT_OFFSET, pageId);
    }

    public static long special(MemorySegment page) {
        return page.get(LONG, SPECIAL_OFFSET);
    }

    public static void setSpecial(MemorySegment page, long value) {
        page.set(LONG, SPECIAL_OFFSET, value);
    }

    /** Bytes available between the slot array and the cells, not counting garbage. */
    public static int contiguousFree(MemorySegment page) {
        return freeEnd(page) - freeStart(page);
    }

    public static int computeChecksum(MemorySegment page) {
        CRC32C crc = new CRC32C();
        crc.update(page.asSlice(CHECKSUM_OFFSET + 4, PAGE_SIZE - 4).asByteBuffer());
        return (int) crc.getValue();
    }

    /** Stamps the checksum; called just before the page is written to disk. */
    public static void updateChecksum(MemorySegment page) {
        page.set(INT, CHECKSUM_OFFSET, computeChecksum(page));
    }

    /** Whether every byte of the page is zero: a page the file has room for but that was never written. */
    public static boolean isAllZero(MemorySegment page) {
        for (long offset = 0; offset < PAGE_SIZE; offset += 8) {
            if (page.get(ValueLayout.JAVA_LONG_UNALIGNED, offset) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Verifies a page just read from {@code fileName}: checksum, format version, and that it is the
     * page that was asked for. An all-zero page (allocated, never written) passes.
     *
     * @throws ColumbaException {@link ErrorCode#PAGE_CHECKSUM_MISMATCH} or {@link ErrorCode#PAGE_HEADER_INVALID}
     *         naming the file and page
     */
    public static void verify(MemorySegment page, long expectedPageId, String fileName) {
        int stored = page.get(INT, CHECKSUM_OFFSET);
        int computed = computeChecksum(page);
        if (stored != computed) {
            if (isAllZero(page)) {
                return;
            }
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, String.format(
                    "page %d of %s (offset %d) is corrupt: checksum stored 0x%08x, computed 0x%08x",
                    expectedPageId, fileName, offsetOf(expectedPageId), stored, computed));
        }
        int version = formatVersion(page);
        if (version < PAGE_FORMAT_VERSION || version > MAX_PAGE_FORMAT_VERSION
                || version == COMPRESSED_HEAP_FORMAT_VERSION && type(page) != PageType.HEAP) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "page " + expectedPageId + " of " + fileName
                    + " has format version " + version + ", this build reads " + PAGE_FORMAT_VERSION + " to "
                    + MAX_PAGE_FORMAT_VERSION + " (2 for heap pages only)");
        }
        if (pageId(page) != expectedPageId) {
            throw new ColumbaException(ErrorCode.PAGE_HEADER_INVALID, "page " + expectedPageId + " of " + fileName
                    + " claims to be page " + pageId(page) + " (a misdirected write)");
        }
    }
}
