package dev.columba.planner.copy;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.TableSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The rows of a CSV file in file order, parsed by {@code maxDop} threads.
 *
 * <p>The file is read in blocks of {@value #BLOCK_BYTES} bytes, each cut just after its last
 * {@code \n}; the blocks are parsed in parallel, and their rows handed on in order. A cut is a
 * guess: a {@code \n} inside a quoted field is no record boundary. The rule that keeps it right:
 * block <i>k</i>'s parse is used only if block <i>k-1</i>'s parse ended exactly at the cut (its
 * last record closed there); block 0 starts at the file's start, so by induction every block used
 * starts at a record. When block <i>k-1</i> ends inside a record (a quoted line break across the
 * cut), its unfinished record and block <i>k</i> are parsed again, serially, as one run, and block
 * <i>k</i>'s speculative result, rows and errors alike, is thrown away. A file with quoted line
 * breaks is therefore read correctly at any MAXDOP, only less in parallel. With MAXDOP 1 one
 * thread reads and parses, carrying an unfinished record over to the next block.
 *
 * <p>Line numbers are counted by the parsers per block (line breaks, quoted ones included) and
 * added up in order, so every error names the file's line. Errors are reported when the reader
 * reaches them in file order: the first bad record of the file is the one reported.
 *
 * <p>The rows come out one at a time as Java values ({@link #next}, a rowstore's inserts) or a
 * parsed block at a time, column by column ({@link #batches}, a columnstore's bulk load); a reader
 * is read one way or the other, not both.
 */
public final class CsvReader implements Iterator<Object[]>, AutoCloseable {
    static final int BLOCK_BYTES = 1 << 21;
    /** Rows between two progress reports. */
    public static final int PROGRESS_EVERY = 1_000_000;

    private final FileChannel channel;
    private final String fileName;
    private final CsvFormat format;
    private final TableSchema schema;
    private final String table;
    private final int[] targets;
    private final Consumer<CopyProgress> progress;
    /** The file's size at opening, and the bytes read from it so far (for {@link #progress}). */
    private final long fileBytes;
    private long bytesRead;
    private final CsvBlockParser serialParser;
    private final ExecutorService workers;
    private final ThreadLocal<CsvBlockParser> parsers;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /**
     * Parsed blocks read row by row and passed: their batches and line arrays, for the next parses
     * to write into (parallel workers take them too). A block handed out by {@link #batches} is
     * the caller's and never comes back here.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<ParsedBlock> recycled =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** MAXDOP > 1: blocks of {@link #blockBytes} whose parse has returned, for {@link #readBlock} (reader thread only). */
    private final ArrayDeque<byte[]> freeBlocks = new ArrayDeque<>();
    /** The current block's batch went to the caller of {@link #batches}: not to be recycled. */
    private boolean currentHandedOut;
    private final int inFlight;
    private final int blockBytes;
    private byte[] carry = new byte[0];
    /**
     * MAXDOP 1: the bytes of the block parsed last, free once its parse returned, reused by the
     * next {@link #readBlock} (a block is a large array, costly to allocate per block); null in
     * parallel mode, where blocks are still being parsed when the next is read.
     */
    private byte[] spare;
    private int carryLength;
    private boolean fileEnded;
    /** The line of the next byte not yet handed to a parse used (1-based). */
    private long nextLine = 1;
    /** Bytes of an unfinished record the previous used parse left, to be parsed with the next block. */
    private byte[] leftover;
    private ParsedBlock current;
    private long currentBaseLine;
    private int rowInBlock;
    private long records;
    private long returnedLine;

    private record Block(byte[] bytes, int length, boolean atEof) {
    }

    private record Pending(Block block, Future<ParsedBlock> result) {
    }

    /**
     * Opens {@code file} and reads its header if the format has one.
     *
     * @param targets {@code targets[field]}: the column of {@code schema} each field goes to
     * @throws ColumbaException IO_ERROR if the file cannot be read; INVALID_ARGUMENT if the header
     *         does not name the target columns in order
     */
    public CsvReader(Path file, String fileName, CopyOptions options, TableSchema schema, String table, int[] targets,
                     Consumer<CopyProgress> progress) {
        this(file, fileName, options, schema, table, targets, progress, BLOCK_BYTES);
    }

    /** As above, with blocks of {@code blockBytes} (tests cut small files into many blocks). */
    CsvReader(Path file, String fileName, CopyOptions options, TableSchema schema, String table, int[] targets,
              Consumer<CopyProgress> progress, int blockBytes) {
        this.blockBytes = blockBytes;
        this.fileName = fileName;
        this.format = options.format();
        this.schema = schema;
        this.table = table;
        this.targets = targets.clone();
        this.progress = progress;
        try {
            this.channel = FileChannel.open(file, StandardOpenOption.READ);
            this.fileBytes = channel.size();
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + fileName + ": " + e.getMessage(), e);
        }
        this.serialParser = new CsvBlockParser(format, schema, table, targets);
        if (options.maxDop() > 1) {
            AtomicInteger threads = new AtomicInteger();
            this.workers = Executors.newFixedThreadPool(options.maxDop(), runnable -> {
                Thread thread = new Thread(runnable, "copy-parse-" + threads.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
            this.parsers = ThreadLocal.withInitial(() -> new CsvBlockParser(format, schema, table, targets));
            this.inFlight = options.maxDop() * 2;
        } else {
            this.workers = null;
            this.parsers = null;
            this.inFlight = 0;
        }
        try {
            if (format.header()) {
                readHeader();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** {@code failure} of the row {@link #next} returned last (a duplicate key), naming its line. */
    public ColumbaException atLastRow(ColumbaException failure) {
        return new ColumbaException(failure.errorCode(), fileName + " line " + returnedLine + ": "
                + failure.getMessage(), failure);
    }

    @Override
    public boolean hasNext() {
        while (current == null || rowInBlock >= current.batch().rows()) {
            if (current != null && current.failure() != null) {
                ColumbaException failure = current.failure();
                throw new ColumbaException(failure.errorCode(), fileName + " line "
                        + (currentBaseLine + current.failureLine()) + failure.detail(), failure);
            }
            if (!advance()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Object[] next() {
        return nextInBatch().row(lastRowInBatch());
    }

    /**
     * Moves to the next row as {@link #next} does, without making Java values of it: the row is row
     * {@link #lastRowInBatch()} of the batch returned, which is valid until the reader moves past
     * its block. {@link #atLastRow} names its line.
     */
    public ColumnBatch nextInBatch() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        returnedLine = currentBaseLine + current.rowLines()[rowInBlock];
        rowInBlock++;
        records++;
        if (records % PROGRESS_EVERY == 0) {
            progress.accept(new CopyProgress(records, bytesRead, fileBytes));
        }
        return current.batch();
    }

    /** The row {@link #nextInBatch} moved to, in the batch it returned. */
    public int lastRowInBatch() {
        return rowInBlock - 1;
    }

    /**
     * The rows as the parsed blocks hold them, one {@link ColumnBatch} per block in file order
     * (a new one each, which the caller may keep), with the errors of {@link #next} at the same
     * points. Progress is reported after the block that passes each multiple of
     * {@value #PROGRESS_EVERY} rows.
     */
    public Iterator<ColumnBatch> batches() {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return CsvReader.this.hasNext();
            }

            @Override
            public ColumnBatch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (rowInBlock != 0) {
                    throw new IllegalStateException("rows of this block were already read one at a time");
                }
                ColumnBatch batch = current.batch();
                currentHandedOut = true;
                rowInBlock = batch.rows();
                returnedLine = currentBaseLine + current.rowLines()[batch.rows() - 1];
                long before = records;
                records += batch.rows();
                if (before / PROGRESS_EVERY != records / PROGRESS_EVERY) {
                    progress.accept(new CopyProgress(records, bytesRead, fileBytes));
                }
                return batch;
            }
        };
    }

    @Override
    public void close() {
        if (workers != null) {
            workers.shutdownNow();
        }
        try {
            channel.close();
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot close " + fileName + ": " + e.getMessage(), e);
        }
    }

    private void readHeader() {
        while (true) {
            Block block = readBlock();
            if (block.atEof() && block.length() == 0) {
                return; // an empty file has no header and no rows
            }
            CsvBlockParser.Header header;
            try {
                header = serialParser.header(block.bytes(), 0, block.length(), block.atEof());
            } catch (ColumbaException e) {
                throw new ColumbaException(e.errorCode(), fileName + " line 1" + e.detail(), e);
            }
            if (header == null) {
                carry = block.bytes();
                carryLength = block.length();
                continue; // a header longer than a block: read on
            }
            checkHeader(header.names());
            nextLine += header.lineBreaks();
            carry = Arrays.copyOfRange(block.bytes(), header.end(), Math.max(header.end(), block.length()));
            carryLength = carry.length;
            fileEnded = block.atEof();
            return;
        }
    }

    private void checkHeader(List<String> names) {
        if (names.size() != targets.length) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, fileName + " line 1: the header names " + names.size()
                    + " column" + (names.size() == 1 ? "" : "s") + ", COPY expects " + targets.length + " ("
                    + expectedNames() + ")");
        }
        for (int field = 0; field < targets.length; field++) {
            String expected = schema.column(targets[field]).name();
            if (!names.get(field).strip().equalsIgnoreCase(expected)) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, fileName + " line 1: the header's column "
                        + (field + 1) + " is '" + names.get(field) + "', COPY expects '" + expected + "' ("
                        + expectedNames() + "); name the file's columns in COPY " + table + " (...)");
            }
        }
    }

    private String expectedNames() {
        StringBuilder names = new StringBuilder();
        for (int target : targets) {
            names.append(names.isEmpty() ? "" : ", ").append(schema.column(target).name());
        }
        return names.toString();
    }

    /** Makes the next parsed block current; false at the end of the file. */
    private boolean advance() {
        if (current != null) {
            if (current.failure() == null && current.consumedEnd() < 0) {
                throw new IllegalStateException("a block without an end");
            }
            nextLine = currentBaseLine + current.lineBreaks();
            if (!currentHandedOut) {
                recycled.offer(current);
            }
        }
        currentHandedOut = false;
        ParsedBlock parsed;
        if (workers == null) {
            parsed = nextSerial();
        } else {
            parsed = nextParallel();
        }
        if (parsed == null) {
            current = null;
            return false;
        }
        current = parsed;
        currentBaseLine = nextLine;
        rowInBlock = 0;
        return true;
    }

    /** MAXDOP 1: the next block parsed here, an unfinished record carried over. */
    private ParsedBlock nextSerial() {
        while (true) {
            if (fileEnded && carryLength == 0) {
                return null;
            }
            Block block = readBlock();
            ParsedBlock parsed = serialParser.parse(block.bytes(), 0, block.length(), block.atEof(), recycled.poll());
            int rest = block.length() - parsed.consumedEnd();
            carry = rest == 0 ? new byte[0] : Arrays.copyOfRange(block.bytes(), parsed.consumedEnd(), block.length());
            carryLength = rest;
            // The parse copied what it keeps and the rest is in carry: the next block reads into these bytes.
            spare = block.bytes();
            if (parsed.failure() != null || parsed.batch().rows() > 0 || parsed.lineBreaks() > 0 || block.atEof()) {
                if (block.atEof() && parsed.failure() == null) {
                    carryLength = 0;
                    fileEnded = true;
                }
                return parsed;
            }
            // A record longer than the block: readBlock grows the next one.
        }
    }

    /** MAXDOP > 1: the next block's parse in order, checked against the previous one's end. */
    private ParsedBlock nextParallel() {
        while (pending.size() < inFlight && !(fileEnded && carryLength == 0)) {
            Block block = cutBlock();
            if (block == null) {
                break;
            }
            pending.add(new Pending(block, workers.submit(() -> parsers.get().parse(block.bytes(), 0, block.length(),
                    block.atEof(), recycled.poll()))));
        }
        if (pending.isEmpty()) {
            if (leftover != null && leftover.length > 0) {
                throw new IllegalStateException("an unfinished record at the end of the file was not reported");
            }
            return null;
        }
        Pending next = pending.poll();
        ParsedBlock parsed;
        if (leftover == null) {
            try {
                parsed = next.result().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "COPY from " + fileName + " was interrupted");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException runtime ? runtime
                        : new ColumbaException(ErrorCode.INTERNAL, "parsing " + fileName + " failed: " + e.getCause(),
                        e.getCause());
            }
        } else {
            // The previous block ended inside a quoted line break: its unfinished record and this
            // block are one run, parsed here; the speculative parse of this block is dropped.
            next.result().cancel(false);
            byte[] joined = Arrays.copyOf(leftover, leftover.length + next.block().length());
            System.arraycopy(next.block().bytes(), 0, joined, leftover.length, next.block().length());
            Block block = new Block(joined, joined.length, next.block().atEof());
            parsed = serialParser.parse(block.bytes(), 0, block.length(), block.atEof(), recycled.poll());
            next = new Pending(block, null);
        }
        int rest = next.block().length() - parsed.consumedEnd();
        leftover = parsed.failure() == null && rest > 0
                ? Arrays.copyOfRange(next.block().bytes(), parsed.consumedEnd(), next.block().length()) : null;
        // Its parse has returned and copied what it kept (a cancelled speculative parse may still be
        // reading its block, which is therefore never reused).
        if (next.block().bytes().length == blockBytes) {
            freeBlocks.push(next.block().bytes());
        }
        return parsed;
    }

    /** The next block for a parallel parse, cut after its last {@code \n}; null at the end. */
    private Block cutBlock() {
        if (fileEnded && carryLength == 0) {
            return null;
        }
        Block block = readBlock();
        if (block.atEof()) {
            carryLength = 0;
            fileEnded = true;
            return block;
        }
        int cut = block.length();
        while (cut > 0 && block.bytes()[cut - 1] != '\n') {
            cut--;
        }
        if (cut == 0) {
            // No line break in a whole block: keep reading, the next block is larger.
            carry = block.bytes();
            carryLength = block.length();
            return cutBlock();
        }
        carry = Arrays.copyOfRange(block.bytes(), cut, block.length());
        carryLength = carry.length;
        return new Block(block.bytes(), cut, false);
    }

    /**
     * The carried bytes followed by as many of the file's next bytes as fit a block (twice the
     * carry if that is larger, so that a record longer than a block is read whole in the end).
     */
    private Block readBlock() {
        int capacity = Math.max(blockBytes, carryLength * 2);
        byte[] bytes = spare != null && spare.length == capacity ? spare
                : capacity == blockBytes && !freeBlocks.isEmpty() ? freeBlocks.pop() : new byte[capacity];
        spare = null;
        System.arraycopy(carry, 0, bytes, 0, carryLength);
        int length = carryLength;
        carry = new byte[0];
        carryLength = 0;
        boolean atEof = fileEnded;
        ByteBuffer buffer = ByteBuffer.wrap(bytes, length, capacity - length);
        try {
            while (!atEof && buffer.hasRemaining()) {
                int read = channel.read(buffer);
                if (read < 0) {
                    atEof = true;
                } else {
                    bytesRead += read;
                }
            }
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, String.format(Locale.ROOT, "cannot read %s near line %d: %s",
                    fileName, nextLine, e.getMessage()), e);
        }
        fileEnded = atEof;
        return new Block(bytes, buffer.position(), atEof);
    }
}
