package dev.columba.storage.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * Downcalls into the C library through the FFM API (Linux, x86-64 and AArch64). Each call returns
 * the raw result; on failure, {@link #errno()} holds the error of the last call made by this
 * thread through this class.
 */
final class LibC {
    static final int O_RDONLY = 0;
    static final int O_RDWR = 2;
    static final int O_CREAT = 0x40;
    static final int O_EXCL = 0x80;
    static final int O_CLOEXEC = 0x80000;
    static final int O_DIRECT = isAarch64() ? 0x10000 : 0x4000;
    static final int O_DIRECTORY = isAarch64() ? 0x4000 : 0x10000;

    static final int POSIX_FADV_NORMAL = 0;
    static final int POSIX_FADV_RANDOM = 1;
    static final int POSIX_FADV_SEQUENTIAL = 2;
    static final int POSIX_FADV_WILLNEED = 3;
    static final int POSIX_FADV_DONTNEED = 4;

    static final int SEEK_END = 2;

    static final int PROT_READ = 1;
    static final int PROT_WRITE = 2;
    static final int MAP_SHARED = 1;
    static final int MAP_PRIVATE = 2;
    /** The same on x86-64 and AArch64 Linux. */
    static final int MAP_ANONYMOUS = 0x20;
    /** {@code mmap}'s failure value, {@code (void *) -1}. */
    static final long MAP_FAILED = -1L;

    /** {@code madvise(2)} advice; the same numbers on x86-64 and AArch64. */
    static final int MADV_NORMAL = 0;
    static final int MADV_RANDOM = 1;
    static final int MADV_SEQUENTIAL = 2;
    static final int MADV_WILLNEED = 3;
    static final int MADV_DONTNEED = 4;

    /** {@code sysconf} name of the page size in the GNU C library on Linux (and musl). */
    static final int SC_PAGESIZE = 30;

    static final int EINTR = 4;
    static final int ENOENT = 2;
    static final int EAGAIN = 11;
    static final int EINVAL = 22;
    static final int EEXIST = 17;
    static final int ENOSPC = 28;
    static final int EOPNOTSUPP = 95;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LOOKUP = LINKER.defaultLookup();
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /** Per-thread capture buffer for errno; lives as long as the thread. */
    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    private static final MethodHandle OPEN = downcall("open",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle PREAD = downcall("pread",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle PREADV = downcall("preadv",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle PWRITE = downcall("pwrite",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle FSYNC = downcall("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle FDATASYNC =
            downcall("fdatasync", FunctionDescriptor.of(JAVA_INT, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle FTRUNCATE =
            downcall("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle FALLOCATE = downcall("fallocate",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle LSEEK =
            downcall("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT), CAPTURE_ERRNO);
    /** Returns the error number itself rather than setting errno. */
    private static final MethodHandle POSIX_FADVISE = downcall("posix_fadvise",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle MMAP = downcall("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle MUNMAP =
            downcall("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle MADVISE =
            downcall("madvise", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle MINCORE =
            downcall("mincore", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle SYSCONF =
            downcall("sysconf", FunctionDescriptor.of(JAVA_LONG, JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle STRERROR = downcall("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));

    /** {@code struct iovec}: base pointer and length. */
    static final StructLayout IOVEC = MemoryLayout.structLayout(ADDRESS.withName("iov_base"), JAVA_LONG.withName("iov_len"));

    private LibC() {
    }

    private static boolean isAarch64() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return arch.equals("aarch64") || arch.equals("arm64");
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LOOKUP.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("C library function " + name + " not found"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** The errno captured by this thread's last call. */
    static int errno() {
        return (int) ERRNO.get(CAPTURE.get(), 0L);
    }

    static String strerror(int errno) {
        try {
            MemorySegment message = (MemorySegment) STRERROR.invokeExact(errno);
            return message.reinterpret(1024).getString(0);
        } catch (Throwable e) {
            return "errno " + errno;
        }
    }

    static int open(MemorySegment path, int flags, int mode) {
        try {
            return (int) OPEN.invokeExact(CAPTURE.get(), path, flags, mode);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(CAPTURE.get(), fd);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long pread(int fd, MemorySegment buffer, long count, long offset) {
        try {
            return (long) PREAD.invokeExact(CAPTURE.get(), fd, buffer, count, offset);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long preadv(int fd, MemorySegment iovecs, int count, long offset) {
        try {
            return (long) PREADV.invokeExact(CAPTURE.get(), fd, iovecs, count, offset);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long pwrite(int fd, MemorySegment buffer, long count, long offset) {
        try {
            return (long) PWRITE.invokeExact(CAPTURE.get(), fd, buffer, count, offset);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int fsync(int fd) {
        try {
            return (int) FSYNC.invokeExact(CAPTURE.get(), fd);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int fdatasync(int fd) {
        try {
            return (int) FDATASYNC.invokeExact(CAPTURE.get(), fd);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int ftruncate(int fd, long length) {
        try {
            return (int) FTRUNCATE.invokeExact(CAPTURE.get(), fd, length);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int fallocate(int fd, int mode, long offset, long length) {
        try {
            return (int) FALLOCATE.invokeExact(CAPTURE.get(), fd, mode, offset, length);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long lseek(int fd, long offset, int whence) {
        try {
            return (long) LSEEK.invokeExact(CAPTURE.get(), fd, offset, whence);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** Returns 0 or the error number. */
    static int posixFadvise(int fd, long offset, long length, int advice) {
        try {
            return (int) POSIX_FADVISE.invokeExact(fd, offset, length, advice);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * Maps {@code length} bytes of {@code fd} at {@code offset} (a multiple of the page size).
     *
     * @return the mapping's address, or {@link #MAP_FAILED}
     */
    static long mmap(long length, int protection, int flags, int fd, long offset) {
        try {
            MemorySegment address =
                    (MemorySegment) MMAP.invokeExact(CAPTURE.get(), MemorySegment.NULL, length, protection, flags, fd, offset);
            return address.address();
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static int munmap(long address, long length) {
        try {
            return (int) MUNMAP.invokeExact(CAPTURE.get(), MemorySegment.ofAddress(address), length);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /** {@code address} must be a multiple of the page size. */
    static int madvise(long address, long length, int advice) {
        try {
            return (int) MADVISE.invokeExact(CAPTURE.get(), MemorySegment.ofAddress(address), length, advice);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    /**
     * Writes one byte per page of {@code [address, address + length)} into {@code vector}, bit 0 set
     * when the page is resident. {@code address} must be a multiple of the page size.
     */
    static int mincore(long address, long length, MemorySegment vector) {
        try {
            return (int) MINCORE.invokeExact(CAPTURE.get(), MemorySegment.ofAddress(address), length, vector);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    static long sysconf(int name) {
        try {
            return (long) SYSCONF.invokeExact(CAPTURE.get(), name);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static RuntimeException rethrow(Throwable e) {
        if (e instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (e instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("native call failed", e);
    }
}
