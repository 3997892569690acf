package dev.columba.storage.btree;

import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Cell layout of B+tree pages (docs/format/data-file.md, "B+tree pages"), as static methods over
 * the page segment. Keys are memcomparable byte strings: unsigned byte order is key order.
 *
 * <pre>
 * leaf cell:     u16 key length | u16 value length | key | value
 * internal cell: u16 key length | key | u64 child page id
 * </pre>
 * An internal page's header "special" field holds its leftmost child, which covers keys below the
 * first separator; the child of cell i covers keys from separator i up to separator i + 1.
 */
final class Node {
    private Node() {
    }

    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Eight key bytes read as one number whose unsigned order is the bytes' order (comparison's fast path). */
    private static final ValueLayout.OfLong KEY_PREFIX = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Largest key: as SQL Server, 900 bytes, so that an internal page always holds several. */
    static final int MAX_KEY_LENGTH = 900;
    /** Largest leaf cell: at least four fit in a page. */
    static final int MAX_LEAF_CELL = PageFormat.USABLE_SIZE / 4 - SlottedPage.SLOT_SIZE;
    static final int LEAF_CELL_OVERHEAD = 4;
    static final int INTERNAL_CELL_OVERHEAD = 2 + 8;

    static final SlottedPage.CellLength LEAF_LENGTH = Node::leafCellLength;
    static final SlottedPage.CellLength INTERNAL_LENGTH = Node::internalCellLength;

    static boolean isLeaf(MemorySegment page) {
        return Page.level(page) == 0;
    }

    static int u16(MemorySegment page, long offset) {
        return Short.toUnsignedInt(page.get(SHORT, offset));
    }

    static int leafCellLength(MemorySegment page, int cell) {
        return LEAF_CELL_OVERHEAD + u16(page, cell) + u16(page, cell + 2);
    }

    static int internalCellLength(MemorySegment page, int cell) {
        return INTERNAL_CELL_OVERHEAD + u16(page, cell);
    }

    static int cellLength(MemorySegment page, int cell) {
        return isLeaf(page) ? leafCellLength(page, cell) : internalCellLength(page, cell);
    }

    static int keyOffset(MemorySegment page, int cell) {
        return isLeaf(page) ? cell + 4 : cell + 2;
    }

    static int keyLength(MemorySegment page, int cell) {
        return u16(page, cell);
    }

    static int valueOffset(MemorySegment page, int cell) {
        return cell + 4 + u16(page, cell);
    }

    static int valueLength(MemorySegment page, int cell) {
        return u16(page, cell + 2);
    }

    static long child(MemorySegment page, int cell) {
        return page.get(LONG, cell + 2 + u16(page, cell));
    }

    static void setChild(MemorySegment page, int cell, long child) {
        page.set(LONG, cell + 2 + u16(page, cell), child);
    }

    static long leftmostChild(MemorySegment page) {
        return Page.special(page);
    }

    /** The child covering slot index {@code childIndex}: -1 is the leftmost child. */
    static long childAt(MemorySegment page, int childIndex) {
        return childIndex < 0 ? leftmostChild(page) : child(page, SlottedPage.cellOffset(page, childIndex));
    }

    /** Copies the key of the cell in {@code slot}. */
    static byte[] key(MemorySegment page, int slot) {
        int cell = SlottedPage.cellOffset(page, slot);
        int offset = keyOffset(page, cell);
        return page.asSlice(offset, keyLength(page, cell)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Copies the value of the leaf cell in {@code slot}. */
    static byte[] value(MemorySegment page, int slot) {
        int cell = SlottedPage.cellOffset(page, slot);
        return page.asSlice(valueOffset(page, cell), valueLength(page, cell)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Unsigned comparison of the key in {@code slot} with {@code key}. */
    static int compareSlot(MemorySegment page, int slot, MemorySegment key) {
        int cell = SlottedPage.cellOffset(page, slot);
        int offset = keyOffset(page, cell);
        int length = keyLength(page, cell);
        return compare(page, offset, length, key);
    }

    /**
     * Unsigned comparison of the {@code length} key bytes at {@code offset} of {@code page} with
     * {@code key}, in place: eight bytes at a time as big-endian numbers (whose unsigned order is
     * the bytes' order), the last few byte by byte. A BIGINT key is nine bytes (marker and value),
     * so its eight-byte prefix rarely decides between the neighbouring keys of one leaf; a call of
     * {@link MemorySegment#mismatch} for the rest cost a quarter of a point select in JFR (its
     * bounds checks and bulk-operation set-up are made for long ranges), so short keys never make it.
     */
    static int compare(MemorySegment page, long offset, int length, MemorySegment key) {
        long keyLength = key.byteSize();
        long common = Math.min(length, keyLength);
        if (common > LONG_COMPARE_LIMIT) {
            return compareLong(page, offset, length, key);
        }
        long at = 0;
        for (; at + Long.BYTES <= common; at += Long.BYTES) {
            long stored = page.get(KEY_PREFIX, offset + at);
            long sought = key.get(KEY_PREFIX, at);
            if (stored != sought) {
                return Long.compareUnsigned(stored, sought) < 0 ? -1 : 1;
            }
        }
        for (; at < common; at++) {
            int stored = Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, offset + at));
            int sought = Byte.toUnsignedInt(key.get(ValueLayout.JAVA_BYTE, at));
            if (stored != sought) {
                return stored < sought ? -1 : 1;
            }
        }
        return Long.compare(length, keyLength);
    }

    /** Keys with more bytes in common than this compare through {@link MemorySegment#mismatch}. */
    private static final int LONG_COMPARE_LIMIT = 64;

    private static int compareLong(MemorySegment page, long offset, int length, MemorySegment key) {
        long keyLength = key.byteSize();
        // The first eight bytes decide most comparisons of a search without a mismatch call.
        int prefix = Long.compareUnsigned(page.get(KEY_PREFIX, offset), key.get(KEY_PREFIX, 0));
        if (prefix != 0) {
            return prefix < 0 ? -1 : 1;
        }
        long mismatch = MemorySegment.mismatch(page, offset, offset + length, key, 0, keyLength);
        if (mismatch < 0) {
            return 0;
        }
        if (mismatch == length) {
            return -1;
        }
        if (mismatch == keyLength) {
            return 1;
        }
        return Integer.compare(Byte.toUnsignedInt(page.get(ValueLayout.JAVA_BYTE, offset + mismatch)),
                Byte.toUnsignedInt(key.get(ValueLayout.JAVA_BYTE, mismatch)));
    }

    /**
     * Search of a leaf: the slot holding {@code key}, or {@code -(insertion point) - 1}.
     *
     * <p>A leaf of fixed-width keys (all of the sought key's length: integers, dates, composites of
     * them) is searched by interpolation: the key is compared with the first and the last key,
     * its place between them is guessed from the bytes after their common prefix read as a number,
     * and the search gallops from the guess and ends in a binary search of what is left. A point
     * select reads a leaf that is rarely in the processor's caches, and each probe of a binary
     * search costs a miss on its slot and another on its cell (about eight probes in a leaf of 200
     * BIGINT keys, the largest part of a point select in JFR); dense keys (a sequence) are found at
     * the guess, three probes in all. The guess only chooses which slots are compared, never the
     * answer, so keys far from uniform cost at most about twice a binary search's probes.
     */
    static int searchLeaf(MemorySegment page, MemorySegment key) {
        int count = Page.slotCount(page);
        long length = key.byteSize();
        if (count < INTERPOLATION_MIN_SLOTS || length > INTERPOLATION_MAX_KEY) {
            return binarySearchLeaf(page, key, 0, count - 1);
        }
        int firstCell = SlottedPage.cellOffset(page, 0);
        int lastCell = SlottedPage.cellOffset(page, count - 1);
        if (keyLength(page, firstCell) != length || keyLength(page, lastCell) != length) {
            return binarySearchLeaf(page, key, 0, count - 1);
        }
        int keyLength = (int) length;
        long firstOffset = firstCell + LEAF_CELL_OVERHEAD;
        long lastOffset = lastCell + LEAF_CELL_OVERHEAD;
        int first = compare(page, firstOffset, keyLength, key);
        if (first >= 0) {
            return first == 0 ? 0 : -1;
        }
        int last = compare(page, lastOffset, keyLength, key);
        if (last <= 0) {
            return last == 0 ? count - 1 : -(count + 1);
        }
        // first < key < last, all of one length: the key shares the first and last keys' common
        // prefix, and the eight bytes after it order the three as they order the keys.
        int prefix = 0;
        while (page.get(ValueLayout.JAVA_BYTE, firstOffset + prefix) == page.get(ValueLayout.JAVA_BYTE, lastOffset + prefix)) {
            prefix++;
        }
        long low = window(page, firstOffset, prefix, keyLength);
        double span = unsignedToDouble(window(page, lastOffset, prefix, keyLength) - low);
        double fraction = unsignedToDouble(window(key, 0, prefix, keyLength) - low) / span;
        int guess = Math.clamp(Math.round(fraction * (count - 1)), 1, count - 2);
        return gallop(page, key, guess, 1, count - 2);
    }

    /**
     * The keys a leaf may hold, as its parent's separators give them: at least the separator of
     * the leaf's child cell, below the next one. Filled by {@link #boundLeaf} during a descent (the
     * parent is in the cache then, the leaf not yet), used by {@link #searchLeaf(MemorySegment,
     * MemorySegment, LeafBounds)} to guess the key's slot without reading the leaf's first and last
     * keys (two probes, up to four cache misses, of the three a dense leaf costs otherwise).
     * Mutable, owned by one descent.
     */
    static final class LeafBounds {
        /** Whether the fields below hold bounds; false for the leftmost and rightmost children. */
        boolean known;
        /** The length of both separators and of the key sought. */
        int keyLength;
        /** The separators' common prefix. */
        int prefix;
        /** The separators' eight bytes after the prefix, as {@link #window} reads them. */
        long low;
        long high;
    }

    /**
     * Sets {@code bounds} to the separators around child {@code childIndex} of internal page
     * {@code parent} when both exist and are of {@code key}'s length (a fixed-width key short
     * enough to interpolate); else marks them unknown.
     */
    static void boundLeaf(MemorySegment parent, int childIndex, MemorySegment key, LeafBounds bounds) {
        bounds.known = false;
        long length = key.byteSize();
        if (childIndex < 0 || childIndex + 1 >= Page.slotCount(parent) || length > INTERPOLATION_MAX_KEY) {
            return;
        }
        int lowCell = SlottedPage.cellOffset(parent, childIndex);
        int highCell = SlottedPage.cellOffset(parent, childIndex + 1);
        if (keyLength(parent, lowCell) != length || keyLength(parent, highCell) != length) {
            return;
        }
        int keyLength = (int) length;
        long lowOffset = lowCell + 2;
        long highOffset = highCell + 2;
        int prefix = 0;
        while (prefix < keyLength
                && parent.get(ValueLayout.JAVA_BYTE, lowOffset + prefix) == parent.get(ValueLayout.JAVA_BYTE, highOffset + prefix)) {
            prefix++;
        }
        if (prefix == keyLength) {
            return; // equal separators: no span to interpolate in
        }
        bounds.keyLength = keyLength;
        bounds.prefix = prefix;
        bounds.low = window(parent, lowOffset, prefix, keyLength);
        bounds.high = window(parent, highOffset, prefix, keyLength);
        bounds.known = Long.compareUnsigned(bounds.high, bounds.low) > 0;
    }

    /**
     * {@link #searchLeaf(MemorySegment, MemorySegment)} of a leaf whose parent's separators around it
     * are {@code bounds} (the key sought lies between them, as the descent chose this leaf for it):
     * the guess is the key's place between the separators, where a leaf of dense keys holds it, and
     * the search gallops from there over the whole leaf. Same answers; without known bounds, or
     * for a key of another length, the search without them.
     */
    static int searchLeaf(MemorySegment page, MemorySegment key, LeafBounds bounds) {
        int count = Page.slotCount(page);
        if (!bounds.known || key.byteSize() != bounds.keyLength || count < INTERPOLATION_MIN_SLOTS) {
            return searchLeaf(page, key);
        }
        double span = unsignedToDouble(bounds.high - bounds.low);
        double fraction = unsignedToDouble(window(key, 0, bounds.prefix, bounds.keyLength) - bounds.low) / span;
        int guess = (int) Math.clamp(Math.round(fraction * count), 0, count - 1);
        return gallop(page, key, guess, 0, count - 1);
    }

    /** Leaves with fewer keys are searched by plain binary search. */
    private static final int INTERPOLATION_MIN_SLOTS = 8;
    /** Longer keys are searched by plain binary search (a fixed-width key is rarely longer). */
    private static final int INTERPOLATION_MAX_KEY = 32;

    /**
     * The slot of {@code key} in {@code [low, high]}, starting from {@code guess} in that range,
     * where the slot before {@code low} holds a smaller key and the one after {@code high} a greater.
     */
    private static int gallop(MemorySegment page, MemorySegment key, int guess, int low, int high) {
        int comparison = compareSlot(page, guess, key);
        if (comparison == 0) {
            return guess;
        }
        if (comparison < 0) {
            low = guess + 1;
            for (int step = 1; guess + step <= high; step <<= 1) {
                int probe = guess + step;
                int probed = compareSlot(page, probe, key);
                if (probed == 0) {
                    return probe;
                }
                if (probed > 0) {
                    high = probe - 1;
                    break;
                }
                low = probe + 1;
            }
        } else {
            high = guess - 1;
            for (int step = 1; guess - step >= low; step <<= 1) {
                int probe = guess - step;
                int probed = compareSlot(page, probe, key);
                if (probed == 0) {
                    return probe;
                }
                if (probed < 0) {
                    low = probe + 1;
                    break;
                }
                high = probe - 1;
            }
        }
        return binarySearchLeaf(page, key, low, high);
    }

    /** Binary search of the slots {@code [low, high]} of a leaf, as {@link #searchLeaf} answers. */
    private static int binarySearchLeaf(MemorySegment page, MemorySegment key, int low, int high) {
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int comparison = compareSlot(page, middle, key);
            if (comparison < 0) {
                low = middle + 1;
            } else if (comparison > 0) {
                high = middle - 1;
            } else {
                return middle;
            }
        }
        return -(low + 1);
    }

    /** The eight key bytes from {@code from} as a big-endian number, zeros past the key's {@code length}. */
    private static long window(MemorySegment segment, long offset, int from, int length) {
        // No branch on each byte's position: which bytes exist changes from leaf to leaf, and such a
        // branch made the JIT deoptimize the search again and again while it warmed up.
        int end = Math.min(from + Long.BYTES, length);
        long value = 0;
        for (int index = from; index < end; index++) {
            value = value << 8 | Byte.toUnsignedLong(segment.get(ValueLayout.JAVA_BYTE, offset + index));
        }
        return value << (Long.SIZE - Byte.SIZE * (end - from)); // at least one byte: from < length
    }

    private static double unsignedToDouble(long value) {
        return value >= 0 ? value : (value >>> 1) * 2.0;
    }

    /**
     * The child index of an internal page whose subtree covers {@code key}: the last separator not
     * greater than the key, or -1 for the leftmost child.
     */
    static int searchInternal(MemorySegment page, MemorySegment key) {
        int low = 0;
        int high = Page.slotCount(page) - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (compareSlot(page, middle, key) <= 0) {
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return low - 1;
    }

    /** Writes a leaf cell at {@code cell}. */
    static void writeLeafCell(MemorySegment page, int cell, byte[] key, byte[] value) {
        writeLeafCell(page, cell, key, value, value.length);
    }

    /** Writes a leaf cell whose value is {@code value[0, valueLength)}. */
    static void writeLeafCell(MemorySegment page, int cell, byte[] key, byte[] value, int valueLength) {
        page.set(SHORT, cell, (short) key.length);
        page.set(SHORT, cell + 2, (short) valueLength);
        MemorySegment.copy(key, 0, page, ValueLayout.JAVA_BYTE, cell + 4, key.length);
        MemorySegment.copy(value, 0, page, ValueLayout.JAVA_BYTE, cell + 4 + key.length, valueLength);
    }

    /** Writes an internal cell at {@code cell}. */
    static void writeInternalCell(MemorySegment page, int cell, byte[] key, long child) {
        page.set(SHORT, cell, (short) key.length);
        MemorySegment.copy(key, 0, page, ValueLayout.JAVA_BYTE, cell + 2, key.length);
        page.set(LONG, cell + 2 + key.length, child);
    }

    static int leafCellSize(byte[] key, byte[] value) {
        return leafCellSize(key, value.length);
    }

    static int leafCellSize(byte[] key, int valueLength) {
        return LEAF_CELL_OVERHEAD + key.length + valueLength;
    }

    static int internalCellSize(byte[] key) {
        return INTERNAL_CELL_OVERHEAD + key.length;
    }

    /** Bytes used by cells and slots: what page density measures. */
    static int usedBytes(MemorySegment page) {
        return PageFormat.USABLE_SIZE - SlottedPage.totalFree(page);
    }
}
