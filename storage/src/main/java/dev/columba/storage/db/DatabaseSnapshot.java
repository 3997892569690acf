package dev.columba.storage.db;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.storage.file.FileManifest;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.page.PageFormat;
import dev.columba.storage.wal.LogFormat;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A read-only view of a database another process has open and may be writing: the committed state
 * as of one point, read without its lock and without writing a byte into its directory
 * (docs/design/storage.md, "Snapshots for a reader in another process").
 *
 * <p>The writer changes its data files in place (checkpoints, evictions, minimally logged loads) and
 * appends to its log; nothing there can be read as one consistent state while it runs. So the
 * snapshot copies them, as an online backup does, into a private directory, and opens the copy: its
 * recovery replays the committed transactions of the copied log over the copied pages, exactly as it
 * would after a crash, and what the copy then holds is the writer's committed state as of the end of
 * the copied log. The order makes the copy one a crash could have left:
 *
 * <ol>
 *   <li>the control file (its redo point; the writer's checkpoints only ever move it forward);</li>
 *   <li>the data files, page by page, each page checked (checksum, page id) and read again while it
 *       is torn by a write in flight. Every page so read carries changes of the log only up to what the
 *       writer had already flushed (the log goes to storage before the pages it covers);</li>
 *   <li>the log segments from the one holding the redo point, so the copied log reaches at least
 *       every copied page's LSN. A record caught half-written at the end is a torn tail, which
 *       recovery cuts ({@code wal_recovery_mode = point_in_time} cuts a region copied while it was
 *       being written, too: the log before it is whole);</li>
 *   <li>the data files again, keeping only the pages a minimally logged load wrote after the first
 *       pass (LSN 0, changed since): such a load writes its new pages before its commit record, which
 *       the copied log may hold; other pages keep the first pass, whose LSNs the log covers, unless a
 *       page changed owner between the passes (then everything is copied again);</li>
 *   <li>the control file again: if a checkpoint ended meanwhile (the writer may then have removed log
 *       segments or reused freed pages), everything is copied again (up to {@link #ATTEMPTS} times).</li>
 * </ol>
 *
 * <p>The columnstore's rowgroup and dictionary files are written once and never changed in place,
 * so they are not copied: the copy's {@code columnstore} directory holds a hard link to each
 * ({@link #linkColumnstoreFiles}). A rowgroup the writer retires after the snapshot (a merge, a
 * compression of deltas, a drop) loses the writer's name only; the copy's name keeps its bytes on
 * storage until the snapshot is closed. Nothing writes or deletes through those names but the
 * snapshot's own close: a snapshot is only read (no transaction, no tuple mover, no opening sweep).
 */
public final class DatabaseSnapshot implements AutoCloseable {
    /** How many times a copy is taken before a writer's checkpoints are reported as the cause. */
    static final int ATTEMPTS = 5;
    /** How many times a torn page is read again before it is reported as damage. */
    private static final int TORN_PAGE_READS = 100;

    private final Path copy;
    private final Database database;
    private final ControlFile control;
    private final int attempts;

    private DatabaseSnapshot(Path copy, Database database, ControlFile control, int attempts) {
        this.copy = copy;
        this.database = database;
        this.control = control;
        this.attempts = attempts;
    }

    /**
     * Copies the committed state of the database at {@code source} into {@code copy} (which must not
     * exist; it is removed again if this fails) and opens it, with {@code overrides} on top of the
     * stored settings for this opening.
     *
     * @throws ColumbaException OBJECT_NOT_FOUND if {@code source} holds no database; FEATURE_NOT_SUPPORTED
     *         if it has data files outside its directory; IO_ERROR if no consistent copy could be taken;
     *         a corruption code if a page stays damaged
     */
    public static DatabaseSnapshot take(Path source, Path copy, Properties overrides) {
        if (!ControlFile.exists(source)) {
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, source + " is not a Columba database");
        }
        ColumbaException lastFailure = null;
        String lastMove = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                return copyAndOpen(source, copy, overrides, attempt);
            } catch (CheckpointMoved | PageReused moved) {
                deleteCopy(copy);
                lastMove = moved.getMessage();
                lastFailure = null;
            } catch (ColumbaException failure) {
                deleteCopy(copy);
                if (!worthRetrying(failure)) {
                    throw failure;
                }
                lastFailure = failure;
            } catch (RuntimeException failure) {
                deleteCopy(copy);
                throw failure;
            }
        }
        if (lastFailure != null) {
            // Damage that persisted through every copy is the database's, not the writer's moving: its own code.
            throw new ColumbaException(lastFailure.errorCode(), "no snapshot of " + source + " in " + ATTEMPTS
                    + " attempts: " + lastFailure.getMessage(), lastFailure);
        }
        throw new ColumbaException(ErrorCode.IO_ERROR, "no consistent snapshot of " + source + " in " + ATTEMPTS
                + " attempts: the writer moved on during each copy (last: " + lastMove + ")");
    }

    /** The opened copy: read it, begin no transaction in it. */
    public Database database() {
        return database;
    }

    /** Where recovery of the copy started: the writer's redo point when the copy was taken. */
    public long redoLsn() {
        return control.redoLsn();
    }

    /** How many copies were taken to get this one (the earlier ones crossed a checkpoint or a moving page). */
    public int attempts() {
        return attempts;
    }

    /** Closes the copy and deletes it: its own names only (a link is removed, never followed). */
    @Override
    public void close() {
        try {
            database.close();
        } finally {
            deleteCopy(copy);
        }
    }

    /** A checkpoint of the writer ended during the copy: the copy may mix pages across it. */
    private static final class CheckpointMoved extends Exception {
        CheckpointMoved(String message) {
            super(message, null, false, false);
        }
    }

    /** A page of the first pass was given to another object before the second: the copy is taken again. */
    private static final class PageReused extends Exception {
        PageReused(String message) {
            super(message, null, false, false);
        }
    }

    /** Damage that a moving writer explains (a segment removed under the copy, a log cut mid-write) is tried again. */
    private static boolean worthRetrying(ColumbaException failure) {
        return switch (failure.errorCode()) {
            case IO_ERROR, WAL_CORRUPT, FILE_TRUNCATED, PAGE_CHECKSUM_MISMATCH, PAGE_HEADER_INVALID -> true;
            default -> false;
        };
    }

    private static DatabaseSnapshot copyAndOpen(Path source, Path copy, Properties overrides, int attempt)
            throws CheckpointMoved, PageReused {
        ControlFile before = ControlFile.read(NativeFilesFacade.INSTANCE, source);
        FileManifest manifest = Files.exists(DatabaseLayout.fileManifest(source))
                ? FileManifest.read(DatabaseLayout.dataDirectory(source)) : FileManifest.primaryOnly();
        List<DataFileCopy> dataFiles = new ArrayList<>();
        dataFiles.add(new DataFileCopy(0, DatabaseLayout.dataFile(source), DatabaseLayout.dataFile(copy)));
        for (FileManifest.FileEntry file : manifest.files()) {
            Path relative = Path.of(file.path());
            if (relative.isAbsolute() || relative.normalize().startsWith("..")) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot take a snapshot of " + source
                        + ": its data file " + file.name() + " lies outside the database directory (" + file.path() + ")");
            }
            dataFiles.add(new DataFileCopy(file.id(), file.resolve(source), file.resolve(copy)));
        }
        try {
            Files.createDirectories(copy);
            Files.createDirectories(DatabaseLayout.dataDirectory(copy));
            Files.createDirectories(DatabaseLayout.logDirectory(copy));
            Files.copy(DatabaseLayout.propertiesFile(source), DatabaseLayout.propertiesFile(copy));
            if (Files.exists(DatabaseLayout.fileManifest(source))) {
                Files.copy(DatabaseLayout.fileManifest(source), DatabaseLayout.fileManifest(copy));
            }
            linkColumnstoreFiles(source, copy);
            Files.copy(DatabaseLayout.controlFile(source), DatabaseLayout.controlFile(copy));
            if (!ControlFile.read(NativeFilesFacade.INSTANCE, copy).equals(before)) {
                throw new CheckpointMoved("the control file changed while it was read");
            }
            for (DataFileCopy file : dataFiles) {
                file.firstPass();
            }
            copyLog(DatabaseLayout.logDirectory(source), DatabaseLayout.logDirectory(copy), before.redoLsn());
            for (DataFileCopy file : dataFiles) {
                file.minimallyLoggedPages();
            }
            linkColumnstoreFiles(source, copy);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot copy " + source + " into " + copy + ": " + e, e);
        }
        ControlFile after = ControlFile.read(NativeFilesFacade.INSTANCE, source);
        if (!after.equals(before)) {
            throw new CheckpointMoved("the writer checkpointed during the copy (redo LSN " + before.redoLsn() + " to "
                    + after.redoLsn() + ")");
        }
        Properties settings = new Properties();
        settings.putAll(overrides);
        settings.setProperty(StandardSettings.WAL_RECOVERY_MODE.name(), "point_in_time");
        Database database = Database.open(copy, settings, NativeFilesFacade.INSTANCE);
        return new DatabaseSnapshot(copy, database, before, attempt);
    }

    /**
     * Gives the copy a name of its own for every rowgroup and dictionary file of the writer's
     * {@code columnstore} directory: a hard link, so a file the writer retires (deletes) after the
     * snapshot stays on storage, under the copy's name, until the snapshot is closed. The writer needs
     * to know nothing of its readers, and a reader never makes it wait. Done before the copy (files a
     * committed state of the copy may name existed then) and after it (files committed during it);
     * a rowgroup file is never rewritten, so a name linked once stays; a dictionary is replaced by a
     * rename as it grows, so the later link wins. Where a hard link cannot be made (the copy on
     * another file system) the link is symbolic, and a file the writer retires goes with it: the
     * reader's opening of it then fails naming the file.
     */
    private static void linkColumnstoreFiles(Path source, Path copy) throws IOException {
        Path from = source.resolve(Database.COLUMNSTORE_DIRECTORY);
        if (!Files.isDirectory(from)) {
            return;
        }
        Path to = copy.resolve(Database.COLUMNSTORE_DIRECTORY);
        List<Path> tables;
        try (Stream<Path> listed = Files.list(from)) {
            tables = listed.filter(Files::isDirectory).toList();
        }
        for (Path table : tables) {
            List<Path> files;
            try (Stream<Path> listed = Files.list(table)) {
                files = listed.toList();
            } catch (NoSuchFileException dropped) {
                continue;
            }
            Path linked = to.resolve(table.getFileName().toString());
            Files.createDirectories(linked);
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    continue;
                }
                Path link = linked.resolve(name);
                if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    if (name.endsWith(".crg")) {
                        continue;
                    }
                    Files.delete(link);
                }
                try {
                    Files.createLink(link, file);
                } catch (NoSuchFileException retired) {
                    // Deleted since the listing: no state the copy can hold names it.
                } catch (IOException crossDevice) {
                    Files.createSymbolicLink(link, file.toAbsolutePath());
                }
            }
        }
    }

    /** The log segments a recovery from {@code redoLsn} reads: the one holding it and every later one. */
    private static void copyLog(Path from, Path to, long redoLsn) throws IOException {
        List<Long> starts = new ArrayList<>();
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                long start = LogFormat.startLsnOfName(file.getFileName().toString());
                if (start >= 0) {
                    starts.add(start);
                }
            }
        }
        starts.sort(null);
        for (int index = 0; index < starts.size(); index++) {
            boolean needed = index + 1 == starts.size() || starts.get(index + 1) > redoLsn;
            if (needed) {
                Path name = from.resolve(String.format("%016x", starts.get(index)) + LogFormat.SEGMENT_SUFFIX);
                Files.copy(name, to.resolve(name.getFileName()));
            }
        }
    }

    /** One data file's copy, made in two passes (the class comment, steps 2 and 4). */
    private static final class DataFileCopy {
        private final int fileId;
        private final Path from;
        private final Path to;
        /** The first pass's pages, kept to tell which pages the second pass finds changed. */
        private byte[] firstPass;

        DataFileCopy(int fileId, Path from, Path to) {
            this.fileId = fileId;
            this.from = from;
            this.to = to;
        }

        void firstPass() throws IOException {
            Files.createDirectories(to.getParent());
            firstPass = readPages(from, fileId);
            try (FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                writeFully(out, ByteBuffer.wrap(firstPass), 0);
            }
        }

        /**
         * Writes the pages that have LSN 0 now and differ from the first pass: pages a minimally
         * logged load wrote since, whose commit the copied log may hold. A page that has them in no
         * committed state is free in the copy, so its bytes are never read.
         */
        void minimallyLoggedPages() throws IOException, PageReused {
            byte[] second = readPages(from, fileId);
            try (FileChannel out = FileChannel.open(to, StandardOpenOption.WRITE)) {
                for (long offset = PageFormat.PAGE_SIZE; offset + PageFormat.PAGE_SIZE <= second.length;
                     offset += PageFormat.PAGE_SIZE) {
                    MemorySegment page = MemorySegment.ofArray(second).asSlice(offset, PageFormat.PAGE_SIZE);
                    boolean changed = offset + PageFormat.PAGE_SIZE > firstPass.length
                            || !Arrays.equals(second, (int) offset, (int) offset + PageFormat.PAGE_SIZE,
                                    firstPass, (int) offset, (int) offset + PageFormat.PAGE_SIZE);
                    if (!changed || Page.isAllZero(page)) {
                        continue;
                    }
                    if (Page.lsn(page) == 0) {
                        writeFully(out, ByteBuffer.wrap(second, (int) offset, PageFormat.PAGE_SIZE), offset);
                    } else if (offset + PageFormat.PAGE_SIZE <= firstPass.length) {
                        MemorySegment before = MemorySegment.ofArray(firstPass).asSlice(offset, PageFormat.PAGE_SIZE);
                        if (!Page.isAllZero(before) && Page.objectId(before) != Page.objectId(page)) {
                            // Reused for another object during the copy: by a minimally logged load whose
                            // page a later change rewrote, maybe, and the first pass holds neither.
                            throw new PageReused(from + " page " + offset / PageFormat.PAGE_SIZE
                                    + " changed owner during the copy");
                        }
                    }
                }
            }
            firstPass = null;
        }
    }

    /**
     * The whole file, each page but the header read until it verifies (a page being written as it is
     * read is torn for that read only).
     */
    private static byte[] readPages(Path file, int fileId) throws IOException {
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = in.size() / PageFormat.PAGE_SIZE * PageFormat.PAGE_SIZE;
            if (size > Integer.MAX_VALUE - PageFormat.PAGE_SIZE) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot take a snapshot of " + file
                        + ": data files of 2 GB or more are not copied yet (" + size + " bytes)");
            }
            byte[] bytes = new byte[(int) size];
            for (long offset = 0; offset < size; offset += PageFormat.PAGE_SIZE) {
                ByteBuffer target = ByteBuffer.wrap(bytes, (int) offset, PageFormat.PAGE_SIZE);
                long pageInFile = offset / PageFormat.PAGE_SIZE;
                for (int read = 1; ; read++) {
                    target.clear().position((int) offset).limit((int) offset + PageFormat.PAGE_SIZE);
                    readFully(in, target, offset);
                    if (pageInFile == 0) {
                        break;
                    }
                    try {
                        Page.verify(MemorySegment.ofArray(bytes).asSlice(offset, PageFormat.PAGE_SIZE),
                                PageFormat.pageId(fileId, pageInFile), file.toString());
                        break;
                    } catch (ColumbaException torn) {
                        if (read == TORN_PAGE_READS) {
                            throw torn;
                        }
                        Thread.onSpinWait();
                    }
                }
            }
            return bytes;
        }
    }

    private static void readFully(FileChannel in, ByteBuffer target, long offset) throws IOException {
        long position = offset;
        while (target.hasRemaining()) {
            int read = in.read(target, position);
            if (read < 0) {
                throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "data file shrank while it was copied");
            }
            position += read;
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer source, long offset) throws IOException {
        long position = offset;
        while (source.hasRemaining()) {
            position += out.write(source, position);
        }
    }

    /** Removes the copy; a symbolic link is removed as a link, never followed. */
    static void deleteCopy(Path copy) {
        if (!Files.exists(copy, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(copy, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                    Files.deleteIfExists(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException gone) {
            // removed already
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot remove snapshot copy " + copy + ": " + e, e);
        }
    }
}
