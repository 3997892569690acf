package dev.columba.storage.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FaultInjectingFilesFacade.Failure;
import dev.columba.storage.io.FaultInjectingFilesFacade.Operation;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FaultInjectingFilesFacadeTest {
    private static final int BLOCK = 4096;

    @TempDir
    Path directory;

    private final FaultInjectingFilesFacade files = new FaultInjectingFilesFacade(NativeFilesFacade.INSTANCE);

    @Test
    void failsExactlyTheNthWriteOnMatchingFilesAndPassesEverythingElseThrough() {
        Path data = directory.resolve("data-1");
        Path log = directory.resolve("log-1");
        files.failNth(Operation.WRITE, 3, "data-.*", Failure.DISK_FULL);
        try (Arena arena = Arena.ofConfined();
             FileHandle dataFile = files.open(data, FilesFacade.OpenMode.CREATE_NEW, false);
             FileHandle logFile = files.open(log, FilesFacade.OpenMode.CREATE_NEW, false)) {
            for (int block = 0; block < 5; block++) {
                logFile.write((long) block * BLOCK, filled(arena, block + 1));
                long offset = (long) block * BLOCK;
                MemorySegment source = filled(arena, block + 1);
                if (block == 2) {
                    ColumbaException error = assertThrows(ColumbaException.class, () -> dataFile.write(offset, source));
                    assertEquals(ErrorCode.DISK_FULL, error.errorCode());
                    assertTrue(error.getMessage().contains(data.toString()) && error.getMessage().contains("offset 8192")
                            && error.getMessage().contains("injected"), error.getMessage());
                } else {
                    dataFile.write(offset, source);
                }
            }
            assertEquals(10, files.calls(Operation.WRITE));
            assertEquals(1, files.injectedFailures());
            assertEquals(2, files.openHandles());
        }
        assertEquals(0, files.openHandles());

        // What reached the disk, read without the facade: every write but the failed one.
        try (Arena arena = Arena.ofConfined();
             FileHandle dataFile = NativeFilesFacade.INSTANCE.open(data, FilesFacade.OpenMode.READ, false);
             FileHandle logFile = NativeFilesFacade.INSTANCE.open(log, FilesFacade.OpenMode.READ, false)) {
            MemorySegment block = arena.allocate(BLOCK);
            for (int index = 0; index < 5; index++) {
                logFile.read((long) index * BLOCK, block);
                assertEquals(-1, block.mismatch(filled(arena, index + 1)), "log block " + index);
                dataFile.read((long) index * BLOCK, block);
                assertEquals(-1, block.mismatch(filled(arena, index == 2 ? 0 : index + 1)), "data block " + index);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Operation.class)
    void eachOperationCanBeFailedOnceAndThenWorksAgain(Operation operation) {
        Path path = directory.resolve("file");
        TestFiles.writePattern(path, 2 * BLOCK);
        files.failNth(operation, 1, FaultInjectingFilesFacade.ANY_FILE, Failure.IO_ERROR);
        try (Arena arena = Arena.ofConfined()) {
            if (operation == Operation.OPEN) {
                ColumbaException error = assertThrows(ColumbaException.class,
                        () -> files.open(path, FilesFacade.OpenMode.READ_WRITE, false));
                assertEquals(ErrorCode.IO_ERROR, error.errorCode());
                assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
                assertEquals(0, files.openHandles(), "a failed open leaves nothing open");
            }
            try (FileHandle file = files.open(path, FilesFacade.OpenMode.READ_WRITE, false)) {
                if (operation != Operation.OPEN) {
                    ColumbaException error = assertThrows(ColumbaException.class, () -> perform(operation, file, arena));
                    assertEquals(ErrorCode.IO_ERROR, error.errorCode());
                    assertTrue(error.getMessage().contains(path.toString()), error.getMessage());
                }
                perform(operation, file, arena);
            }
        }
        assertEquals(2, files.calls(operation));
        assertEquals(1, files.injectedFailures());
    }

    @Test
    void aFailedOpenNeverReachesTheFileSystem() {
        Path path = directory.resolve("never-created");
        files.failNth(Operation.OPEN, 1, "never-.*", Failure.DISK_FULL);
        assertEquals(ErrorCode.DISK_FULL, assertThrows(ColumbaException.class,
                () -> files.open(path, FilesFacade.OpenMode.CREATE_NEW, false)).errorCode());
        assertFalse(Files.exists(path));
    }

    @Test
    void aDyingDiskFailsEveryWriteAndForceUntilHealed() {
        Path path = directory.resolve("file");
        TestFiles.writePattern(path, 2 * BLOCK);
        try (Arena arena = Arena.ofConfined(); FileHandle file = files.open(path, FilesFacade.OpenMode.READ_WRITE, false)) {
            file.write(0, filled(arena, 7));
            files.failEveryWriteFromNow(Failure.IO_ERROR);
            for (int attempt = 0; attempt < 3; attempt++) {
                assertEquals(ErrorCode.IO_ERROR,
                        assertThrows(ColumbaException.class, () -> file.write(BLOCK, filled(arena, 9))).errorCode());
                assertEquals(ErrorCode.IO_ERROR, assertThrows(ColumbaException.class, () -> file.force(false)).errorCode());
            }
            MemorySegment block = arena.allocate(BLOCK);
            assertEquals(BLOCK, file.read(BLOCK, block), "reads still work on a disk that cannot write");
            TestFiles.assertPattern(block, BLOCK);
            assertEquals(6, files.injectedFailures());

            files.heal();
            file.write(BLOCK, filled(arena, 9));
            file.force(false);
            assertEquals(BLOCK, file.read(BLOCK, block));
            assertEquals(-1, block.mismatch(filled(arena, 9)));
            assertEquals(5, files.calls(Operation.WRITE));
            assertEquals(4, files.calls(Operation.FORCE));
        }
    }

    @Test
    void faultsCountOnlyTheirOwnOperationAndFiles() {
        Path data = directory.resolve("data");
        Path other = directory.resolve("other");
        TestFiles.writePattern(data, 4 * BLOCK);
        TestFiles.writePattern(other, 4 * BLOCK);
        files.failNth(Operation.READ, 2, "data", Failure.IO_ERROR);
        try (Arena arena = Arena.ofConfined();
             FileHandle dataFile = files.open(data, FilesFacade.OpenMode.READ, false);
             FileHandle otherFile = files.open(other, FilesFacade.OpenMode.READ, false)) {
            MemorySegment block = arena.allocate(BLOCK);
            otherFile.read(0, block);
            otherFile.read(0, block);
            dataFile.readScatter(0, new MemorySegment[] {block});
            dataFile.read(0, block);
            assertThrows(ColumbaException.class, () -> dataFile.read(BLOCK, block));
            dataFile.read(2 * BLOCK, block);
            TestFiles.assertPattern(block, 2 * BLOCK);
        }
        assertEquals(5, files.calls(Operation.READ));
        assertEquals(1, files.calls(Operation.READ_SCATTER));
        assertEquals(1, files.injectedFailures());
    }

    @Test
    void theCallToFailIsCountedFromOne() {
        assertEquals(ErrorCode.INVALID_ARGUMENT, assertThrows(ColumbaException.class,
                () -> files.failNth(Operation.WRITE, 0, FaultInjectingFilesFacade.ANY_FILE, Failure.IO_ERROR)).errorCode());
    }

    private static void perform(Operation operation, FileHandle file, Arena arena) {
        switch (operation) {
            case OPEN -> assertEquals(2 * BLOCK, file.size());
            case READ -> assertEquals(BLOCK, file.read(BLOCK, arena.allocate(BLOCK)));
            case READ_SCATTER -> assertEquals(2 * BLOCK,
                    file.readScatter(0, new MemorySegment[] {arena.allocate(BLOCK), arena.allocate(BLOCK)}));
            case WRITE -> file.write(0, filled(arena, 3));
            case FORCE -> file.force(true);
            case TRUNCATE -> {
                file.truncate(BLOCK);
                assertEquals(BLOCK, file.size());
            }
            case ALLOCATE -> {
                file.allocate(0, 4 * BLOCK);
                assertEquals(4 * BLOCK, file.size());
            }
        }
    }

    private static MemorySegment filled(Arena arena, int value) {
        MemorySegment block = arena.allocate(BLOCK);
        block.fill((byte) value);
        return block;
    }
}
