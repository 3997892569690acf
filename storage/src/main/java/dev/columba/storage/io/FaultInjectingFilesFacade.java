package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Pattern;

/**
 * A {@link FilesFacade} for tests that passes every call to another one, except the calls it was
 * told to fail: "the 3rd write to files named {@code data.*} fails with disk full", or "from now on
 * every write and force fails" (a dying disk). It counts the calls of each {@link Operation} and
 * the files left open. Lives in the main source tree so that every module's tests can use it.
 *
 * <p>An injected failure is thrown before the call reaches the wrapped facade, so it has no effect
 * on the file, and it is the same {@link ColumbaException} a real failure would be (same code,
 * message naming the file and offset), marked as injected. Thread-safe.
 */
public final class FaultInjectingFilesFacade implements FilesFacade {

    /** The calls that can be counted and failed. */
    public enum Operation {
        OPEN, READ, READ_SCATTER, WRITE, FORCE, TRUNCATE, ALLOCATE
    }

    /** How an injected call fails. */
    public enum Failure {
        /** {@link ErrorCode#DISK_FULL}, as {@code ENOSPC} does. */
        DISK_FULL,
        /** {@link ErrorCode#IO_ERROR}, as {@code EIO} does. */
        IO_ERROR
    }

    /** A file-name pattern that matches every file. */
    public static final String ANY_FILE = ".*";

    private final FilesFacade delegate;
    private final AtomicLongArray calls = new AtomicLongArray(Operation.values().length);
    private final AtomicInteger openHandles = new AtomicInteger();
    private final AtomicLong injectedFailures = new AtomicLong();
    private final List<NthCallFault> pending = new CopyOnWriteArrayList<>();
    /** While non-null, every write and force fails with it. */
    private volatile Failure dyingDisk;

    public FaultInjectingFilesFacade(FilesFacade delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * Fails, once, the {@code nth} call of {@code operation} from now on among those on files whose
     * name (the last element of the path) matches {@code fileNameRegex} entirely. Several faults may
     * be pending at once, each counting on its own.
     */
    public void failNth(Operation operation, long nth, String fileNameRegex, Failure failure) {
        if (nth < 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the call to fail is counted from 1, not " + nth);
        }
        pending.add(new NthCallFault(Objects.requireNonNull(operation, "operation"), nth, Pattern.compile(fileNameRegex),
                Objects.requireNonNull(failure, "failure")));
    }

    /** From now on, every {@link Operation#WRITE} and {@link Operation#FORCE} on any file fails: a dying disk. */
    public void failEveryWriteFromNow(Failure failure) {
        dyingDisk = Objects.requireNonNull(failure, "failure");
    }

    /** Cancels the pending faults and the dying disk; the counts remain. */
    public void heal() {
        pending.clear();
        dyingDisk = null;
    }

    /** Calls of {@code operation} made through this facade so far, failed ones included. */
    public long calls(Operation operation) {
        return calls.get(operation.ordinal());
    }

    /** Failures injected so far. */
    public long injectedFailures() {
        return injectedFailures.get();
    }

    /** Files opened through this facade and not yet closed: zero at the end of a test that cleans up. */
    public int openHandles() {
        return openHandles.get();
    }

    @Override
    public FileHandle open(Path path, OpenMode mode, boolean direct) {
        beforeCall(Operation.OPEN, path, -1);
        FileHandle handle = new FaultInjectingHandle(delegate.open(path, mode, direct));
        openHandles.incrementAndGet();
        return handle;
    }

    @Override
    public void syncDirectory(Path directory) {
        delegate.syncDirectory(directory);
    }

    /** Counts the call, then throws if a fault is due: the dying disk first, then pending faults in order. */
    private void beforeCall(Operation operation, Path path, long offset) {
        long call = calls.incrementAndGet(operation.ordinal());
        Failure failure = dyingDisk;
        if (failure != null && (operation == Operation.WRITE || operation == Operation.FORCE)) {
            throw injected(failure, operation, path, offset, "every write fails from now on (call " + call + ")");
        }
        if (pending.isEmpty()) {
            return;
        }
        String fileName = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        for (NthCallFault fault : pending) {
            if (fault.operation == operation && fault.fileName.matcher(fileName).matches()
                    && fault.matchingCalls.incrementAndGet() == fault.nth) {
                pending.remove(fault);
                throw injected(fault.failure, operation, path, offset,
                        "call " + fault.nth + " on files matching '" + fault.fileName + "'");
            }
        }
    }

    private ColumbaException injected(Failure failure, Operation operation, Path path, long offset, String why) {
        injectedFailures.incrementAndGet();
        ErrorCode code = switch (failure) {
            case DISK_FULL -> ErrorCode.DISK_FULL;
            case IO_ERROR -> ErrorCode.IO_ERROR;
        };
        String where = offset >= 0 ? " at offset " + offset : "";
        return new ColumbaException(code, operation.name().toLowerCase(Locale.ROOT) + " failed on " + path
                + where + ": injected " + failure + " fault, " + why);
    }

    /** One pending "fail the n-th matching call" order; counts its own matching calls. */
    private static final class NthCallFault {
        final Operation operation;
        final long nth;
        final Pattern fileName;
        final Failure failure;
        final AtomicLong matchingCalls = new AtomicLong();

        NthCallFault(Operation operation, long nth, Pattern fileName, Failure failure) {
            this.operation = operation;
            this.nth = nth;
            this.fileName = fileName;
            this.failure = failure;
        }
    }

    /** Passes every call to the real handle after {@link #beforeCall} has had its say. */
    private final class FaultInjectingHandle implements FileHandle {
        private final FileHandle handle;
        private final AtomicBoolean closed = new AtomicBoolean();

        FaultInjectingHandle(FileHandle handle) {
            this.handle = handle;
        }

        @Override
        public Path path() {
            return handle.path();
        }

        @Override
        public long size() {
            return handle.size();
        }

        @Override
        public long read(long offset, MemorySegment target) {
            beforeCall(Operation.READ, handle.path(), offset);
            return handle.read(offset, target);
        }

        @Override
        public long readScatter(long offset, MemorySegment[] targets) {
            beforeCall(Operation.READ_SCATTER, handle.path(), offset);
            return handle.readScatter(offset, targets);
        }

        @Override
        public void write(long offset, MemorySegment source) {
            beforeCall(Operation.WRITE, handle.path(), offset);
            handle.write(offset, source);
        }

        @Override
        public void force(boolean metadata) {
            beforeCall(Operation.FORCE, handle.path(), -1);
            handle.force(metadata);
        }

        @Override
        public void truncate(long size) {
            beforeCall(Operation.TRUNCATE, handle.path(), size);
            handle.truncate(size);
        }

        @Override
        public void allocate(long offset, long length) {
            beforeCall(Operation.ALLOCATE, handle.path(), offset);
            handle.allocate(offset, length);
        }

        @Override
        public void advise(long offset, long length, Advice advice) {
            handle.advise(offset, length, advice);
        }

        @Override
        public boolean direct() {
            return handle.direct();
        }

        @Override
        public int descriptor() {
            return handle.descriptor();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                openHandles.decrementAndGet();
            }
            handle.close();
        }
    }
}
