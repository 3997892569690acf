package dev.columba.storage.io;

import java.nio.file.Path;

/**
 * The one door to the file system for every file Columba reads or writes, so that tests can put
 * a fault-injecting implementation in front of the real one (QuestDB's {@code FilesFacade},
 * LevelDB's {@code Env}). Errors surface as {@link dev.columba.core.error.ColumbaException}s
 * naming the file and, where there is one, the offset.
 */
public interface FilesFacade {

    /** How a file is opened. */
    enum OpenMode {
        /** Read only; the file must exist. */
        READ,
        /** Read and write; the file must exist. */
        READ_WRITE,
        /** Read and write; the file is created if missing. */
        CREATE,
        /** Read and write; the file must not exist. */
        CREATE_NEW
    }

    /**
     * Opens {@code path}. With {@code direct} the file bypasses the page cache ({@code O_DIRECT}):
     * offsets, lengths and buffer addresses must then be multiples of {@link #DIRECT_IO_ALIGNMENT}.
     */
    FileHandle open(Path path, OpenMode mode, boolean direct);

    /** Forces the directory entry of a newly created or renamed file to storage. */
    void syncDirectory(Path directory);

    /** Alignment of offsets, lengths and addresses that {@code O_DIRECT} requires here. */
    int DIRECT_IO_ALIGNMENT = 4096;
}
