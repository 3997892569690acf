package dev.columba.storage.wal;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.io.FileHandle;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads the log's records in order from an LSN to the end the log had when the reader was
 * created, checking every frame's length and CRC32C. That end is a group end that opening the log
 * checked (torn tails were cut then) or that an append wrote, so a frame that fails the checks, or
 * a group that does not end, is corruption wherever it is: {@link ErrorCode#WAL_CORRUPT}, naming
 * file and offset.
 *
 * <p>The reader holds its own descriptors of the segments it will read, opened when it was
 * created, so removing segments meanwhile does not disturb it. Use from one thread at a time;
 * close it to release descriptors and buffers.
 */
public final class LogReader implements Iterator<LogEntry>, AutoCloseable {

    /** A segment to read: its file, start LSN and how many of its bytes belong to the log. */
    record Source(long startLsn, FileHandle file, long limit) {
    }

    private final List<Source> sources;
    private final SegmentScanner scanner = new SegmentScanner();
    private int sourceIndex;
    private LogEntry pending;
    private LogEnd end;
    /** Offset in the current segment where the group being read started; -1 between groups. */
    private long groupStartOffset = -1;
    private boolean closed;

    /** Takes ownership of the sources' files; reads the first from {@code fromOffset}. */
    LogReader(List<Source> sources, long fromOffset) {
        this.sources = List.copyOf(sources);
        try {
            enter(0, fromOffset);
        } catch (RuntimeException failure) {
            close();
            throw failure;
        }
    }

    private void enter(int index, long fromOffset) {
        sourceIndex = index;
        Source source = sources.get(index);
        SegmentHeader.check(SegmentHeader.read(source.file()), source.file().path(), source.startLsn());
        scanner.reset(source.file(), source.startLsn(), fromOffset, source.limit());
    }

    @Override
    public boolean hasNext() {
        if (pending != null) {
            return true;
        }
        if (end != null) {
            return false;
        }
        if (closed) {
            throw new ColumbaException(ErrorCode.INTERNAL, "log reader is closed");
        }
        while (true) {
            Source source = sources.get(sourceIndex);
            boolean last = sourceIndex == sources.size() - 1;
            switch (scanner.advance()) {
                case RECORD -> {
                    LogRecord record = scanner.decode();
                    if (groupStartOffset < 0) {
                        groupStartOffset = scanner.recordOffset();
                    }
                    boolean groupEnd = scanner.groupEnd();
                    pending = new LogEntry(source.startLsn() + scanner.recordOffset(),
                            source.startLsn() + scanner.nextOffset(), record, groupEnd);
                    if (groupEnd) {
                        groupStartOffset = -1;
                    }
                    return true;
                }
                case END -> {
                    if (last && groupStartOffset < 0) {
                        end = new LogEnd.Clean(source.startLsn() + source.limit());
                        return false;
                    }
                    if (groupStartOffset >= 0) {
                        throw RecordCodec.corrupt(source.file().path(), groupStartOffset,
                                source.startLsn() + groupStartOffset, "the group starting here "
                                + "does not end before the end of the " + (last ? "log" : "segment, and later segments follow"));
                    }
                    source.file().close();
                    enter(sourceIndex + 1, LogFormat.HEADER_SIZE);
                }
                case INVALID -> throw RecordCodec.corrupt(source.file().path(), scanner.recordOffset(),
                        source.startLsn() + scanner.recordOffset(), scanner.problem()
                        + (last ? "; the log was whole here when it was opened or written, so this is not a torn tail"
                                : "; later segments follow, so this is not a torn tail"));
            }
        }
    }

    /**
     * The next record. Records of a group are returned as they are read, so when corruption is
     * found inside a group, that group's earlier records have been returned already: a caller
     * acts on a group only at its end record.
     */
    @Override
    public LogEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no record after LSN " + end.lsn());
        }
        LogEntry entry = pending;
        pending = null;
        return entry;
    }

    /**
     * How reading ended; valid once {@link #hasNext()} has returned false.
     *
     * @throws IllegalStateException before that
     */
    public LogEnd end() {
        if (end == null) {
            throw new IllegalStateException("the reader has not reached the end of the log yet");
        }
        return end;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (Source source : sources) {
            try {
                source.file().close();
            } catch (RuntimeException closeFailure) {
                if (failure == null) {
                    failure = closeFailure;
                } else {
                    failure.addSuppressed(closeFailure);
                }
            }
        }
        scanner.close();
        if (failure != null) {
            throw failure;
        }
    }
}
