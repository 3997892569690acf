package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The real file system, through the C library: {@code open(2)} with or without {@code O_DIRECT},
 * {@code pread}/{@code preadv}/{@code pwrite}, {@code fdatasync}, {@code posix_fadvise}. Going
 * native rather than through {@code FileChannel} is what lets Columba own its I/O: the advice
 * ({@code POSIX_FADV_RANDOM}) must be given on the same descriptor the reads use, and a read-ahead
 * I/O must scatter straight into buffer-pool frames.
 */
public final class NativeFilesFacade implements FilesFacade {
    public static final NativeFilesFacade INSTANCE = new NativeFilesFacade();

    private NativeFilesFacade() {
    }

    @Override
    public FileHandle open(Path path, OpenMode mode, boolean direct) {
        int flags = LibC.O_CLOEXEC | switch (mode) {
            case READ -> LibC.O_RDONLY;
            case READ_WRITE -> LibC.O_RDWR;
            case CREATE -> LibC.O_RDWR | LibC.O_CREAT;
            case CREATE_NEW -> LibC.O_RDWR | LibC.O_CREAT | LibC.O_EXCL;
        };
        if (direct) {
            flags |= LibC.O_DIRECT;
        }
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cPath = arena.allocateFrom(path.toString());
            do {
                fd = LibC.open(cPath, flags, 0644);
            } while (fd < 0 && LibC.errno() == LibC.EINTR);
        }
        if (fd < 0) {
            throw NativeFileHandle.failure("open", path, -1, LibC.errno());
        }
        return new NativeFileHandle(path, fd, direct);
    }

    @Override
    public void syncDirectory(Path directory) {
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = LibC.open(arena.allocateFrom(directory.toString()), LibC.O_RDONLY | LibC.O_DIRECTORY | LibC.O_CLOEXEC, 0);
        }
        if (fd < 0) {
            throw NativeFileHandle.failure("open directory", directory, -1, LibC.errno());
        }
        try {
            if (LibC.fsync(fd) != 0) {
                throw NativeFileHandle.failure("fsync directory", directory, -1, LibC.errno());
            }
        } finally {
            LibC.close(fd);
        }
    }

    static ColumbaException notOpen(Path path) {
        return new ColumbaException(ErrorCode.IO_ERROR, "file " + path + " is closed");
    }
}
