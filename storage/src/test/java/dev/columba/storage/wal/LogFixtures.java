package dev.columba.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** Records, frame sizes and file surgery shared by the write-ahead log's tests. */
final class LogFixtures {
    /** Format version 1 sizes, spelled out so that a format change shows up as a test failure. */
    static final int HEADER = 32;
    static final int IMAGE_FRAME = 12 + 8 + 8192;
    static final int COMMIT_FRAME = 12 + 16;
    static final int CHECKPOINT_FRAME = 12 + 8;

    private LogFixtures() {
    }

    /** 8 KB of bytes determined by {@code seed}. */
    static byte[] page(long seed) {
        byte[] page = new byte[8192];
        new SplittableRandom(seed).nextBytes(page);
        return page;
    }

    static LogRecord.PageImage image(long pageId, long seed) {
        return new LogRecord.PageImage(pageId, page(seed));
    }

    static LogRecord.PageDelta.Range range(int offset, int... bytes) {
        byte[] values = new byte[bytes.length];
        for (int index = 0; index < bytes.length; index++) {
            values[index] = (byte) bytes[index];
        }
        return new LogRecord.PageDelta.Range(offset, values);
    }

    static int deltaFrame(LogRecord.PageDelta delta) {
        int size = 12 + 10;
        for (LogRecord.PageDelta.Range range : delta.ranges()) {
            size += 4 + range.bytes().length;
        }
        return size;
    }

    static LogRecord.Commit commit(long transactionId) {
        return new LogRecord.Commit(transactionId, 1_700_000_000_000_000L + transactionId);
    }

    /** Reads the whole log from {@code fromLsn} and checks that it ended cleanly. */
    static List<LogEntry> readAll(WriteAheadLog log, long fromLsn) {
        try (LogReader reader = log.read(fromLsn)) {
            List<LogEntry> entries = new ArrayList<>();
            reader.forEachRemaining(entries::add);
            assertEquals(new LogEnd.Clean(log.endLsn()), reader.end());
            return entries;
        }
    }

    static List<LogRecord> recordsOf(List<LogEntry> entries) {
        return entries.stream().map(LogEntry::record).toList();
    }

    static Path segment(Path directory, long startLsn) {
        return directory.resolve(String.format(Locale.ROOT, "%016x.wal", startLsn));
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void truncate(Path file, long size) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void overwrite(Path file, long offset, byte[] bytes) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(bytes), offset);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte readByte(Path file, long offset) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(1);
            channel.read(buffer, offset);
            return buffer.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flips every bit of the byte at {@code offset}. */
    static void flipByte(Path file, long offset) {
        overwrite(file, offset, new byte[] {(byte) ~readByte(file, offset)});
    }
}
