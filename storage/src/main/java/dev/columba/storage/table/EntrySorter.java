package dev.columba.storage.table;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts entries — a key and a value, both bytes — by key (unsigned byte order, the B+tree's) for a
 * bulk load: entries are held in memory up to {@code memoryBytes}, then sorted and written as a
 * run to a temporary file, and {@link #sorted} merges the runs and what is still in memory in one
 * pass. All runs go to one file in the given directory, deleted as soon as it is opened, so it
 * never outlives the process, whatever ends it, and a crash leaves nothing to clean up. Equal keys
 * come out adjacent, in no particular order. Not thread-safe; one use: add, then {@link #sorted},
 * then {@link #close}.
 */
final class EntrySorter implements AutoCloseable {
    /** What an entry costs in memory beyond its bytes: the entry, two array headers and a slot in the buffer. */
    private static final int ENTRY_OVERHEAD = 72;
    /** A run's read or write buffer, at most. */
    private static final int MAX_BUFFER = 1 << 20;

    private final Path directory;
    private final long memoryBytes;
    private final List<Entry> buffer = new ArrayList<>();
    private long bufferedBytes;
    private long entries;
    private FileChannel file;
    private long fileEnd;
    /** The runs' write buffer, made at the first run. */
    private ByteBuffer out;
    /** Each run's start and end offsets in the file. */
    private final List<long[]> runs = new ArrayList<>();

    EntrySorter(Path directory, long memoryBytes) {
        this.directory = directory;
        this.memoryBytes = Math.max(1, memoryBytes);
    }

    /** Entries added so far. */
    long entries() {
        return entries;
    }

    /** Runs written to the temporary file so far. */
    int runs() {
        return runs.size();
    }

    void add(byte[] key, byte[] value) {
        buffer.add(new Entry(prefix(key), key, value));
        bufferedBytes += key.length + value.length + ENTRY_OVERHEAD;
        entries++;
        if (bufferedBytes >= memoryBytes) {
            writeRun();
        }
    }

    /**
     * An entry with its key's first eight bytes as an unsigned big-endian long (zeros past a shorter
     * key), so that most comparisons are one of longs: equal prefixes fall back to the whole keys.
     */
    private record Entry(long prefix, byte[] key, byte[] value) {
    }

    private static final Comparator<Entry> BY_KEY = (left, right) -> {
        int order = Long.compareUnsigned(left.prefix, right.prefix);
        return order != 0 ? order : Arrays.compareUnsigned(left.key, right.key);
    };

    static long prefix(byte[] key) {
        long prefix = 0;
        int length = Math.min(8, key.length);
        for (int index = 0; index < length; index++) {
            prefix |= (key[index] & 0xFFL) << (56 - 8 * index);
        }
        return prefix;
    }

    /**
     * Sorts {@link #buffer} by key: a least-significant-digit radix sort, a byte a pass, of each
     * key's first sixteen bytes (its {@link #prefix} and the eight after, unsigned), skipping the
     * passes whose byte is the same in every entry, then the whole keys within each run of equal
     * sixteen bytes (rare: a clustered key of a few whole numbers fits in them). A comparison sort
     * of the entries (TimSort through a comparator) was a fifth of a shuffled load's time, most of
     * it comparing entries scattered over the heap; the passes read two primitive arrays in order.
     */
    private void sortBuffer() {
        int count = buffer.size();
        if (count < 2) {
            return;
        }
        Entry[] entries = buffer.toArray(new Entry[0]);
        long[] high = new long[count];
        long[] low = new long[count];
        long highOr = 0;
        long highAnd = -1;
        long lowOr = 0;
        long lowAnd = -1;
        for (int index = 0; index < count; index++) {
            high[index] = entries[index].prefix;
            low[index] = secondPrefix(entries[index].key);
            highOr |= high[index];
            highAnd &= high[index];
            lowOr |= low[index];
            lowAnd &= low[index];
        }
        Entry[] entriesTo = new Entry[count];
        long[] highTo = new long[count];
        long[] lowTo = new long[count];
        int[] starts = new int[257];
        // Bytes from least to most significant: the second eight bytes' first, then the prefix's.
        for (int digit = 0; digit < 16; digit++) {
            boolean inHigh = digit >= 8;
            int shift = 8 * (digit & 7);
            long varying = inHigh ? highOr ^ highAnd : lowOr ^ lowAnd;
            if ((varying >>> shift & 0xFF) == 0) {
                continue;
            }
            long[] digits = inHigh ? high : low;
            Arrays.fill(starts, 0);
            for (int index = 0; index < count; index++) {
                starts[(int) (digits[index] >>> shift & 0xFF) + 1]++;
            }
            for (int bucket = 0; bucket < 256; bucket++) {
                starts[bucket + 1] += starts[bucket];
            }
            for (int index = 0; index < count; index++) {
                int to = starts[(int) (digits[index] >>> shift & 0xFF)]++;
                entriesTo[to] = entries[index];
                highTo[to] = high[index];
                lowTo[to] = low[index];
            }
            Entry[] entriesFrom = entries;
            entries = entriesTo;
            entriesTo = entriesFrom;
            long[] highFrom = high;
            high = highTo;
            highTo = highFrom;
            long[] lowFrom = low;
            low = lowTo;
            lowTo = lowFrom;
        }
        for (int start = 0; start < count; ) {
            int end = start + 1;
            while (end < count && high[end] == high[start] && low[end] == low[start]) {
                end++;
            }
            if (end - start > 1) {
                Arrays.sort(entries, start, end, BY_KEY);
            }
            start = end;
        }
        buffer.clear();
        buffer.addAll(Arrays.asList(entries));
    }

    /** A key's bytes 8 to 15 as an unsigned big-endian long, zeros past a shorter key. */
    private static long secondPrefix(byte[] key) {
        long prefix = 0;
        int length = Math.min(16, key.length);
        for (int index = 8; index < length; index++) {
            prefix |= (key[index] & 0xFFL) << (56 - 8 * (index - 8));
        }
        return prefix;
    }

    private void writeRun() {
        sortBuffer();
        long start = fileEnd;
        if (out == null) {
            out = ByteBuffer.allocateDirect(MAX_BUFFER);
        }
        out.clear();
        try {
            openFile();
            for (Entry entry : buffer) {
                int size = 8 + entry.key.length + entry.value.length;
                if (size > out.remaining()) {
                    flush(out);
                }
                if (size > out.capacity()) {
                    out = ByteBuffer.allocateDirect(size);
                }
                out.putInt(entry.key.length).putInt(entry.value.length).put(entry.key).put(entry.value);
            }
            flush(out);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write a sort run of a bulk load to " + directory + ": "
                    + e.getMessage(), e);
        }
        runs.add(new long[] {start, fileEnd});
        buffer.clear();
        bufferedBytes = 0;
    }

    private void openFile() throws IOException {
        if (file == null) {
            Files.createDirectories(directory);
            Path path = Files.createTempFile(directory, "load-sort-", ".run");
            file = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Files.delete(path);
        }
    }

    private void flush(ByteBuffer out) throws IOException {
        // The run file is never synced: it is not needed after a crash.
        out.flip();
        while (out.hasRemaining()) {
            fileEnd += file.write(out, fileEnd);
        }
        out.clear();
    }

    /** The entries in key order: the runs and the entries still in memory, merged. Call once, after the last add. */
    Entries sorted() {
        sortBuffer();
        if (runs.isEmpty()) {
            return new MemoryEntries(buffer);
        }
        List<Entries> sources = new ArrayList<>();
        int bufferSize = (int) Math.max(64 << 10, Math.min(MAX_BUFFER, memoryBytes / (runs.size() + 1)));
        for (long[] run : runs) {
            sources.add(new RunEntries(file, run[0], run[1], bufferSize, directory));
        }
        sources.add(new MemoryEntries(buffer));
        return new MergedEntries(sources);
    }

    @Override
    public void close() {
        buffer.clear();
        if (file != null) {
            try {
                file.close();
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot close a sort run file in " + directory + ": "
                        + e.getMessage(), e);
            } finally {
                file = null;
            }
        }
    }

    /** Entries in key order: {@link #next} moves to the next one, then {@link #key} and {@link #value} read it. */
    interface Entries {
        boolean next();

        byte[] key();

        byte[] value();

        /** {@link #prefix} of the current key. */
        long prefix();
    }

    private static final class MemoryEntries implements Entries {
        private final List<Entry> entries;
        private int position = -1;

        MemoryEntries(List<Entry> entries) {
            this.entries = entries;
        }

        @Override
        public boolean next() {
            if (position + 1 >= entries.size()) {
                position = entries.size();
                return false;
            }
            if (position >= 0) {
                entries.set(position, null);
            }
            position++;
            return true;
        }

        @Override
        public byte[] key() {
            return entries.get(position).key;
        }

        @Override
        public byte[] value() {
            return entries.get(position).value;
        }

        @Override
        public long prefix() {
            return entries.get(position).prefix;
        }
    }

    private static final class RunEntries implements Entries {
        private final FileChannel file;
        private final Path directory;
        private long position;
        private final long end;
        private ByteBuffer in;
        private byte[] key;
        private byte[] value;
        private long prefix;

        RunEntries(FileChannel file, long start, long end, int bufferSize, Path directory) {
            this.file = file;
            this.position = start;
            this.end = end;
            this.directory = directory;
            this.in = ByteBuffer.allocateDirect(bufferSize);
            in.limit(0);
        }

        @Override
        public boolean next() {
            if (in.remaining() == 0 && position >= end) {
                return false;
            }
            ensure(8);
            int keyLength = in.getInt();
            int valueLength = in.getInt();
            ensure(keyLength + valueLength);
            key = new byte[keyLength];
            value = new byte[valueLength];
            in.get(key).get(value);
            prefix = EntrySorter.prefix(key);
            return true;
        }

        /** Makes {@code bytes} readable from the buffer, reading more of the run. */
        private void ensure(int bytes) {
            if (in.remaining() >= bytes) {
                return;
            }
            if (bytes > in.capacity()) {
                ByteBuffer larger = ByteBuffer.allocateDirect(bytes);
                larger.put(in);
                in = larger;
            } else {
                in.compact();
            }
            try {
                while (in.position() < bytes) {
                    int wanted = (int) Math.min(in.remaining(), end - position);
                    if (wanted <= 0) {
                        throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "a sort run of a bulk load in " + directory
                                + " ends inside an entry");
                    }
                    ByteBuffer window = in.duplicate();
                    window.limit(window.position() + wanted);
                    int read = file.read(window, position);
                    if (read < 0) {
                        throw new ColumbaException(ErrorCode.FILE_TRUNCATED, "a sort run of a bulk load in " + directory
                                + " ends before its recorded end");
                    }
                    position += read;
                    in.position(in.position() + read);
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read a sort run of a bulk load in " + directory + ": "
                        + e.getMessage(), e);
            }
            in.flip();
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public long prefix() {
            return prefix;
        }
    }

    private static final class MergedEntries implements Entries {
        private final PriorityQueue<Entries> heads = new PriorityQueue<>((left, right) -> {
            int order = Long.compareUnsigned(left.prefix(), right.prefix());
            return order != 0 ? order : Arrays.compareUnsigned(left.key(), right.key());
        });
        private final List<Entries> pending;
        private Entries current;

        MergedEntries(List<Entries> sources) {
            this.pending = sources;
        }

        @Override
        public boolean next() {
            if (pending != null && current == null && heads.isEmpty()) {
                for (Entries source : pending) {
                    if (source.next()) {
                        heads.add(source);
                    }
                }
                pending.clear();
            } else if (current != null && current.next()) {
                heads.add(current);
            }
            current = heads.poll();
            return current != null;
        }

        @Override
        public byte[] key() {
            return current.key();
        }

        @Override
        public byte[] value() {
            return current.value();
        }

        @Override
        public long prefix() {
            return current.prefix();
        }
    }
}
