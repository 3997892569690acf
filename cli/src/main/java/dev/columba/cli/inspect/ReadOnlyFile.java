package dev.columba.cli.inspect;

import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import dev.columba.storage.io.NativeFilesFacade;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * A file opened read-only through storage's {@link FilesFacade}: inspect never opens anything for
 * writing, so it cannot change what it looks at. Not thread-safe; close to release the descriptor.
 */
final class ReadOnlyFile implements AutoCloseable {
    private final FileHandle file;

    private ReadOnlyFile(FileHandle file) {
        this.file = file;
    }

    static ReadOnlyFile open(Path path) {
        return new ReadOnlyFile(NativeFilesFacade.INSTANCE.open(path, FilesFacade.OpenMode.READ, false));
    }

    Path path() {
        return file.path();
    }

    long size() {
        return file.size();
    }

    /** Fills {@code target} from {@code offset}; returns the bytes read, fewer only at the end of the file. */
    long read(long offset, MemorySegment target) {
        return file.read(offset, target);
    }

    /** Up to {@code length} bytes from {@code offset}: fewer when the file ends first. */
    byte[] bytes(long offset, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(Math.max(1, length));
            int read = (int) file.read(offset, buffer.asSlice(0, length));
            return buffer.asSlice(0, read).toArray(ValueLayout.JAVA_BYTE);
        }
    }

    @Override
    public void close() {
        file.close();
    }
}
