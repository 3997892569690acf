package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/** A file opened through {@link NativeFilesFacade}. */
final class NativeFileHandle implements FileHandle {
    /** Linux's {@code IOV_MAX}: the most segments one {@code preadv} takes. */
    private static final int IOV_MAX = 1024;

    private final Path path;
    private final boolean direct;
    private volatile int fd;

    NativeFileHandle(Path path, int fd, boolean direct) {
        this.path = path;
        this.fd = fd;
        this.direct = direct;
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public boolean direct() {
        return direct;
    }

    @Override
    public int descriptor() {
        return checkOpen();
    }

    @Override
    public long size() {
        long size = LibC.lseek(checkOpen(), 0, LibC.SEEK_END);
        if (size < 0) {
            throw failure("lseek", path, -1, LibC.errno());
        }
        return size;
    }

    /** Native calls need native memory: heap segments are staged through a buffer this big. */
    private static final long STAGING_BYTES = 1 << 20;

    @Override
    public long read(long offset, MemorySegment target) {
        if (!target.isNative()) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment staging = arena.allocate(Math.min(STAGING_BYTES, Math.max(1, target.byteSize())), 4096);
                long done = 0;
                while (done < target.byteSize()) {
                    long chunk = Math.min(staging.byteSize(), target.byteSize() - done);
                    long read = read(offset + done, staging.asSlice(0, chunk));
                    MemorySegment.copy(staging, 0, target, done, read);
                    done += read;
                    if (read < chunk) {
                        break;
                    }
                }
                return done;
            }
        }
        int descriptor = checkOpen();
        long done = 0;
        long length = target.byteSize();
        while (done < length) {
            long n = LibC.pread(descriptor, target.asSlice(done), length - done, offset + done);
            if (n < 0) {
                int errno = LibC.errno();
                if (errno == LibC.EINTR) {
                    continue;
                }
                throw failure("pread", offset + done, length - done, target.asSlice(done), errno);
            }
            if (n == 0) {
                break;
            }
            done += n;
        }
        return done;
    }

    @Override
    public long readScatter(long offset, MemorySegment[] targets) {
        int descriptor = checkOpen();
        long total = 0;
        for (MemorySegment target : targets) {
            total += target.byteSize();
        }
        try (Arena arena = Arena.ofConfined()) {
            long done = 0;
            int first = 0;
            long firstSkip = 0;
            MemorySegment iovecs = arena.allocate(LibC.IOVEC, Math.min(targets.length, IOV_MAX));
            while (done < total) {
                int count = 0;
                for (int index = first; index < targets.length && count < IOV_MAX; index++, count++) {
                    long skip = index == first ? firstSkip : 0;
                    MemorySegment slice = targets[index].asSlice(skip);
                    iovecs.setAtIndex(ValueLayout.ADDRESS, count * 2L, slice);
                    iovecs.setAtIndex(ValueLayout.JAVA_LONG, count * 2L + 1, slice.byteSize());
                }
                long n = LibC.preadv(descriptor, iovecs, count, offset + done);
                if (n < 0) {
                    int errno = LibC.errno();
                    if (errno == LibC.EINTR) {
                        continue;
                    }
                    throw failure("preadv", offset + done, total - done, targets[first].asSlice(firstSkip), errno);
                }
                if (n == 0) {
                    break;
                }
                done += n;
                // Advance (first, firstSkip) past the n bytes just read.
                long remaining = n;
                while (remaining > 0) {
                    long left = targets[first].byteSize() - firstSkip;
                    if (remaining >= left) {
                        remaining -= left;
                        first++;
                        firstSkip = 0;
                    } else {
                        firstSkip += remaining;
                        remaining = 0;
                    }
                }
            }
            return done;
        }
    }

    @Override
    public void write(long offset, MemorySegment source) {
        if (!source.isNative()) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment staging = arena.allocate(Math.min(STAGING_BYTES, Math.max(1, source.byteSize())), 4096);
                for (long done = 0; done < source.byteSize(); ) {
                    long chunk = Math.min(staging.byteSize(), source.byteSize() - done);
                    MemorySegment.copy(source, done, staging, 0, chunk);
                    write(offset + done, staging.asSlice(0, chunk));
                    done += chunk;
                }
            }
            return;
        }
        int descriptor = checkOpen();
        long done = 0;
        long length = source.byteSize();
        while (done < length) {
            long n = LibC.pwrite(descriptor, source.asSlice(done), length - done, offset + done);
            if (n < 0) {
                int errno = LibC.errno();
                if (errno == LibC.EINTR) {
                    continue;
                }
                throw failure("pwrite", offset + done, length - done, source.asSlice(done), errno);
            }
            done += n;
        }
    }

    @Override
    public void force(boolean metadata) {
        int descriptor = checkOpen();
        int result = metadata ? LibC.fsync(descriptor) : LibC.fdatasync(descriptor);
        if (result != 0) {
            throw failure(metadata ? "fsync" : "fdatasync", path, -1, LibC.errno());
        }
    }

    @Override
    public void truncate(long size) {
        if (LibC.ftruncate(checkOpen(), size) != 0) {
            throw failure("ftruncate", path, size, LibC.errno());
        }
    }

    @Override
    public void allocate(long offset, long length) {
        int result;
        do {
            result = LibC.fallocate(checkOpen(), 0, offset, length);
        } while (result != 0 && LibC.errno() == LibC.EINTR);
        if (result != 0) {
            int errno = LibC.errno();
            if (errno == LibC.EOPNOTSUPP) {
                // A file system without fallocate: extend by writing instead; space is then not reserved.
                if (size() < offset + length) {
                    truncate(offset + length);
                }
                return;
            }
            throw failure("fallocate", path, offset, errno);
        }
    }

    @Override
    public void advise(long offset, long length, Advice advice) {
        int code = switch (advice) {
            case NORMAL -> LibC.POSIX_FADV_NORMAL;
            case RANDOM -> LibC.POSIX_FADV_RANDOM;
            case SEQUENTIAL -> LibC.POSIX_FADV_SEQUENTIAL;
            case WILLNEED -> LibC.POSIX_FADV_WILLNEED;
            case DONTNEED -> LibC.POSIX_FADV_DONTNEED;
        };
        int errno = LibC.posixFadvise(checkOpen(), offset, length, code);
        if (errno != 0) {
            throw failure("posix_fadvise(" + advice + ")", path, offset, errno);
        }
    }

    @Override
    public synchronized void close() {
        int descriptor = fd;
        if (descriptor < 0) {
            return;
        }
        fd = -1;
        if (LibC.close(descriptor) != 0) {
            throw failure("close", path, -1, LibC.errno());
        }
    }

    private int checkOpen() {
        int descriptor = fd;
        if (descriptor < 0) {
            throw NativeFilesFacade.notOpen(path);
        }
        return descriptor;
    }

    /**
     * A failed read or write. With {@code O_DIRECT}, {@code EINVAL} almost always means a misaligned
     * offset, length or buffer, so the message gives all three.
     */
    private ColumbaException failure(String call, long offset, long length, MemorySegment buffer, int errno) {
        if (!direct || errno != LibC.EINVAL) {
            return failure(call, path, offset, errno);
        }
        return new ColumbaException(ErrorCode.IO_ERROR, call + " failed on " + path + " at offset " + offset + ": "
                + LibC.strerror(errno) + " (errno " + errno + ", EINVAL): the file is open with O_DIRECT, which needs"
                + " the offset, the length and the buffer address aligned to the device's block size (Columba aligns"
                + " to " + FilesFacade.DIRECT_IO_ALIGNMENT + "); here offset " + offset + ", length " + length
                + ", buffer address 0x" + Long.toHexString(buffer.address()));
    }

    static ColumbaException failure(String call, Path path, long offset, int errno) {
        ErrorCode code = errno == LibC.ENOSPC ? ErrorCode.DISK_FULL : ErrorCode.IO_ERROR;
        String where = offset >= 0 ? " at offset " + offset : "";
        return new ColumbaException(code, call + " failed on " + path + where + ": " + LibC.strerror(errno)
                + " (errno " + errno + ")");
    }
}
