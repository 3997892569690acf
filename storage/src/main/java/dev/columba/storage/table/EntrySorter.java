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
import java.util.List;

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
    /** What an entry costs in memory beyond its bytes: its length words, three longs of the index and three of the sort's. */
    private static final int ENTRY_OVERHEAD = 8 + 6 * Long.BYTES;
    /** A run's read or write buffer, at most. */
    private static final int MAX_BUFFER = 1 << 20;
    /**
     * The entries' bytes are copied into arenas of this size (an entry larger gets one of its
     * own): a few large arrays instead of three objects per entry, which the young collections
     * copied again and again while a run filled (with 64 MB of entries held, the collector's
     * threads used about half as much CPU as the load's own thread).
     */
    private static final int MAX_ARENA_BYTES = 4 << 20;
    private static final java.lang.invoke.VarHandle INTS = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            int[].class, java.nio.ByteOrder.BIG_ENDIAN);

    private final Path directory;
    private final long memoryBytes;
    /** {@link #MAX_ARENA_BYTES}, or less for a small sort (a quarter of its memory, at least 64 KB). */
    private final int arenaBytes;
    /** Entries held: each as [key length, value length (big-endian ints), key, value], the run file's format. */
    private final List<byte[]> arenas = new ArrayList<>();
    private int arenaEnd;
    /** Per entry held: arena index << 32 | offset in it; and its key's first and second eight bytes. */
    private long[] addresses = new long[1024];
    private long[] highs = new long[1024];
    private long[] lows = new long[1024];
    private int held;
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
        this.arenaBytes = (int) Math.clamp(memoryBytes / 4, 64 << 10, MAX_ARENA_BYTES);
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
        add(key, value, value.length);
    }

    /** Adds the entry (key, {@code value[0, valueLength)}); both are copied, so the caller may reuse them. */
    void add(byte[] key, byte[] value, int valueLength) {
        int size = 8 + key.length + valueLength;
        if (arenas.isEmpty() || arenaEnd + size > arenas.getLast().length) {
            arenas.add(new byte[Math.max(arenaBytes, size)]);
            arenaEnd = 0;
        }
        byte[] arena = arenas.getLast();
        INTS.set(arena, arenaEnd, key.length);
        INTS.set(arena, arenaEnd + 4, valueLength);
        System.arraycopy(key, 0, arena, arenaEnd + 8, key.length);
        System.arraycopy(value, 0, arena, arenaEnd + 8 + key.length, valueLength);
        if (held == addresses.length) {
            int capacity = held * 2;
            addresses = Arrays.copyOf(addresses, capacity);
            highs = Arrays.copyOf(highs, capacity);
            lows = Arrays.copyOf(lows, capacity);
        }
        addresses[held] = (long) (arenas.size() - 1) << 32 | arenaEnd;
        highs[held] = prefix(key);
        lows[held] = secondPrefix(key);
        held++;
        arenaEnd += size;
        bufferedBytes += key.length + valueLength + ENTRY_OVERHEAD;
        entries++;
        if (bufferedBytes >= memoryBytes) {
            writeRun();
        }
    }

    private byte[] arena(long address) {
        return arenas.get((int) (address >>> 32));
    }

    private static int keyLength(byte[] arena, int offset) {
        return (int) INTS.get(arena, offset);
    }

    private static int valueLength(byte[] arena, int offset) {
        return (int) INTS.get(arena, offset + 4);
    }

    /** Unsigned order of the keys of two held entries. */
    private int compareHeld(long left, long right) {
        byte[] leftArena = arena(left);
        byte[] rightArena = arena(right);
        int leftOffset = (int) left;
        int rightOffset = (int) right;
        return Arrays.compareUnsigned(leftArena, leftOffset + 8, leftOffset + 8 + keyLength(leftArena, leftOffset),
                rightArena, rightOffset + 8, rightOffset + 8 + keyLength(rightArena, rightOffset));
    }

    /** Forgets the held entries, keeping one arena and the index arrays for the next run. */
    private void clearHeld() {
        byte[] first = arenas.isEmpty() ? null : arenas.getFirst();
        arenas.clear();
        if (first != null && first.length == arenaBytes) {
            arenas.add(first);
        }
        arenaEnd = 0;
        held = 0;
        bufferedBytes = 0;
    }

    static long prefix(byte[] key) {
        long prefix = 0;
        int length = Math.min(8, key.length);
        for (int index = 0; index < length; index++) {
            prefix |= (key[index] & 0xFFL) << (56 - 8 * index);
        }
        return prefix;
    }

    /**
     * Sorts the held entries by key: a least-significant-digit radix sort, a byte a pass, of each
     * key's first sixteen bytes ({@link #prefix} and the eight after, unsigned), skipping the
     * passes whose byte is the same in every entry, then the whole keys within each run of equal
     * sixteen bytes (rare: a clustered key of a few whole numbers fits in them). A comparison sort
     * of entry objects (TimSort through a comparator) was a fifth of a shuffled load's time, most
     * of it reaching entries scattered over the heap; the passes read primitive arrays in order.
     */
    private void sortHeld() {
        int count = held;
        if (count < 2) {
            return;
        }
        long highOr = 0;
        long highAnd = -1;
        long lowOr = 0;
        long lowAnd = -1;
        for (int index = 0; index < count; index++) {
            highOr |= highs[index];
            highAnd &= highs[index];
            lowOr |= lows[index];
            lowAnd &= lows[index];
        }
        long[] address = addresses;
        long[] high = highs;
        long[] low = lows;
        long[] addressTo = new long[count];
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
                addressTo[to] = address[index];
                highTo[to] = high[index];
                lowTo[to] = low[index];
            }
            long[] swap = address;
            address = addressTo;
            addressTo = swap;
            swap = high;
            high = highTo;
            highTo = swap;
            swap = low;
            low = lowTo;
            lowTo = swap;
        }
        for (int start = 0; start < count; ) {
            int end = start + 1;
            while (end < count && high[end] == high[start] && low[end] == low[start]) {
                end++;
            }
            // Equal sixteen bytes: few entries, an insertion sort by whole key.
            for (int index = start + 1; index < end; index++) {
                long moving = address[index];
                int to = index;
                while (to > start && compareHeld(address[to - 1], moving) > 0) {
                    address[to] = address[to - 1];
                    to--;
                }
                address[to] = moving;
            }
            start = end;
        }
        if (address != addresses) {
            // The last pass wrote the scratch arrays: they become the index (same order, count entries).
            System.arraycopy(address, 0, addresses, 0, count);
            System.arraycopy(high, 0, highs, 0, count);
            System.arraycopy(low, 0, lows, 0, count);
        }
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
        sortHeld();
        long start = fileEnd;
        if (out == null) {
            out = ByteBuffer.allocateDirect(MAX_BUFFER);
        }
        out.clear();
        try {
            openFile();
            for (int index = 0; index < held; index++) {
                byte[] arena = arena(addresses[index]);
                int offset = (int) addresses[index];
                int size = 8 + keyLength(arena, offset) + valueLength(arena, offset);
                if (size > out.remaining()) {
                    flush(out);
                }
                if (size > out.capacity()) {
                    out = ByteBuffer.allocateDirect(size);
                }
                // The arena holds the run file's entry format already: two big-endian lengths, key, value.
                out.put(arena, offset, size);
            }
            flush(out);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write a sort run of a bulk load to " + directory + ": "
                    + e.getMessage(), e);
        }
        runs.add(new long[] {start, fileEnd});
        clearHeld();
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
        sortHeld();
        if (runs.isEmpty()) {
            return new MemoryEntries(this);
        }
        List<Entries> sources = new ArrayList<>();
        int bufferSize = (int) Math.max(64 << 10, Math.min(MAX_BUFFER, memoryBytes / (runs.size() + 1)));
        for (long[] run : runs) {
            sources.add(new RunEntries(file, run[0], run[1], bufferSize, directory));
        }
        sources.add(new MemoryEntries(this));
        return new MergedEntries(sources);
    }

    @Override
    public void close() {
        clearHeld();
        arenas.clear();
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

    /** The held entries in their sorted order; each key and value copied out as it is reached. */
    private static final class MemoryEntries implements Entries {
        private final EntrySorter sorter;
        private int position = -1;
        private byte[] key;
        private byte[] value;

        MemoryEntries(EntrySorter sorter) {
            this.sorter = sorter;
        }

        @Override
        public boolean next() {
            if (position + 1 >= sorter.held) {
                position = sorter.held;
                key = null;
                value = null;
                return false;
            }
            position++;
            long address = sorter.addresses[position];
            byte[] arena = sorter.arena(address);
            int offset = (int) address;
            int keyStart = offset + 8;
            int valueStart = keyStart + keyLength(arena, offset);
            key = Arrays.copyOfRange(arena, keyStart, valueStart);
            value = Arrays.copyOfRange(arena, valueStart, valueStart + valueLength(arena, offset));
            return true;
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
            return sorter.highs[position];
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

    /**
     * The sources merged through a tree of losers (Knuth, TAOCP 5.4.1): one comparison per
     * level from the source just advanced to the root, against the loser kept at each node, where a
     * {@code PriorityQueue} of sources polled and re-added each one (two sift passes through a
     * comparator lambda and interface calls, 9.6% of a shuffled load's thread in a profile). Each
     * source's current key prefix is held in an array, so most comparisons are of two longs.
     */
    private static final class MergedEntries implements Entries {
        private final Entries[] sources;
        /** The current key of each source, null once it is exhausted (exhausted sources lose every match). */
        private final byte[][] keys;
        private final long[] prefixes;
        /**
         * Node {@code n} (1 to k-1) keeps the loser of the match played there; leaves are nodes
         * {@code k} to {@code 2k-1} (source {@code n - k}), node {@code n}'s children {@code 2n} and
         * {@code 2n + 1}; {@code losers[0]} is the overall winner, the current entry.
         */
        private final int[] losers;
        private boolean started;

        MergedEntries(List<Entries> sources) {
            this.sources = sources.toArray(new Entries[0]);
            this.keys = new byte[this.sources.length][];
            this.prefixes = new long[this.sources.length];
            this.losers = new int[Math.max(1, this.sources.length)];
        }

        @Override
        public boolean next() {
            int count = sources.length;
            if (count == 0) {
                return false;
            }
            if (!started) {
                started = true;
                for (int source = 0; source < count; source++) {
                    advance(source);
                }
                losers[0] = play(1);
            } else {
                int winner = losers[0];
                if (keys[winner] == null) {
                    return false;
                }
                advance(winner);
                for (int node = (winner + count) >>> 1; node >= 1; node >>>= 1) {
                    int loser = losers[node];
                    if (precedes(loser, winner)) {
                        losers[node] = winner;
                        winner = loser;
                    }
                }
                losers[0] = winner;
            }
            return keys[losers[0]] != null;
        }

        /** The winner of the subtree at {@code node}, recording the loser of each match in it. */
        private int play(int node) {
            int count = sources.length;
            if (node >= count) {
                return node - count;
            }
            int left = play(2 * node);
            int right = play(2 * node + 1);
            boolean leftWins = !precedes(right, left);
            losers[node] = leftWins ? right : left;
            return leftWins ? left : right;
        }

        private void advance(int source) {
            Entries entries = sources[source];
            if (entries.next()) {
                keys[source] = entries.key();
                prefixes[source] = entries.prefix();
            } else {
                keys[source] = null;
            }
        }

        /** Whether source {@code left}'s entry comes strictly before source {@code right}'s. */
        private boolean precedes(int left, int right) {
            byte[] leftKey = keys[left];
            byte[] rightKey = keys[right];
            if (leftKey == null) {
                return false;
            }
            if (rightKey == null) {
                return true;
            }
            int order = Long.compareUnsigned(prefixes[left], prefixes[right]);
            return order != 0 ? order < 0 : Arrays.compareUnsigned(leftKey, rightKey) < 0;
        }

        @Override
        public byte[] key() {
            return keys[losers[0]];
        }

        @Override
        public byte[] value() {
            return sources[losers[0]].value();
        }

        @Override
        public long prefix() {
            return prefixes[losers[0]];
        }
    }
}
