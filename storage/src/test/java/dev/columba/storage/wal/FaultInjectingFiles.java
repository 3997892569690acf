package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The real file system with failures injected on request: the N-th next write fails after writing
 * some of its bytes (as {@code pwrite} does when the disk fills), the N-th next sync fails, the
 * next truncate fails, and a hook runs before each sync (a sync point for concurrency tests).
 * Hand-written for the write-ahead log's tests.
 */
final class FaultInjectingFiles implements FilesFacade {
    private final FilesFacade delegate = NativeFilesFacade.INSTANCE;

    private int writesBeforeFailure = -1;
    private long bytesBeforeFailure;
    private ErrorCode writeFailure;
    private int forcesBeforeFailure = -1;
    private boolean failTruncate;
    private volatile Runnable beforeForce = () -> { };

    private long writes;
    private long forces;

    /** After {@code writesToPass} more good writes, the next writes {@code bytesWritten} bytes, then fails. */
    synchronized void failWrite(int writesToPass, long bytesWritten, ErrorCode code) {
        writesBeforeFailure = writesToPass;
        bytesBeforeFailure = bytesWritten;
        writeFailure = code;
    }

    /** After {@code forcesToPass} more good syncs, the next sync fails with an I/O error. */
    synchronized void failForce(int forcesToPass) {
        forcesBeforeFailure = forcesToPass;
    }

    synchronized void failTruncate() {
        failTruncate = true;
    }

    /** Runs {@code hook} on the syncing thread before every sync. */
    void beforeForce(Runnable hook) {
        beforeForce = hook;
    }

    synchronized void clearFaults() {
        writesBeforeFailure = -1;
        forcesBeforeFailure = -1;
        failTruncate = false;
    }

    synchronized long writes() {
        return writes;
    }

    synchronized long forces() {
        return forces;
    }

    @Override
    public FileHandle open(Path path, OpenMode mode, boolean direct) {
        return new Handle(delegate.open(path, mode, direct));
    }

    @Override
    public void syncDirectory(Path directory) {
        delegate.syncDirectory(directory);
    }

    /** How many bytes of this write to let through before failing, or -1 to let it all through. */
    private synchronized long writeBudget() {
        writes++;
        if (writesBeforeFailure < 0) {
            return -1;
        }
        if (writesBeforeFailure > 0) {
            writesBeforeFailure--;
            return -1;
        }
        writesBeforeFailure = -1;
        return bytesBeforeFailure;
    }

    private synchronized boolean forceFails() {
        forces++;
        if (forcesBeforeFailure < 0) {
            return false;
        }
        if (forcesBeforeFailure > 0) {
            forcesBeforeFailure--;
            return false;
        }
        forcesBeforeFailure = -1;
        return true;
    }

    private synchronized boolean truncateFails() {
        boolean fails = failTruncate;
        failTruncate = false;
        return fails;
    }

    private final class Handle implements FileHandle {
        private final FileHandle file;

        Handle(FileHandle file) {
            this.file = file;
        }

        @Override
        public Path path() {
            return file.path();
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public long read(long offset, MemorySegment target) {
            return file.read(offset, target);
        }

        @Override
        public long readScatter(long offset, MemorySegment[] targets) {
            return file.readScatter(offset, targets);
        }

        @Override
        public void write(long offset, MemorySegment source) {
            long budget = writeBudget();
            if (budget < 0) {
                file.write(offset, source);
                return;
            }
            long written = Math.min(budget, source.byteSize());
            if (written > 0) {
                file.write(offset, source.asSlice(0, written));
            }
            throw new ColumbaException(writeFailure, "injected: pwrite failed on " + file.path() + " at offset "
                    + (offset + written) + " after " + written + " bytes");
        }

        @Override
        public void force(boolean metadata) {
            beforeForce.run();
            if (forceFails()) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "injected: fdatasync failed on " + file.path());
            }
            file.force(metadata);
        }

        @Override
        public void truncate(long size) {
            if (truncateFails()) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "injected: ftruncate failed on " + file.path());
            }
            file.truncate(size);
        }

        @Override
        public void allocate(long offset, long length) {
            file.allocate(offset, length);
        }

        @Override
        public void advise(long offset, long length, Advice advice) {
            file.advise(offset, length, advice);
        }

        @Override
        public boolean direct() {
            return file.direct();
        }

        @Override
        public int descriptor() {
            return file.descriptor();
        }

        @Override
        public void close() {
            file.close();
        }
    }
}
