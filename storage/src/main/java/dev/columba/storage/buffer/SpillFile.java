package dev.columba.storage.buffer;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a write transaction keeps the private page copies that do not fit its share of the buffer
 * pool (docs/design/storage.md, "Transactions larger than the pool"). One per database, used by
 * one transaction at a time (the single writer).
 *
 * <p>The file holds only uncommitted data, and only for the life of one transaction: slot {@code n}
 * is the 8 KB at offset {@code n x 8192}, with no header, and nothing ever reads it after the
 * process that wrote it. So it is never forced, a transaction's end cuts it to zero length (its
 * space goes back to the file system), and opening the database deletes whatever a crash left
 * ({@link #deleteLeftover}). Each spilled page carries a checksum over its bytes, checked when it is
 * read back: the file system is trusted no more here than with the data file.
 *
 * <p>Its I/O is real and counted apart from the data file's ({@link #statistics()}): spilling is
 * the transaction's own temporary I/O, like a sort's spill, not a read of any table.
 */
public final class SpillFile implements AutoCloseable {
    /** Name of the file inside the database's temporary directory. */
    public static final String FILE_NAME = "transaction.spill";

    /** Spill I/O since the database opened: pages and system calls each way, and bytes. */
    public record Statistics(long pagesWritten, long writeIos, long pagesRead, long readIos) {
        public long bytesWritten() {
            return pagesWritten * PageFormat.PAGE_SIZE;
        }

        public long bytesRead() {
            return pagesRead * PageFormat.PAGE_SIZE;
        }
    }

    private final FilesFacade files;
    private final Path path;
    private FileHandle handle;
    /** Slots handed out to the current transaction; the next one is this. */
    private long nextSlot;
    private final AtomicLong pagesWritten = new AtomicLong();
    private final AtomicLong writeIos = new AtomicLong();
    private final AtomicLong pagesRead = new AtomicLong();
    private final AtomicLong readIos = new AtomicLong();

    /** A spill file at {@code path}; nothing is created until the first page is spilled. */
    public SpillFile(FilesFacade files, Path path) {
        this.files = files;
        this.path = path;
    }

    /**
     * Removes a spill file a crashed process left: it held only uncommitted pages of a transaction
     * that can no longer commit.
     */
    public static void deleteLeftover(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot delete the leftover transaction spill file " + path
                    + ": " + e, e);
        }
    }

    public Path path() {
        return path;
    }

    /** A new slot for the current transaction. */
    long allocateSlot() {
        return nextSlot++;
    }

    /** Slots handed out to the current transaction. */
    long slotCount() {
        return nextSlot;
    }

    /**
     * Writes {@code pageCount} pages staged one after another in {@code staged} to consecutive slots
     * from {@code firstSlot}, stamping each page's checksum first (on the staged copy).
     *
     * @throws ColumbaException {@link ErrorCode#DISK_FULL} when the file system has no room
     */
    void write(long firstSlot, MemorySegment staged, int pageCount) {
        for (int index = 0; index < pageCount; index++) {
            Page.updateChecksum(staged.asSlice((long) index * PageFormat.PAGE_SIZE, PageFormat.PAGE_SIZE));
        }
        FileHandle file = open();
        try {
            file.write(firstSlot * PageFormat.PAGE_SIZE, staged.asSlice(0, (long) pageCount * PageFormat.PAGE_SIZE));
        } catch (ColumbaException e) {
            if (e.errorCode() == ErrorCode.DISK_FULL) {
                throw new ColumbaException(ErrorCode.DISK_FULL, "the transaction's changes outgrew its share of the "
                        + "buffer pool and the disk holding " + path + " has no room for them; the transaction cannot"
                        + " go on (nothing committed is affected): free disk space or commit in smaller transactions",
                        e);
            }
            throw e;
        }
        pagesWritten.addAndGet(pageCount);
        writeIos.incrementAndGet();
    }

    /**
     * Reads {@code pageCount} consecutive slots from {@code firstSlot} into {@code target} and checks
     * each page's checksum.
     *
     * @throws ColumbaException {@link ErrorCode#PAGE_CHECKSUM_MISMATCH} naming the file and slot
     */
    void read(long firstSlot, MemorySegment target, int pageCount) {
        long length = (long) pageCount * PageFormat.PAGE_SIZE;
        long read = open().read(firstSlot * PageFormat.PAGE_SIZE, target.asSlice(0, length));
        if (read != length) {
            throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "transaction spill file " + path + " ends before slot "
                    + (firstSlot + read / PageFormat.PAGE_SIZE) + " that this transaction wrote");
        }
        for (int index = 0; index < pageCount; index++) {
            checkPage(firstSlot + index, target.asSlice((long) index * PageFormat.PAGE_SIZE, PageFormat.PAGE_SIZE));
        }
        pagesRead.addAndGet(pageCount);
        readIos.incrementAndGet();
    }

    /**
     * Reads consecutive slots from {@code firstSlot} into {@code targets}, one page each, with one
     * scatter read, and checks each page's checksum.
     */
    void read(long firstSlot, MemorySegment[] targets) {
        long length = (long) targets.length * PageFormat.PAGE_SIZE;
        long read = open().readScatter(firstSlot * PageFormat.PAGE_SIZE, targets);
        if (read != length) {
            throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "transaction spill file " + path + " ends before slot "
                    + (firstSlot + read / PageFormat.PAGE_SIZE) + " that this transaction wrote");
        }
        for (int index = 0; index < targets.length; index++) {
            checkPage(firstSlot + index, targets[index]);
        }
        pagesRead.addAndGet(targets.length);
        readIos.incrementAndGet();
    }

    private void checkPage(long slot, MemorySegment page) {
        int stored = page.get(ValueLayout.JAVA_INT_UNALIGNED, PageFormat.CHECKSUM_OFFSET);
        int computed = Page.computeChecksum(page);
        if (stored != computed) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, String.format("slot %d of transaction "
                    + "spill file %s (offset %d) is corrupt: checksum stored 0x%08x, computed 0x%08x",
                    slot, path, slot * PageFormat.PAGE_SIZE, stored, computed));
        }
    }

    /** Ends the current transaction's use: the slots are forgotten and the file cut to zero length. */
    void reset() {
        if (nextSlot == 0) {
            return;
        }
        nextSlot = 0;
        if (handle != null) {
            handle.truncate(0);
        }
    }

    public Statistics statistics() {
        return new Statistics(pagesWritten.get(), writeIos.get(), pagesRead.get(), readIos.get());
    }

    private FileHandle open() {
        if (handle == null) {
            try {
                Files.createDirectories(path.getParent());
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + path.getParent() + ": " + e, e);
            }
            handle = files.open(path, FilesFacade.OpenMode.CREATE, false);
        }
        return handle;
    }

    /** Closes and deletes the file. */
    @Override
    public void close() {
        if (handle != null) {
            handle.close();
            handle = null;
        }
        deleteLeftover(path);
    }
}
