package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import dev.columba.storage.io.FilesFacade;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The write-ahead log of a database: a stream of records addressed by LSN, stored in segment files
 * ({@code docs/format/wal.md}).
 *
 * <p><b>LSNs.</b> An LSN is a byte position in the concatenation of all segment files, headers
 * included: a segment file is named by its start LSN, and the next segment starts where it ends.
 * LSNs only grow and are never reused; no record is at LSN 0 (the first segment's header is), so
 * 0 can mean "no LSN".
 *
 * <p><b>Appends.</b> {@link #append} writes a group of records contiguously, into one segment,
 * under a lock, with the last record flagged as the group's end; the LSN past the group becomes
 * visible to readers ({@link #endLsn()}) only once every byte is written. A group is atomic across
 * crashes because {@link #open} cuts a trailing group that lacks its end flag or has a bad frame.
 * Appends write through the page cache; {@link #flush} makes them durable.
 *
 * <p><b>Group commit.</b> One {@link #flush} caller at a time is the leader: it takes the current
 * end of the log as its target, calls {@code fdatasync} without holding the append lock (appends
 * go on meanwhile), then releases every waiter its target covers. Callers that arrive while a sync
 * is in flight wait for it; if it does not cover them, one of them leads the next sync, which
 * covers all who appended before it began. Nothing waits on a timer: the batching comes from
 * callers arriving during a sync. Starting a segment and closing take the same sync role, so a
 * leader's file never changes under it.
 *
 * <p><b>Failures.</b> An append whose write fails (e.g. {@link ErrorCode#DISK_FULL}) is cut back
 * off the file and throws; the log stays usable and the next append goes where the failed one
 * would have. If the cut itself fails, or a sync fails, the log refuses every later append and
 * flush: after a failed {@code fdatasync} nothing written since the last good one is known to be
 * on storage, and only a reopen (which re-reads the file) can say what is.
 *
 * <p>Thread-safe. Lock order: the append lock, then the sync lock.
 */
public final class WriteAheadLog implements AutoCloseable {
    /** The smallest segment size accepted; the {@code wal_segment_size} setting has its own bounds. */
    public static final long MINIMUM_SEGMENT_SIZE = 4096;

    /** Records are encoded here before being written; grows to fit any one record. */
    private static final int CHUNK_SIZE = 256 * 1024;

    /** Activity since open. {@code syncs} counts every {@code fdatasync}/{@code fsync} of a segment. */
    public record Counters(long records, long groups, long bytes, long syncs, long flushes) {
    }

    private final FilesFacade files;
    private final Path directory;
    private final long segmentSize;
    private final LogEnd tailAtOpen;

    private final ReentrantLock appendLock = new ReentrantLock();
    // Guarded by appendLock.
    private final List<Long> segmentStarts;
    private long currentStart;
    private byte[] chunk = new byte[CHUNK_SIZE];
    private Arena chunkArena = Arena.ofShared();
    private MemorySegment chunkNative = chunkArena.allocate(CHUNK_SIZE, 4096);
    private final CRC32C crc = new CRC32C();
    /** Written under appendLock while holding the sync role; read by the sync leader. */
    private volatile FileHandle current;

    /** Everything below is written (in the page cache at least); a group boundary. */
    private volatile long endLsn;
    /** Everything below is on storage; only grows. Written under syncLock. */
    private volatile long durableLsn;

    private final ReentrantLock syncLock = new ReentrantLock();
    private final Condition syncFinished = syncLock.newCondition();
    // Guarded by syncLock: whether someone holds the sync role (a leader, a segment switch, close).
    private boolean syncing;

    /** Why the log stopped: set once, when it can no longer be trusted to append or sync; never cleared. */
    private record Stopped(ErrorCode code, String message, RuntimeException cause) {
    }

    private volatile Stopped stopped;
    private volatile boolean closed;

    private final AtomicLong records = new AtomicLong();
    private final AtomicLong groups = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final AtomicLong flushes = new AtomicLong();

    private WriteAheadLog(FilesFacade files, Path directory, long segmentSize, List<Long> segmentStarts,
                          FileHandle current, long endLsn, LogEnd tailAtOpen, long syncsAtOpen) {
        this.files = files;
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.segmentStarts = segmentStarts;
        this.current = current;
        this.currentStart = segmentStarts.getLast();
        this.endLsn = endLsn;
        this.durableLsn = endLsn;
        this.tailAtOpen = tailAtOpen;
        this.syncs.set(syncsAtOpen);
    }

    /**
     * Opens the log in {@code directory}, creating the directory and a first segment if missing.
     * Every segment's header is checked, and the last segment is scanned to find the end of the
     * log: the end of its last whole group of valid records. Anything after that (a torn append)
     * is cut off, so appends continue right after the last valid group; {@link #tailAtOpen()}
     * tells what was cut. What the log holds is made durable before this returns.
     *
     * @param segmentSizeBytes the size at which a new segment starts (at least
     *     {@link #MINIMUM_SEGMENT_SIZE}); a group larger than that gets a segment of its own
     * @throws ColumbaException {@link ErrorCode#FILE_MAGIC_MISMATCH}, {@link ErrorCode#FORMAT_TOO_OLD},
     *     {@link ErrorCode#FORMAT_TOO_NEW}, {@link ErrorCode#FILE_TRUNCATED} or {@link ErrorCode#WAL_CORRUPT}
     *     for a bad segment, naming file and offset; {@link ErrorCode#IO_ERROR} when the file system fails
     */
    public static WriteAheadLog open(FilesFacade files, Path walDirectory, long segmentSizeBytes) {
        if (segmentSizeBytes < MINIMUM_SEGMENT_SIZE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "write-ahead log segment size must be at least "
                    + MINIMUM_SEGMENT_SIZE + " bytes, got " + segmentSizeBytes);
        }
        Path directory = walDirectory.toAbsolutePath();
        createDirectory(files, directory);
        List<Long> starts = listSegments(directory);
        if (starts.isEmpty()) {
            FileHandle first = createSegment(files, directory, 0);
            starts.add(0L);
            return new WriteAheadLog(files, directory, segmentSizeBytes, starts, first, LogFormat.HEADER_SIZE,
                    new LogEnd.Clean(LogFormat.HEADER_SIZE), 1);
        }
        checkEarlierSegments(files, directory, starts);
        long lastStart = starts.getLast();
        Path lastPath = directory.resolve(LogFormat.segmentName(lastStart));
        FileHandle last = files.open(lastPath, FilesFacade.OpenMode.READ_WRITE, false);
        try {
            LogEnd tail = recoverTail(last, lastStart);
            // What a crashed process left in the page cache, and any cut, is durable from here on;
            // so is the last segment's directory entry, should its creation have been interrupted.
            last.force(true);
            files.syncDirectory(directory);
            return new WriteAheadLog(files, directory, segmentSizeBytes, starts, last, tail.lsn(), tail, 1);
        } catch (RuntimeException failure) {
            closeAfterFailure(last, failure);
            throw failure;
        }
    }

    private static void createDirectory(FilesFacade files, Path directory) {
        if (Files.isDirectory(directory)) {
            return;
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot create write-ahead log directory " + directory
                    + ": " + e, e);
        }
        if (directory.getParent() != null) {
            files.syncDirectory(directory.getParent());
        }
    }

    /** The start LSNs of the segment files in {@code directory}, ascending; other files are ignored. */
    private static List<Long> listSegments(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return new ArrayList<>(entries
                    .map(path -> LogFormat.startLsnOfName(path.getFileName().toString()))
                    .filter(startLsn -> startLsn >= 0)
                    .sorted()
                    .toList());
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list write-ahead log directory " + directory
                    + ": " + e, e);
        }
    }

    /** Checks the header of every segment but the last, and that each ends where the next starts. */
    private static void checkEarlierSegments(FilesFacade files, Path directory, List<Long> starts) {
        for (int index = 0; index < starts.size() - 1; index++) {
            long start = starts.get(index);
            Path path = directory.resolve(LogFormat.segmentName(start));
            try (FileHandle segment = files.open(path, FilesFacade.OpenMode.READ, false)) {
                SegmentHeader.check(SegmentHeader.read(segment), path, start);
                long end = start + segment.size();
                long next = starts.get(index + 1);
                if (end != next) {
                    throw RecordCodec.corrupt(path, segment.size(), "the segment ends at LSN " + end
                            + " but the next segment, " + LogFormat.segmentName(next) + ", starts at LSN " + next);
                }
            }
        }
    }

    /**
     * Finds the end of the log in its last segment and cuts what follows. A header shorter than
     * a header, or all zeros, is a segment whose creation a crash interrupted: it is written again.
     */
    private static LogEnd recoverTail(FileHandle last, long start) {
        Path path = last.path();
        long size = last.size();
        byte[] header = SegmentHeader.read(last);
        if (header.length < LogFormat.HEADER_SIZE || SegmentHeader.isZeros(header)) {
            last.truncate(0);
            SegmentHeader.write(last, start);
            return new LogEnd.Torn(start + LogFormat.HEADER_SIZE, path, 0, size,
                    "segment header incomplete (" + size + " bytes, "
                            + (header.length < LogFormat.HEADER_SIZE ? "short" : "zeros") + "): rewritten");
        }
        SegmentHeader.check(header, path, start);
        long validEnd = LogFormat.HEADER_SIZE;
        String problem = null;
        try (SegmentScanner scanner = new SegmentScanner()) {
            scanner.reset(last, start, LogFormat.HEADER_SIZE, size);
            scan:
            while (true) {
                switch (scanner.advance()) {
                    case RECORD -> {
                        scanner.decode();
                        if (scanner.groupEnd()) {
                            validEnd = scanner.nextOffset();
                        }
                    }
                    case END -> {
                        if (validEnd != size) {
                            problem = "the group starting at offset " + validEnd
                                    + " has no record marked as its end before the end of the file";
                        }
                        break scan;
                    }
                    case INVALID -> {
                        problem = scanner.problem();
                        if (scanner.recordOffset() != validEnd) {
                            problem += ", inside the group starting at offset " + validEnd;
                        }
                        break scan;
                    }
                }
            }
        }
        if (problem == null) {
            return new LogEnd.Clean(start + validEnd);
        }
        last.truncate(validEnd);
        return new LogEnd.Torn(start + validEnd, path, validEnd, size - validEnd, problem);
    }

    /**
     * Creates the segment starting at {@code startLsn}: header written and forced, directory
     * entry forced. On failure the half-made file is removed.
     */
    private static FileHandle createSegment(FilesFacade files, Path directory, long startLsn) {
        Path path = directory.resolve(LogFormat.segmentName(startLsn));
        FileHandle segment = files.open(path, FilesFacade.OpenMode.CREATE_NEW, false);
        try {
            SegmentHeader.write(segment, startLsn);
            segment.force(true);
            files.syncDirectory(directory);
            return segment;
        } catch (RuntimeException failure) {
            closeAfterFailure(segment, failure);
            try {
                Files.deleteIfExists(path);
            } catch (IOException deleteFailure) {
                failure.addSuppressed(deleteFailure);
            }
            throw failure;
        }
    }

    private static void closeAfterFailure(FileHandle file, RuntimeException failure) {
        try {
            file.close();
        } catch (RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }

    /** Appends {@code group}; see {@link #append(List, long[])}. */
    public long append(List<LogRecord> group) {
        return append(group, null);
    }

    /**
     * Appends {@code group} as one atomic group: contiguous, in one segment, never interleaved
     * with another append, and after a crash either wholly present or wholly cut. The records are
     * written to the page cache; call {@link #flush} with the returned LSN to make them durable.
     *
     * @param recordLsns if not null, receives the start LSN of each record at the same index (the
     *     LSN a page is stamped with); at least {@code group.size()} long; unspecified if the append fails
     * @return the LSN just past the group: its commit LSN
     * @throws ColumbaException {@link ErrorCode#DISK_FULL} or {@link ErrorCode#IO_ERROR} if the write
     *     failed (the group is then not in the log), or if the log refuses appends after an earlier failure
     */
    public long append(List<LogRecord> group, long[] recordLsns) {
        if (group == null || group.isEmpty()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "an append group needs at least one record");
        }
        if (recordLsns != null && recordLsns.length < group.size()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "record LSN array holds " + recordLsns.length
                    + " entries for a group of " + group.size() + " records");
        }
        long groupBytes = 0;
        for (int index = 0; index < group.size(); index++) {
            LogRecord record = group.get(index);
            if (record == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "record " + index + " of the append group is null");
            }
            groupBytes += RecordCodec.frameSize(record);
        }
        appendLock.lock();
        try {
            checkUsable();
            long segmentLength = endLsn - currentStart;
            if (segmentLength > LogFormat.HEADER_SIZE && segmentLength + groupBytes > segmentSize) {
                startNextSegment();
            }
            long groupStart = endLsn;
            try {
                writeGroup(group, groupStart, recordLsns);
            } catch (RuntimeException writeFailure) {
                abandonGroup(groupStart, writeFailure);
                throw writeFailure;
            }
            long groupEnd = groupStart + groupBytes;
            endLsn = groupEnd;
            records.addAndGet(group.size());
            groups.incrementAndGet();
            bytes.addAndGet(groupBytes);
            return groupEnd;
        } finally {
            appendLock.unlock();
        }
    }

    /** Encodes the group into the chunk buffer and writes it out whenever the next record does not fit. */
    private void writeGroup(List<LogRecord> group, long groupStart, long[] recordLsns) {
        long chunkLsn = groupStart;
        int position = 0;
        for (int index = 0; index < group.size(); index++) {
            LogRecord record = group.get(index);
            int frameSize = RecordCodec.frameSize(record);
            if (position + frameSize > chunk.length) {
                writeChunk(chunkLsn, position);
                chunkLsn += position;
                position = 0;
                if (frameSize > chunk.length) {
                    growChunk(frameSize);
                }
            }
            long lsn = chunkLsn + position;
            if (recordLsns != null) {
                recordLsns[index] = lsn;
            }
            position = RecordCodec.encode(record, lsn, index == group.size() - 1, chunk, position, crc);
        }
        writeChunk(chunkLsn, position);
    }

    private void writeChunk(long lsn, int length) {
        MemorySegment.copy(chunk, 0, chunkNative, ValueLayout.JAVA_BYTE, 0, length);
        current.write(lsn - currentStart, chunkNative.asSlice(0, length));
    }

    private void growChunk(int size) {
        Arena grown = Arena.ofShared();
        MemorySegment grownNative = grown.allocate(size, 4096);
        chunkArena.close();
        chunkArena = grown;
        chunkNative = grownNative;
        chunk = new byte[size];
    }

    /**
     * Cuts a failed group's bytes off the file, so that no reader or later open sees them and the
     * next append starts cleanly at {@code groupStart}. If that fails too, the log stops.
     */
    private void abandonGroup(long groupStart, RuntimeException writeFailure) {
        try {
            current.truncate(groupStart - currentStart);
        } catch (RuntimeException truncateFailure) {
            writeFailure.addSuppressed(truncateFailure);
            fail(truncateFailure, "an append failed at offset " + (groupStart - currentStart) + " of "
                    + current.path() + " and its partial bytes could not be cut off");
        }
    }

    /**
     * Forces the current segment and starts the next at the end of the log. Holds the sync role
     * throughout, so no flush leader is forcing the file being switched away from.
     */
    private void startNextSegment() {
        acquireSyncRole();
        long durable = durableLsn;
        try {
            long nextStart = endLsn;
            try {
                current.force(false);
                syncs.incrementAndGet();
            } catch (RuntimeException syncFailure) {
                fail(syncFailure, "fdatasync of " + current.path() + " before starting a new segment failed");
                throw syncFailure;
            }
            durable = nextStart;
            FileHandle next = createSegment(files, directory, nextStart);
            syncs.incrementAndGet();
            FileHandle previous = current;
            current = next;
            currentStart = nextStart;
            segmentStarts.add(nextStart);
            endLsn = nextStart + LogFormat.HEADER_SIZE;
            durable = endLsn;
            previous.close();
        } finally {
            releaseSyncRole(durable);
        }
    }

    /**
     * Returns once every record below {@code lsn} is on storage. Concurrent callers share syncs
     * (see the class comment).
     *
     * @param lsn an LSN returned by {@link #append}, at most {@link #endLsn()}
     * @throws ColumbaException {@link ErrorCode#IO_ERROR} if the sync failed (the log then refuses
     *     further appends and flushes), {@link ErrorCode#DATABASE_CLOSED} if the log was closed first
     */
    public void flush(long lsn) {
        flushes.incrementAndGet();
        if (lsn <= durableLsn) {
            return;
        }
        long end = endLsn;
        if (lsn > end) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot flush the log to LSN " + lsn
                    + ": it ends at " + end);
        }
        syncLock.lock();
        try {
            while (true) {
                if (durableLsn >= lsn) {
                    return;
                }
                checkUsable();
                if (!syncing) {
                    break;
                }
                syncFinished.awaitUninterruptibly();
            }
            syncing = true;
        } finally {
            syncLock.unlock();
        }
        // The leader. Holding the sync role pins `current`; endLsn may still grow inside it.
        long target = endLsn;
        long durable = durableLsn;
        try {
            current.force(false);
            syncs.incrementAndGet();
            durable = target;
        } catch (RuntimeException syncFailure) {
            fail(syncFailure, "fdatasync of " + current.path() + " failed");
            throw syncFailure;
        } finally {
            releaseSyncRole(durable);
        }
    }

    private void acquireSyncRole() {
        syncLock.lock();
        try {
            while (syncing) {
                syncFinished.awaitUninterruptibly();
            }
            syncing = true;
        } finally {
            syncLock.unlock();
        }
    }

    private void releaseSyncRole(long durable) {
        syncLock.lock();
        try {
            if (durable > durableLsn) {
                durableLsn = durable;
            }
            syncing = false;
            syncFinished.signalAll();
        } finally {
            syncLock.unlock();
        }
    }

    private void fail(RuntimeException cause, String what) {
        if (stopped == null) {
            ErrorCode code = cause instanceof ColumbaException columba ? columba.errorCode() : ErrorCode.IO_ERROR;
            stopped = new Stopped(code, "write-ahead log " + directory + " stopped: " + what
                    + "; reopen the database to recover", cause);
        }
    }

    private void checkUsable() {
        if (closed) {
            throw new ColumbaException(ErrorCode.DATABASE_CLOSED, "write-ahead log " + directory + " is closed");
        }
        Stopped reason = stopped;
        if (reason != null) {
            throw new ColumbaException(reason.code(), reason.message(), reason.cause());
        }
    }

    /**
     * Reads the log from {@code fromLsn} to its current end. {@code fromLsn} must be where a
     * record starts, where a group ends (a commit LSN), or a segment's start LSN.
     *
     * @throws ColumbaException {@link ErrorCode#INVALID_ARGUMENT} if {@code fromLsn} lies outside the
     *     retained log or inside a segment header
     */
    public LogReader read(long fromLsn) {
        appendLock.lock();
        try {
            checkOpen();
            long bound = endLsn;
            long oldest = segmentStarts.getFirst();
            if (fromLsn < oldest || fromLsn > bound) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot read the log from LSN " + fromLsn
                        + ": it holds LSNs " + oldest + " to " + bound);
            }
            int first = segmentStarts.size() - 1;
            while (segmentStarts.get(first) > fromLsn) {
                first--;
            }
            long offset = fromLsn - segmentStarts.get(first);
            if (offset > 0 && offset < LogFormat.HEADER_SIZE) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "cannot read the log from LSN " + fromLsn
                        + ": it lies inside the header of segment " + LogFormat.segmentName(segmentStarts.get(first)));
            }
            List<LogReader.Source> sources = new ArrayList<>();
            try {
                for (int index = first; index < segmentStarts.size(); index++) {
                    long start = segmentStarts.get(index);
                    long limit = (index + 1 < segmentStarts.size() ? segmentStarts.get(index + 1) : bound) - start;
                    Path path = directory.resolve(LogFormat.segmentName(start));
                    sources.add(new LogReader.Source(start, files.open(path, FilesFacade.OpenMode.READ, false), limit));
                }
            } catch (RuntimeException openFailure) {
                for (LogReader.Source source : sources) {
                    closeAfterFailure(source.file(), openFailure);
                }
                throw openFailure;
            }
            return new LogReader(sources, Math.max(offset, LogFormat.HEADER_SIZE));
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Deletes the segment files that lie wholly before {@code lsn} (typically a checkpoint's redo
     * LSN), oldest first, forcing the directory after each so that a crash never leaves a gap.
     * The current segment is never deleted.
     *
     * @return how many segments were deleted
     */
    public int removeSegmentsBefore(long lsn) {
        appendLock.lock();
        try {
            checkOpen();
            int removed = 0;
            while (segmentStarts.size() > 1 && segmentStarts.get(1) <= lsn) {
                Path path = directory.resolve(LogFormat.segmentName(segmentStarts.getFirst()));
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new ColumbaException(ErrorCode.IO_ERROR, "cannot delete write-ahead log segment " + path
                            + ": " + e, e);
                }
                files.syncDirectory(directory);
                segmentStarts.removeFirst();
                removed++;
            }
            return removed;
        } finally {
            appendLock.unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new ColumbaException(ErrorCode.DATABASE_CLOSED, "write-ahead log " + directory + " is closed");
        }
    }

    /** The LSN just past the last appended group: where the log ends. */
    public long endLsn() {
        return endLsn;
    }

    /** Every LSN below this is on storage. */
    public long durableLsn() {
        return durableLsn;
    }

    /** How the scan at {@link #open} found the end of the log, and what it cut. */
    public LogEnd tailAtOpen() {
        return tailAtOpen;
    }

    /** The start LSNs of the segment files, oldest first; the last is the one appended to. */
    public List<Long> segmentStartLsns() {
        appendLock.lock();
        try {
            return List.copyOf(segmentStarts);
        } finally {
            appendLock.unlock();
        }
    }

    public Path directory() {
        return directory;
    }

    public Counters counters() {
        return new Counters(records.get(), groups.get(), bytes.get(), syncs.get(), flushes.get());
    }

    /**
     * Closes the segment file; appends, flushes and new readers fail afterwards, and flush callers
     * still waiting fail with {@link ErrorCode#DATABASE_CLOSED}. Does not flush: call {@link #flush}
     * first for whatever must be durable. Open readers keep working.
     */
    @Override
    public void close() {
        appendLock.lock();
        try {
            if (closed) {
                return;
            }
            acquireSyncRole();
            closed = true;
            try {
                current.close();
            } finally {
                chunkArena.close();
                releaseSyncRole(durableLsn);
            }
        } finally {
            appendLock.unlock();
        }
    }
}
