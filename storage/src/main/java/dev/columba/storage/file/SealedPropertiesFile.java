package dev.columba.storage.file;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;
import java.util.Properties;
import java.util.zip.CRC32C;

/**
 * A small properties text file whose last line is {@code checksum=<8 lowercase hex digits>\n}, the
 * CRC32C of every byte before that line (docs/format/database-directory.md): {@code columba.properties}
 * from directory format version 3 and {@code data/files.properties} from manifest format version 2.
 * The checksum is checked before the text is parsed, whatever version the text claims, so a damaged
 * byte that would still parse (a setting's digit, a filegroup's name) is refused with the file named
 * and cannot change how a database is opened. Reading never changes the file; writing replaces it
 * atomically (temporary file, fsync, rename, directory fsync).
 */
public final class SealedPropertiesFile {
    /** The last line: this prefix, eight lowercase hexadecimal digits, a newline. */
    public static final String CHECKSUM_PREFIX = "checksum=";
    private static final int CHECKSUM_LINE_LENGTH = CHECKSUM_PREFIX.length() + 8 + 1;
    private static final String UNCHANGED = "; the file was not changed";

    /**
     * A file's bytes as read, and where its checksum line starts (-1 when its last line does not
     * start with the word {@code checksum}: a file of an older version, or damaged there).
     */
    public record Contents(Path path, byte[] bytes, int checksumLine) {
        public boolean sealed() {
            return checksumLine >= 0;
        }

        /** The bytes the checksum covers, or the whole file when it has no checksum line. */
        public int bodyLength() {
            return sealed() ? checksumLine : bytes.length;
        }
    }

    private SealedPropertiesFile() {
    }

    /**
     * Reads the file and, if it ends with a checksum line, checks it.
     *
     * @param advice what a person can do about a damaged file, appended to the error
     * @throws ColumbaException PAGE_CHECKSUM_MISMATCH naming the file, the offset and both values;
     *         IO_ERROR if it cannot be read
     */
    public static Contents readVerified(Path path, String advice) {
        Contents contents = read(path);
        if (contents.sealed()) {
            verify(contents, advice);
        }
        return contents;
    }

    /** Reads the file without checking anything. */
    public static Contents read(Path path) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + path + ": " + e, e);
        }
        return new Contents(path, bytes, checksumLine(bytes));
    }

    /**
     * The text of the first {@code length} bytes as properties.
     *
     * @throws ColumbaException FILE_MAGIC_MISMATCH naming the file when they are not UTF-8 or not a
     *         properties text
     */
    public static Properties parse(Contents contents, int length) {
        Path path = contents.path();
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(contents.bytes(), 0, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " is not UTF-8 text (" + e + ")" + UNCHANGED, e);
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.FILE_MAGIC_MISMATCH, path + " is not a readable properties file: "
                    + e.getMessage() + UNCHANGED, e);
        }
        return properties;
    }

    /** The error for a file of a version that must end with a checksum line but does not. */
    public static ColumbaException missingChecksum(Path path, int version, String advice) {
        return new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, path + " is corrupt: it has format version "
                + version + " but does not end with its " + CHECKSUM_PREFIX + " line" + UNCHANGED + advice);
    }

    /** {@code body} (whole lines) followed by its checksum line, in UTF-8. */
    public static byte[] seal(String body) {
        byte[] text = body.getBytes(StandardCharsets.UTF_8);
        byte[] line = (CHECKSUM_PREFIX + HexFormat.of().toHexDigits(crc(text, text.length)) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = new byte[text.length + line.length];
        System.arraycopy(text, 0, sealed, 0, text.length);
        System.arraycopy(line, 0, sealed, text.length, line.length);
        return sealed;
    }

    /** Replaces {@code path} with {@code bytes} atomically: a temporary file beside it, fsync, rename, directory fsync. */
    public static void replace(FilesFacade files, Path path, byte[] bytes) {
        Path temporary = path.resolveSibling(path.getFileName() + ".tmp");
        try {
            Files.write(temporary, bytes);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + temporary + ": " + e.getMessage(), e);
        }
        try (FileHandle file = files.open(temporary, FilesFacade.OpenMode.READ_WRITE, false)) {
            file.force(true);
        }
        try {
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot replace " + path + ": " + e, e);
        }
        files.syncDirectory(path.getParent());
    }

    /** Where the last line starts (the length of the file when it ends without a newline after a newline). */
    public static int lastLineStart(byte[] bytes) {
        int start = bytes.length > 0 && bytes[bytes.length - 1] == '\n' ? bytes.length - 1 : bytes.length;
        while (start > 0 && bytes[start - 1] != '\n') {
            start--;
        }
        return start;
    }

    private static int checksumLine(byte[] bytes) {
        int start = lastLineStart(bytes);
        byte[] word = CHECKSUM_PREFIX.substring(0, CHECKSUM_PREFIX.length() - 1).getBytes(StandardCharsets.US_ASCII);
        if (bytes.length - start < word.length) {
            return -1;
        }
        for (int index = 0; index < word.length; index++) {
            if (bytes[start + index] != word[index]) {
                return -1;
            }
        }
        return start;
    }

    private static void verify(Contents contents, String advice) {
        Path path = contents.path();
        byte[] bytes = contents.bytes();
        int checksumLine = contents.checksumLine();
        String line = new String(bytes, checksumLine, bytes.length - checksumLine, StandardCharsets.ISO_8859_1);
        int computed = crc(bytes, checksumLine);
        if (bytes.length - checksumLine != CHECKSUM_LINE_LENGTH || !line.startsWith(CHECKSUM_PREFIX)
                || !line.endsWith("\n") || !lowercaseHex(line.substring(CHECKSUM_PREFIX.length(), line.length() - 1))) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, path + " is corrupt: its last line, at offset "
                    + checksumLine + ", is '" + line.strip() + "', not " + CHECKSUM_PREFIX + "<8 lowercase hex digits>"
                    + " (the bytes before it give " + HexFormat.of().toHexDigits(computed) + ")" + UNCHANGED + advice);
        }
        int stored = HexFormat.fromHexDigits(line, CHECKSUM_PREFIX.length(), line.length() - 1);
        if (stored != computed) {
            throw new ColumbaException(ErrorCode.PAGE_CHECKSUM_MISMATCH, String.format(
                    "%s is corrupt: its checksum line at offset %d says %08x, the %d bytes before it give %08x%s%s",
                    path, checksumLine, stored, checksumLine, computed, UNCHANGED, advice));
        }
    }

    private static boolean lowercaseHex(String digits) {
        return digits.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
