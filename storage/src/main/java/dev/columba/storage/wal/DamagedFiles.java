package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Keeps the original bytes of damaged files (log files; a {@code columba.properties} that {@code ./columba
 * repair --reseal-properties} rewrites) aside, in the database directory's {@code damaged/} folder
 * ({@code docs/format/database-directory.md}), before recovery cuts or repairs them and when it
 * refuses them. Recovery never changes a log file before its copy is durable.
 *
 * <p>Each incident is one folder holding the copied bytes and a {@code report.txt} saying why. The
 * folder is named by the kind of incident, the first file's name and a CRC32C of everything
 * copied, so refusing the same damage at every attempt to open keeps a single copy. It is written
 * as {@code incoming.tmp} and renamed once complete, so a folder with a final name is whole.
 */
public final class DamagedFiles {
    private static final String INCOMING = "incoming.tmp";
    static final String REPORT = "report.txt";
    private static final int COPY_CHUNK = 1 << 20;

    private DamagedFiles() {
    }

    /** Bytes {@code [offset, offset + length)} of {@code source}, copied under the name {@code copyName}. */
    public record Piece(Path source, long offset, long length, String copyName) {
    }

    /**
     * Copies {@code pieces} into a new incident folder under {@code damagedDirectory}, with
     * {@code report}, all forced to storage; returns the folder (an existing one if the same bytes
     * were preserved before).
     */
    public static Path preserve(FilesFacade files, Path damagedDirectory, String kind, List<Piece> pieces, String report) {
        createDirectory(files, damagedDirectory);
        Path incoming = damagedDirectory.resolve(INCOMING);
        deleteTree(incoming);
        createDirectory(files, incoming);
        CRC32C fingerprint = new CRC32C();
        StringBuilder text = new StringBuilder();
        text.append(report).append("\n\n").append("preserved at ").append(Instant.now()).append(":\n");
        for (Piece piece : pieces) {
            copy(files, piece, incoming.resolve(piece.copyName()), fingerprint);
            text.append("  ").append(piece.copyName()).append(": bytes ").append(piece.offset()).append(" to ")
                    .append(piece.offset() + piece.length()).append(" of ").append(piece.source()).append('\n');
        }
        writeReport(files, incoming.resolve(REPORT), text.toString());
        files.syncDirectory(incoming);
        String firstName = pieces.getFirst().copyName();
        String name = kind + "-" + firstName.substring(0, firstName.indexOf('.') < 0 ? firstName.length()
                : firstName.indexOf('.')) + "-" + String.format("%08x", (int) fingerprint.getValue());
        Path incident = damagedDirectory.resolve(name);
        if (Files.isDirectory(incident)) {
            deleteTree(incoming);
            return incident;
        }
        try {
            Files.move(incoming, incident, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot rename " + incoming + " to " + incident + ": " + e, e);
        }
        files.syncDirectory(damagedDirectory);
        return incident;
    }

    private static void copy(FilesFacade files, Piece piece, Path target, CRC32C fingerprint) {
        try (FileHandle source = files.open(piece.source(), FilesFacade.OpenMode.READ, false);
             FileHandle copy = files.open(target, FilesFacade.OpenMode.CREATE_NEW, false);
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(COPY_CHUNK);
            byte[] bytes = new byte[COPY_CHUNK];
            long done = 0;
            while (done < piece.length()) {
                int length = (int) Math.min(COPY_CHUNK, piece.length() - done);
                long read = source.read(piece.offset() + done, buffer.asSlice(0, length));
                if (read < length) {
                    throw new ColumbaException(ErrorCode.IO_ERROR, "cannot preserve " + piece.source() + ": it ended at "
                            + (piece.offset() + done + read) + " bytes while " + (piece.offset() + piece.length())
                            + " were to be copied");
                }
                copy.write(done, buffer.asSlice(0, length));
                MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, bytes, 0, length);
                fingerprint.update(bytes, 0, length);
                done += length;
            }
            copy.force(true);
        }
    }

    private static void writeReport(FilesFacade files, Path path, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try (FileHandle file = files.open(path, FilesFacade.OpenMode.CREATE_NEW, false);
             Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(Math.max(1, bytes.length));
            MemorySegment.copy(bytes, 0, buffer, ValueLayout.JAVA_BYTE, 0, bytes.length);
            file.write(0, buffer.asSlice(0, bytes.length));
            file.force(true);
        }
    }

    private static void createDirectory(FilesFacade files, Path directory) {
        if (Files.isDirectory(directory)) {
            return;
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create " + directory + ": " + e, e);
        }
        files.syncDirectory(directory.getParent());
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot remove " + root + ": " + e, e);
        }
    }
}
