package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The temporary file an export writes, beside its target ({@code target.columba-copy.tmp}), and
 * how it takes the target's place: synced, then renamed over it atomically. Until then the target
 * is as it was; {@link #discard} removes the temporary file.
 */
public final class ExportFile {
    private final Path target;
    private final Path temporary;
    private final String fileName;

    public ExportFile(Path target, String fileName) {
        this.target = target;
        this.temporary = target.resolveSibling(target.getFileName() + ".columba-copy.tmp");
        this.fileName = fileName;
    }

    /** Where the rows are written until {@link #publish}. */
    public Path temporary() {
        return temporary;
    }

    /** The file's name as the statement gave it, for messages. */
    public String fileName() {
        return fileName;
    }

    /**
     * Syncs the written temporary file and renames it over the target.
     *
     * @throws ColumbaException IO_ERROR if that fails
     */
    public void publish() {
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** Removes the temporary file if it is there. */
    public void discard() {
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot remove " + temporary + ": " + e.getMessage(), e);
        }
    }

    /** {@code cause} as the error of writing this file. */
    public ColumbaException failure(Exception cause) {
        return new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + fileName + ": " + cause.getMessage(), cause);
    }
}
