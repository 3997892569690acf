package dev.columba.storage.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
