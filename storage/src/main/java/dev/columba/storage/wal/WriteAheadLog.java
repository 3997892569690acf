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
 * covers all who appended before it began. Starting a segment and closing take the same sync role,
 * so a leader's file never changes under it.
 *
 * <p><b>Gathering a group.</b> Callers arriving during a sync alone batch poorly when the same few
 * committers go round and round (each client of a database commits, waits for its flush, commits
 * again): the first one back leads the next sync at once, alone, while the others are still
 * running their next statement and miss it, so with four clients the syncs tend to alternate
 * between one commit and three (issue 11 measured 1.6–2.2 commits per sync at four clients). So a
 * leader first waits for as many callers to be inside {@link #flush} as there were at once during
 * the previous round (the sync before it), but never longer than half the previous sync took
 * (at most {@link #MAX_GATHER_NANOS}): a committer that does not come back costs one round at
 * most half a sync, and the expectation drops to the new count the round after. A lone committer
 * never waits: the previous round saw only itself.
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

    /** The longest a sync leader waits for the rest of its group (see the class comment). */
    static final long MAX_GATHER_NANOS = 5_000_000;

    /** Records are encoded here before being written; grows to fit any one record. */
    private static final int CHUNK_SIZE = 256 * 1024;

    /** Activity since open. {@code syncs} counts every {@code fdatasync}/{@code fsync} of a segment. */
    public record Counters(long records, long groups, long bytes, long syncs, long flushes) {
    }

    private final FilesFacade files;
    private final Path directory;
    private final long segmentSize;
    private final LogEnd tailAtOpen;
    private final LogRepair repairAtOpen;

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
    /** Signalled when a caller enters {@link #flush}, for a leader gathering its group. */
    private final Condition committerArrived = syncLock.newCondition();
    // Guarded by syncLock: callers inside flush (waiting or leading), and the most at once since
    // the last sync of a leader began.
    private int committers;
    private int roundPeak;
    /** How long the last leader's sync took; bounds the next leader's gathering. */
    private volatile long lastSyncNanos;
    /** Overrides the gathering bound when not negative (tests force interleavings with it). */
    private volatile long gatherBoundOverride = -1;

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
                          FileHandle current, long endLsn, LogEnd tailAtOpen, long syncsAtOpen, LogRepair repairAtOpen) {
        this.files = files;
        this.directory = directory;
        this.segmentSize = segmentSize;
        this.segmentStarts = segmentStarts;
        this.current = current;
        this.currentStart = segmentStarts.getLast();
        this.endLsn = endLsn;
        this.durableLsn = endLsn;
        this.tailAtOpen = tailAtOpen;
        this.repairAtOpen = repairAtOpen;
        this.syncs.set(syncsAtOpen);
    }

    /**
     * Opens the log in {@code walDirectory} as {@link #open(FilesFacade, Path, long, RecoveryOptions)}
     * does, knowing nothing of what was durable, refusing damage, and preserving files into a
     * {@code damaged} folder next to the log directory.
     */
    public static WriteAheadLog open(FilesFacade files, Path walDirectory, long segmentSizeBytes) {
        Path directory = walDirectory.toAbsolutePath();
        return open(files, directory, segmentSizeBytes, RecoveryOptions.refuse(directory.resolveSibling("damaged")));
    }

    /**
     * Opens the log in {@code walDirectory}, creating the directory and a first segment if missing.
     * Every frame of every segment is read and checked first, changing nothing; then (see
     * {@code docs/format/wal.md}, "Torn tail or corruption"):
     * <ul>
     *   <li>a log that ends with a whole group opens as it is;</li>
     *   <li>a torn tail (what an interrupted append leaves at the end of the last segment) is copied
     *       into the damaged directory, then cut, so appends continue right after the last whole
     *       group; {@link #tailAtOpen()} tells what was cut;</li>
     *   <li>anything else is damage: the segments from the damaged one on are copied into the damaged
     *       directory, and then either the open fails ({@link RecoveryOptions.OnDamage#REFUSE}) with
     *       the log untouched, or the log is cut at its last consistent point
     *       ({@link RecoveryOptions.OnDamage#RECOVER_TO_LAST_CONSISTENT_POINT}, see {@link #repairAtOpen()}).</li>
     * </ul>
     * What the log holds is made durable before this returns.
     *
     * @param segmentSizeBytes the size at which a new segment starts (at least
     *     {@link #MINIMUM_SEGMENT_SIZE}); a group larger than that gets a segment of its own
     * @throws ColumbaException {@link ErrorCode#WAL_CORRUPT} for damage, naming file, offset and LSN;
     *     {@link ErrorCode#FILE_MAGIC_MISMATCH}, {@link ErrorCode#FORMAT_TOO_OLD}, {@link ErrorCode#FORMAT_TOO_NEW}
     *     or {@link ErrorCode#FILE_TRUNCATED} for a bad segment header; {@link ErrorCode#IO_ERROR} when the
     *     file system fails
     */
    public static WriteAheadLog open(FilesFacade files, Path walDirectory, long segmentSizeBytes, RecoveryOptions options) {
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
                    new LogEnd.Clean(LogFormat.HEADER_SIZE), 1, null);
        }
        LogScan.Outcome outcome = scan(files, directory, starts, 0, options);
        return switch (outcome) {
            case LogScan.Clean clean -> openLast(files, directory, segmentSizeBytes, starts,
                    new LogEnd.Clean(clean.endLsn()), null);
            case LogScan.Torn torn -> {
                cutTornTail(files, torn, options);
                yield openLast(files, directory, segmentSizeBytes, starts,
                        new LogEnd.Torn(torn.endLsn(), torn.file(), torn.offset(), torn.discardedBytes(), torn.reason()),
                        null);
            }
            case LogScan.Damaged damaged -> switch (options.onDamage()) {
                case REFUSE -> throw refuse(files, directory, starts, damaged.damage(), options);
                case RECOVER_TO_LAST_CONSISTENT_POINT ->
                        recoverToConsistentPoint(files, directory, segmentSizeBytes, starts, damaged.damage(), options);
                case OPEN_READ_ONLY_AT_LAST_CONSISTENT_POINT ->
                        openReadOnly(files, directory, segmentSizeBytes, starts, damaged.damage(), options);
            };
        };
    }

    /**
     * Scans the log from {@code fromLsn}; damage that no cut can repair (a bad segment header, a
     * segment that does not end where the next starts) is thrown after the segments are preserved.
     */
    private static LogScan.Outcome scan(FilesFacade files, Path directory, List<Long> starts, long fromLsn,
                                        RecoveryOptions options) {
        try {
            return LogScan.scan(files, directory, starts, fromLsn, options.durableLsn());
        } catch (ColumbaException unusable) {
            if (unusable.errorCode().category() != ErrorCode.Category.CORRUPTION) {
                throw unusable;
            }
            Path copy = preserveSegments(files, directory, starts, 0, options, unusable.detail());
            throw new ColumbaException(unusable.errorCode(), unusable.detail() + ". The log was left as it is; "
                    + "a copy of it is in " + copy, unusable);
        }
    }

    /** Copies every segment from {@code firstIndex} on, whole, into a new incident folder. */
    private static Path preserveSegments(FilesFacade files, Path directory, List<Long> starts, int firstIndex,
                                         RecoveryOptions options, String report) {
        List<DamagedFiles.Piece> pieces = new ArrayList<>();
        for (long start : starts.subList(firstIndex, starts.size())) {
            Path path = directory.resolve(LogFormat.segmentName(start));
            pieces.add(new DamagedFiles.Piece(path, 0, fileSize(path), path.getFileName().toString()));
        }
        return DamagedFiles.preserve(files, options.damagedDirectory(), "wal", pieces, report);
    }

    private static int indexOf(List<Long> starts, Path segment) {
        long start = LogFormat.startLsnOfName(segment.getFileName().toString());
        return starts.indexOf(start);
    }

    private static ColumbaException refuse(FilesFacade files, Path directory, List<Long> starts, LogDamage damage,
                                           RecoveryOptions options) {
        String report = damage.describe() + ". The log can be trusted up to LSN " + damage.consistentLsn()
                + ", the end of the last whole group before the damage.";
        Path copy = preserveSegments(files, directory, starts, indexOf(starts, damage.file()), options, report);
        return new ColumbaException(ErrorCode.WAL_CORRUPT, report + " The log was left as it is; a copy of the "
                + "damaged segments is in " + copy + ".");
    }

    /** Copies the bytes a torn tail cut will remove, then cuts them (or writes the interrupted header again). */
    private static void cutTornTail(FilesFacade files, LogScan.Torn torn, RecoveryOptions options) {
        if (torn.discardedBytes() > 0) {
            String name = torn.file().getFileName() + ".tail-" + torn.offset();
            DamagedFiles.preserve(files, options.damagedDirectory(), "torn",
                    List.of(new DamagedFiles.Piece(torn.file(), torn.offset(), torn.discardedBytes(), name)),
                    "torn tail of write-ahead log segment " + torn.file() + ": " + torn.discardedBytes()
                            + " bytes from offset " + torn.offset() + " were cut when the log was opened, the log "
                            + "then ending at LSN " + torn.endLsn() + ": " + torn.reason());
        }
        try (FileHandle segment = files.open(torn.file(), FilesFacade.OpenMode.READ_WRITE, false)) {
            if (torn.headerIncomplete()) {
                segment.truncate(0);
                SegmentHeader.write(segment, torn.endLsn() - LogFormat.HEADER_SIZE);
            } else {
                segment.truncate(torn.offset());
            }
            segment.force(true);
        }
    }

    /**
     * Cuts the log at its last consistent point at or after the redo point, after preserving every
     * segment it changes, and starts a new segment there. Damage before the redo point is not
     * needed by recovery; the new segment leaves it in a segment the next checkpoint removes.
     */
    private static WriteAheadLog recoverToConsistentPoint(FilesFacade files, Path directory, long segmentSizeBytes,
                                                          List<Long> starts, LogDamage damage, RecoveryOptions options) {
        ConsistentPoint point = consistentPoint(files, directory, starts, damage, options);
        long target = point.lsn();
        int holder = point.holder();
        long holderStart = starts.get(holder);
        long lastStart = starts.getLast();
        long oldEnd = lastStart + fileSize(directory.resolve(LogFormat.segmentName(lastStart)));
        int firstChanged = Math.min(holder, Math.max(0, indexOf(starts, damage.file())));
        Path copy = preserveSegments(files, directory, starts, firstChanged, options, damage.describe()
                + ". Recovered to LSN " + target + " (wal_recovery_mode = point_in_time): the log after it was cut.");
        try (FileHandle segment = files.open(directory.resolve(LogFormat.segmentName(holderStart)),
                FilesFacade.OpenMode.READ_WRITE, false)) {
            segment.truncate(target - holderStart);
            segment.force(true);
        }
        for (int index = starts.size() - 1; index > holder; index--) {
            Path later = directory.resolve(LogFormat.segmentName(starts.get(index)));
            try {
                Files.delete(later);
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot delete write-ahead log segment " + later + ": " + e, e);
            }
            files.syncDirectory(directory);
            starts.remove(index);
        }
        FileHandle fresh = createSegment(files, directory, target);
        starts.add(target);
        LogRepair repair = new LogRepair(damage, target, oldEnd - target, copy, false);
        return new WriteAheadLog(files, directory, segmentSizeBytes, starts, fresh, target + LogFormat.HEADER_SIZE,
                new LogEnd.Clean(target + LogFormat.HEADER_SIZE), 1, repair);
    }

    /**
     * Opens the log read-only, ending at its last consistent point at or after the redo point,
     * after preserving the damaged segments; no log file is changed.
     */
    private static WriteAheadLog openReadOnly(FilesFacade files, Path directory, long segmentSizeBytes, List<Long> starts,
                                              LogDamage damage, RecoveryOptions options) {
        ConsistentPoint point = consistentPoint(files, directory, starts, damage, options);
        long lastStart = starts.getLast();
        long oldEnd = lastStart + fileSize(directory.resolve(LogFormat.segmentName(lastStart)));
        int firstDamaged = Math.min(point.holder(), Math.max(0, indexOf(starts, damage.file())));
        Path copy = preserveSegments(files, directory, starts, firstDamaged, options, damage.describe()
                + ". Opened read-only at LSN " + point.lsn() + " (wal_recovery_mode = read_only_consistent); "
                + "no log file was changed.");
        List<Long> kept = new ArrayList<>(starts.subList(0, point.holder() + 1));
        FileHandle holder = files.open(directory.resolve(LogFormat.segmentName(kept.getLast())),
                FilesFacade.OpenMode.READ, false);
        LogRepair opened = new LogRepair(damage, point.lsn(), oldEnd - point.lsn(), copy, true);
        WriteAheadLog log = new WriteAheadLog(files, directory, segmentSizeBytes, kept, holder, point.lsn(),
                new LogEnd.Clean(point.lsn()), 0, opened);
        log.stopped = new Stopped(ErrorCode.DATABASE_READ_ONLY, "write-ahead log " + directory + " is read-only: it was "
                + "opened at LSN " + point.lsn() + ", the last consistent point before damage "
                + "(wal_recovery_mode = read_only_consistent)", null);
        return log;
    }

    /** The last consistent point at or after the redo point, and the index of the segment holding it. */
    private record ConsistentPoint(long lsn, int holder) {
    }

    private static ConsistentPoint consistentPoint(FilesFacade files, Path directory, List<Long> starts,
                                                   LogDamage damage, RecoveryOptions options) {
        LogScan.Outcome fromRedo = scan(files, directory, starts, options.redoLsn(),
                new RecoveryOptions(0, options.redoLsn(), options.damagedDirectory(), options.onDamage()));
        long target = switch (fromRedo) {
            case LogScan.Clean clean -> clean.endLsn();
            case LogScan.Torn torn -> torn.headerIncomplete() ? torn.endLsn() - LogFormat.HEADER_SIZE : torn.endLsn();
            case LogScan.Damaged damaged -> damaged.damage().consistentLsn();
        };
        int holder = starts.size() - 1;
        while (holder > 0 && starts.get(holder) >= target) {
            holder--;
        }
        long holderStart = starts.get(holder);
        if (target < options.redoLsn() || target < holderStart + LogFormat.HEADER_SIZE) {
            throw new ColumbaException(ErrorCode.WAL_CORRUPT, damage.describe() + ". The log cannot be recovered to a "
                    + "consistent point: the last one, LSN " + target + ", lies before the redo point, LSN "
                    + options.redoLsn() + ", and the data file already holds later changes.");
        }
        return new ConsistentPoint(target, holder);
    }

    private static long fileSize(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read the size of " + path + ": " + e, e);
        }
    }

    /** Opens the last segment to append after {@code tail}, making what it holds durable. */
    private static WriteAheadLog openLast(FilesFacade files, Path directory, long segmentSizeBytes, List<Long> starts,
                                          LogEnd tail, LogRepair repair) {
        Path lastPath = directory.resolve(LogFormat.segmentName(starts.getLast()));
        FileHandle last = files.open(lastPath, FilesFacade.OpenMode.READ_WRITE, false);
        try {
            // What a crashed process left in the page cache, and any cut, is durable from here on;
            // so is the last segment's directory entry, should its creation have been interrupted.
            last.force(true);
            files.syncDirectory(directory);
            return new WriteAheadLog(files, directory, segmentSizeBytes, starts, last, tail.lsn(), tail, 1, repair);
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
        long groupBytes = 0;
        for (int index = 0; index < group.size(); index++) {
            LogRecord record = group.get(index);
            if (record == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "record " + index + " of the append group is null");
            }
            groupBytes += RecordCodec.frameSize(record);
        }
        return append(group.size(), groupBytes, group::get, recordLsns);
    }

    /** The bytes {@code record} takes in the log, frame header included. */
    public static int frameSize(LogRecord record) {
        return RecordCodec.frameSize(record);
    }

    /**
     * Appends a group of {@code recordCount} records that {@code source} produces one at a time, in
     * index order, while they are written: a group larger than memory streams through the chunk
     * buffer. Otherwise as {@link #append(List, long[])}: one atomic group, contiguous, in one segment.
     * If {@code source} throws, the group is cut off the file and the exception passes on.
     *
     * @param groupBytes the sum of {@link #frameSize} over the records, known before the first is
     *     written (the group's segment is chosen by it); a mismatch is an error and nothing is appended
     */
    public long append(int recordCount, long groupBytes, java.util.function.IntFunction<LogRecord> source,
                       long[] recordLsns) {
        if (recordCount < 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "an append group needs at least one record");
        }
        if (recordLsns != null && recordLsns.length < recordCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "record LSN array holds " + recordLsns.length
                    + " entries for a group of " + recordCount + " records");
        }
        appendLock.lock();
        try {
            checkUsable();
            long segmentLength = endLsn - currentStart;
            if (segmentLength > LogFormat.HEADER_SIZE && segmentLength + groupBytes > segmentSize) {
                startNextSegment();
            }
            long groupStart = endLsn;
            long written;
            try {
                written = writeGroup(recordCount, source, groupStart, recordLsns);
                if (written != groupBytes) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "an append group announced as " + groupBytes
                            + " bytes took " + written);
                }
            } catch (RuntimeException writeFailure) {
                abandonGroup(groupStart, writeFailure);
                throw writeFailure;
            }
            long groupEnd = groupStart + groupBytes;
            endLsn = groupEnd;
            records.addAndGet(recordCount);
            groups.incrementAndGet();
            bytes.addAndGet(groupBytes);
            return groupEnd;
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Encodes the group into the chunk buffer and writes it out whenever the next record does not fit.
     *
     * @return the bytes written
     */
    private long writeGroup(int recordCount, java.util.function.IntFunction<LogRecord> source, long groupStart,
                            long[] recordLsns) {
        long chunkLsn = groupStart;
        int position = 0;
        for (int index = 0; index < recordCount; index++) {
            LogRecord record = source.apply(index);
            if (record == null) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "record " + index + " of the append group is null");
            }
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
            position = RecordCodec.encode(record, lsn, index == recordCount - 1, chunk, position, crc);
        }
        writeChunk(chunkLsn, position);
        return chunkLsn + position - groupStart;
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
        committers++;
        roundPeak = Math.max(roundPeak, committers);
        committerArrived.signal();
        boolean leading = false;
        boolean interrupted = false;
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
            leading = true;
            interrupted = gatherGroup();
        } finally {
            if (!leading) {
                committers--;
            }
            syncLock.unlock();
        }
        // The leader. Holding the sync role pins `current`; endLsn may still grow inside it.
        long target = endLsn;
        long durable = durableLsn;
        try {
            long started = System.nanoTime();
            current.force(false);
            lastSyncNanos = System.nanoTime() - started;
            syncs.incrementAndGet();
            durable = target;
        } catch (RuntimeException syncFailure) {
            fail(syncFailure, "fdatasync of " + current.path() + " failed");
            throw syncFailure;
        } finally {
            syncLock.lock();
            committers--;
            syncLock.unlock();
            releaseSyncRole(durable);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The leader, holding the sync role and the sync lock, waits until as many callers are inside
     * {@link #flush} as were at once during the previous round, or until its bound passes; then
     * starts a new round. See the class comment. An interrupt does not cut the wait short (the
     * sync must not see it); it is reported, for the caller to restore after the sync.
     *
     * @return whether the thread was interrupted meanwhile
     */
    private boolean gatherGroup() {
        int expected = roundPeak;
        long override = gatherBoundOverride;
        long bound = override >= 0 ? override : Math.min(lastSyncNanos / 2, MAX_GATHER_NANOS);
        long deadline = System.nanoTime() + bound;
        boolean interrupted = false;
        long remaining = bound;
        while (committers < expected && remaining > 0 && stopped == null && !closed) {
            try {
                committerArrived.awaitNanos(remaining);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            remaining = deadline - System.nanoTime();
        }
        roundPeak = committers;
        return interrupted;
    }

    /** Callers inside {@link #flush} now, waiting or leading (for tests that force interleavings). */
    int committersInFlush() {
        syncLock.lock();
        try {
            return committers;
        } finally {
            syncLock.unlock();
        }
    }

    /** Makes a leader gather for at most {@code nanos}, whatever the last sync took (tests). */
    void overrideGatherBound(long nanos) {
        gatherBoundOverride = nanos;
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
            if (readOnly()) {
                checkUsable();
            }
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

    /**
     * Whether the log was opened read-only at the last consistent point before damage
     * ({@link RecoveryOptions.OnDamage#OPEN_READ_ONLY_AT_LAST_CONSISTENT_POINT}): appends, flushes
     * past that point and segment removal fail with {@link ErrorCode#DATABASE_READ_ONLY}.
     */
    public boolean readOnly() {
        return repairAtOpen != null && repairAtOpen.readOnly();
    }

    /** What opening cut from a damaged log because it was told to, or how it opened it read-only, if either. */
    public java.util.Optional<LogRepair> repairAtOpen() {
        return java.util.Optional.ofNullable(repairAtOpen);
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
