package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeFileHandleTest {
    @TempDir
    Path directory;

    @Test
    void writesThenReadsBackPositionallyAndScattered() {
        Path path = directory.resolve("data");
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.CREATE_NEW, false)) {
            MemorySegment source = arena.allocate(3 * 8192);
            for (long index = 0; index < source.byteSize(); index++) {
                source.set(ValueLayout.JAVA_BYTE, index, (byte) (index * 31 + 7));
            }
            file.write(8192, source);
            assertEquals(4 * 8192, file.size());

            MemorySegment single = arena.allocate(8192);
            assertEquals(8192, file.read(2 * 8192, single));
            assertEquals(-1, single.mismatch(source.asSlice(8192, 8192)));

            MemorySegment[] frames = {arena.allocate(8192), arena.allocate(8192), arena.allocate(8192)};
            assertEquals(3 * 8192, file.readScatter(8192, frames));
            for (int frame = 0; frame < 3; frame++) {
                assertEquals(-1, frames[frame].mismatch(source.asSlice(frame * 8192L, 8192)));
            }

            assertEquals(8192, file.readScatter(3 * 8192, new MemorySegment[] {arena.allocate(8192), arena.allocate(8192)}),
                    "a scatter read past the end returns what the file has");
            file.advise(0, 0, FileHandle.Advice.DONTNEED);
            file.force(false);
        }
    }

    @Test
    void openingAMissingFileNamesItAndTheReason() {
        Path missing = directory.resolve("missing");
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> NativeFilesFacade.INSTANCE.open(missing, FilesFacade.OpenMode.READ, false));
        assertEquals(ErrorCode.IO_ERROR, error.errorCode());
        assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
        assertTrue(error.getMessage().contains("errno 2"), error.getMessage());
    }

    @Test
    void writingToAFullDeviceIsDiskFullNamingTheFile() {
        Path full = Path.of("/dev/full");
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(full, FilesFacade.OpenMode.READ_WRITE, false)) {
            MemorySegment source = arena.allocate(8192);
            ColumbaException error = assertThrows(ColumbaException.class, () -> file.write(8192, source));
            assertEquals(ErrorCode.DISK_FULL, error.errorCode(), error.getMessage());
            assertTrue(error.getMessage().contains("/dev/full") && error.getMessage().contains("offset 8192")
                    && error.getMessage().contains("errno 28"), error.getMessage());
        }
    }

    @Test
    void directReadsOfUnalignedOffsetsOrBuffersAreRejectedByTheKernelNamingFileAndOffset() {
        Path path = directory.resolve("data");
        TestFiles.writePattern(path, 64 * 1024);
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ_WRITE, true)) {
            MemorySegment aligned = arena.allocate(2 * 8192, FilesFacade.DIRECT_IO_ALIGNMENT);
            assertEquals(8192, file.read(8192, aligned.asSlice(0, 8192)));
            TestFiles.assertPattern(aligned.asSlice(0, 8192), 8192);

            assertDirectEinval(() -> file.read(100, aligned.asSlice(0, 8192)), path, "offset 100");
            assertDirectEinval(() -> file.read(8192, aligned.asSlice(1, 8192)), path, "offset 8192");
            assertDirectEinval(() -> file.readScatter(8192, new MemorySegment[] {aligned.asSlice(1, 4096)}), path,
                    "offset 8192");
            assertDirectEinval(() -> file.write(100, aligned.asSlice(0, 4096)), path, "offset 100");
        }
    }

    private static void assertDirectEinval(org.junit.jupiter.api.function.Executable call, Path path, String offset) {
        ColumbaException error = assertThrows(ColumbaException.class, call);
        assertEquals(ErrorCode.IO_ERROR, error.errorCode());
        String message = error.getMessage();
        assertTrue(message.contains(path.toString()) && message.contains(offset) && message.contains("EINVAL")
                && message.contains("O_DIRECT"), message);
    }
}
