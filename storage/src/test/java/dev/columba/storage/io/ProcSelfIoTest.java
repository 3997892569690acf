package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcSelfIoTest {
    @TempDir
    Path directory;

    @Test
    void parsesTheKernelsFormat() {
        String text = """
                rchar: 6976
                wchar: 12
                syscr: 10
                syscw: 3
                read_bytes: 8192
                write_bytes: 4096
                cancelled_write_bytes: 512
                """;
        assertEquals(new ProcSelfIo(6976, 12, 10, 3, 8192, 4096, 512), ProcSelfIo.parse(text));
    }

    @Test
    void aMissingOrMalformedFieldIsNamed() {
        ColumbaException missing = assertThrows(ColumbaException.class,
                () -> ProcSelfIo.parse("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 5\nwrite_bytes: 6\n"));
        assertEquals(ErrorCode.IO_ERROR, missing.errorCode());
        assertTrue(missing.getMessage().contains("cancelled_write_bytes"), missing.getMessage());

        ColumbaException malformed = assertThrows(ColumbaException.class, () -> ProcSelfIo.parse("read_bytes: lots\n"));
        assertTrue(malformed.getMessage().contains("read_bytes") && malformed.getMessage().contains("'lots'"),
                malformed.getMessage());
    }

    @Test
    void differencesTakenBackwardsAreRejected() {
        ProcSelfIo earlier = new ProcSelfIo(10, 10, 1, 1, 4096, 0, 0);
        ProcSelfIo later = new ProcSelfIo(30, 11, 4, 2, 12288, 4096, 0);
        assertEquals(new ProcSelfIo(20, 1, 3, 1, 8192, 4096, 0), later.minus(earlier));
        ColumbaException error = assertThrows(ColumbaException.class, () -> earlier.minus(later));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().contains("charactersRead is -20"), error.getMessage());
    }

    /** The kernel's own counts for a write and a warm read: dirtied pages are write_bytes, cached reads are not read_bytes. */
    @Test
    void countsWhatTheKernelCountsForThisProcess() {
        assertTrue(ProcSelfIo.available());
        TestFiles.requireStorageAccounting(directory);
        Path path = directory.resolve("data");
        long size = 64 * 1024;
        try (Arena arena = Arena.ofConfined();
             FileHandle file = NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.CREATE_NEW, false)) {
            MemorySegment buffer = arena.allocate(size);
            ProcSelfIo.read();

            ProcSelfIo beforeWrite = ProcSelfIo.read();
            file.write(0, buffer);
            ProcSelfIo written = ProcSelfIo.read().minus(beforeWrite);

            ProcSelfIo beforeRead = ProcSelfIo.read();
            assertEquals(size, file.read(0, buffer));
            ProcSelfIo read = ProcSelfIo.read().minus(beforeRead);

            assertEquals(size, written.writeBytes(), "pages dirtied by a 64 KB write to a new file");
            assertTrue(written.charactersWritten() >= size && written.writeCalls() >= 1, written.toString());
            assertEquals(0, read.readBytes(), "a read of cached pages reads nothing from storage");
            assertTrue(read.charactersRead() >= size && read.readCalls() >= 1, read.toString());
        }
    }
}
