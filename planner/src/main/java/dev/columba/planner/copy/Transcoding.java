package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * COPY's {@code ENCODING} for files not in UTF-8. The CSV parser works on UTF-8 bytes (only its
 * ASCII bytes mean anything to it, which would not hold for UTF-16 or Shift JIS), so another
 * encoding is transcoded to a UTF-8 copy beside the database's other temporary files before the
 * parse, and an export is written in UTF-8 and transcoded into the target. Line breaks map one to
 * one, so errors still name the original file's lines. A byte sequence that is not valid in the
 * file's encoding, or a character the target's cannot hold, is an error (22023), never replaced.
 */
public final class Transcoding {
    private Transcoding() {
    }

    /**
     * The charset of a COPY {@code ENCODING} value: PostgreSQL's names ({@code UTF8},
     * {@code LATIN1}..{@code LATIN10}, {@code WIN1250}..{@code WIN1258}, {@code SQL_ASCII},
     * {@code EUC_JP}, {@code SJIS}, ...) or any name Java knows.
     *
     * @throws ColumbaException INVALID_ARGUMENT (22023) for an encoding neither knows
     */
    public static Charset charset(String encoding) {
        String canonical = encoding.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
        String java = switch (canonical) {
            case "UTF8", "UNICODE" -> "UTF-8";
            case "SQLASCII" -> "US-ASCII";
            case "LATIN1" -> "ISO-8859-1";
            case "LATIN2" -> "ISO-8859-2";
            case "LATIN3" -> "ISO-8859-3";
            case "LATIN4" -> "ISO-8859-4";
            case "LATIN5" -> "ISO-8859-9";
            case "LATIN7" -> "ISO-8859-13";
            case "LATIN9" -> "ISO-8859-15";
            case "EUCJP" -> "EUC-JP";
            case "EUCKR" -> "EUC-KR";
            case "SJIS" -> "Shift_JIS";
            case "KOI8R" -> "KOI8-R";
            default -> canonical.startsWith("WIN") && canonical.length() == 7 ? "windows-" + canonical.substring(3) : encoding;
        };
        try {
            return Charset.forName(java);
        } catch (IllegalArgumentException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "COPY ENCODING '" + encoding + "' is unknown; give"
                    + " PostgreSQL's name (UTF8, LATIN1, WIN1252, SJIS, ...) or Java's");
        }
    }

    /**
     * A UTF-8 copy of {@code file} (in {@code encoding}), made in {@code directory}; the caller
     * deletes it.
     */
    public static Path toUtf8(Path file, String fileName, Charset encoding, Path directory) {
        Path copy = temporary(directory, fileName);
        CharsetDecoder decoder = encoding.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (BufferedReader in = new BufferedReader(new InputStreamReader(Files.newInputStream(file), decoder), 1 << 16);
             BufferedWriter out = Files.newBufferedWriter(copy, StandardCharsets.UTF_8)) {
            transfer(in, out, fileName, "is not valid " + encoding.name());
        } catch (IOException | RuntimeException e) {
            deleteQuietly(copy);
            throw e instanceof ColumbaException columba ? columba : failure(e, "cannot read " + fileName);
        }
        return copy;
    }

    /**
     * Writes {@code utf8} (a UTF-8 file) into {@code target} in {@code encoding}: into a sibling
     * temporary file, synced and renamed over the target, so a failed export leaves the target as it
     * was (as {@link CsvWriter} does).
     */
    public static void fromUtf8(Path utf8, Path target, String targetName, Charset encoding) {
        CharsetEncoder encoder = encoding.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        Path temporary = target.resolveSibling(target.getFileName() + ".columba-copy.tmp");
        try {
            try (BufferedReader in = Files.newBufferedReader(utf8, StandardCharsets.UTF_8);
                 BufferedWriter out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(temporary), encoder),
                         1 << 16)) {
                transfer(in, out, targetName, "holds a character " + encoding.name() + " cannot encode");
            }
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temporary);
            throw e instanceof ColumbaException columba ? columba : failure(e, "cannot write " + targetName);
        }
    }

    /** A new temporary file in {@code directory} for the transcoded copy of {@code fileName}. */
    public static Path temporary(Path directory, String fileName) {
        try {
            Files.createDirectories(directory);
            return Files.createTempFile(directory, "copy-", ".utf8");
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot make a temporary file for " + fileName + " in "
                    + directory + ": " + e.getMessage(), e);
        }
    }

    public static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // Left in the database's temp directory, named copy-*.utf8: nothing refers to it.
        }
    }

    private static void transfer(BufferedReader in, BufferedWriter out, String fileName, String problem) throws IOException {
        char[] buffer = new char[1 << 15];
        long line = 1;
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                // Flushed per chunk, so that a character the encoder refuses is reported here, with its line.
                out.write(buffer, 0, read);
                out.flush();
                for (int index = 0; index < read; index++) {
                    if (buffer[index] == '\n') {
                        line++;
                    }
                }
            }
        } catch (CharacterCodingException e) {
            // The line the failing chunk of 32 K characters starts at: the error is there or a little after.
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, fileName + " " + problem + " at or after line " + line
                    + " (" + e.getMessage() + "); COPY replaces nothing");
        }
    }

    private static ColumbaException failure(Exception e, String what) {
        return new ColumbaException(ErrorCode.IO_ERROR, what + ": " + e.getMessage(), e);
    }
}
