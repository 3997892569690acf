package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.function.Executable;

/**
 * Every one-bit flip of a checksummed text file ({@code columba.properties}, {@code data/files.properties},
 * storage's {@code SealedPropertiesFile}): each must be refused by its reader with a corruption code
 * naming the file, which stays as it was.
 */
final class SealedFileFlips {
    private SealedFileFlips() {
    }

    /** Writes each one-bit flip of {@code golden} to {@code file} and runs {@code read}, which must refuse it. */
    static void assertEachRefused(byte[] golden, Path file, Executable read) throws IOException {
        int refused = 0;
        for (int offset = 0; offset < golden.length; offset++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] damaged = golden.clone();
                damaged[offset] ^= (byte) (1 << bit);
                Files.write(file, damaged);
                String flip = "offset " + offset + " bit " + bit;
                ColumbaException error = assertThrows(ColumbaException.class, read, flip);
                assertEquals(ErrorCode.Category.CORRUPTION, error.errorCode().category(), () -> flip + ": " + error.getMessage());
                assertTrue(error.getMessage().contains(file.toString()), () -> flip + ": " + error.getMessage());
                assertArrayEquals(damaged, Files.readAllBytes(file), flip);
                refused++;
            }
        }
        assertEquals(golden.length * 8, refused);
    }

    /**
     * A damaged {@code file} of database {@code directory} (its bytes now {@code damaged}) makes
     * {@code open} refuse the opening with a checksum error that names it and points to {@code
     * --reseal-properties}; the file is left as it was, and nothing is written beside it or moved to
     * {@code damaged/}.
     */
    static void assertOpeningRefused(Path directory, Path file, byte[] damaged, Executable open) throws IOException {
        ColumbaException refused = assertThrows(ColumbaException.class, open);
        assertEquals(ErrorCode.PAGE_CHECKSUM_MISMATCH, refused.errorCode(), refused::getMessage);
        assertTrue(refused.detail().startsWith(file + " is corrupt: its checksum line"), refused.getMessage());
        assertTrue(refused.getMessage().contains("--reseal-properties"), refused.getMessage());
        assertArrayEquals(damaged, Files.readAllBytes(file));
        assertFalse(Files.exists(file.resolveSibling(file.getFileName() + ".tmp")));
        assertFalse(Files.exists(DatabaseLayout.damagedDirectory(directory)));
    }
}
