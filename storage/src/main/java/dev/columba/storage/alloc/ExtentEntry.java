package dev.columba.storage.alloc;

import dev.columba.storage.page.PageFormat;

/** One extent of an object and which of its eight pages are in use (bit i = page i of the extent). */
public record ExtentEntry(long extent, int pageBitmap) {
    public ExtentEntry {
        if (extent < 0 || pageBitmap < 0 || pageBitmap > 0xFF) {
            throw new IllegalArgumentException("bad extent entry: extent " + extent + ", bitmap " + pageBitmap);
        }
    }

    public long firstPage() {
        return PageFormat.firstPageOf(extent);
    }

    public boolean isAllocated(int pageInExtent) {
        return (pageBitmap & (1 << pageInExtent)) != 0;
    }

    public int allocatedPages() {
        return Integer.bitCount(pageBitmap);
    }
}
