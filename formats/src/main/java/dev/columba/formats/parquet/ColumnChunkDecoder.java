package dev.columba.formats.parquet;

import dev.columba.columnstore.build.ColumnBatch;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.type.SqlType;
import dev.columba.formats.parquet.ParquetFileFormat.ValueKind;
import dev.columba.planner.copy.ImportedColumn;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.CorruptDeltaByteArrays;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.RequiresPreviousReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Decodes one column chunk of a flat Parquet schema page by page into a column of a row group's
 * {@link ColumnBatch}es, instead of a value per call through parquet-java's {@code ColumnReader}.
 * parquet-java reads, decrypts and decompresses the pages ({@link PageReader}); this decodes
 * what nearly every writer produces in bulk:
 * <ul>
 *   <li>definition levels in the RLE/bit-packed hybrid, a run at a time (a run of non-NULLs is
 *       one fill), bit-packed groups through parquet-java's {@link BytePacker};</li>
 *   <li>dictionary pages decoded once per chunk into primitive arrays (strings: where each entry
 *       lies in the page, and whether it is stored as its bytes, asked once per entry), and
 *       dictionary-encoded pages as their ids, a run or eight packed ids at a time;</li>
 *   <li>PLAIN pages of fixed-width values copied in bulk into a primitive array, PLAIN strings
 *       located where they lie in the page.</li>
 * </ul>
 * Any other encoding of a page's values (DELTA_*, BYTE_STREAM_SPLIT, RLE booleans) or levels
 * (the deprecated BIT_PACKED) goes through parquet-java's own {@link ValuesReader} for that page,
 * a value per call as before. Values then go through {@link ImportedColumn}, which accepts,
 * converts and refuses them as INSERT would.
 *
 * <p>A value the column refuses stops this column: {@link #decode} returns its row and
 * {@link #failure()} the error, so that the reader can report the first bad row of the file in
 * row order across columns. One per column and row group, on the thread that decodes it.
 */
final class ColumnChunkDecoder {
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ColumnDescriptor descriptor;
    private final ValueKind kind;
    private final ImportedColumn column;
    private final String createdBy;
    private final int maxDefinition;
    private final int definitionWidth;
    /** FIXED_LEN_BYTE_ARRAY: its length; otherwise -1 (values carry a length). */
    private final int fixedLength;

    // The chunk's dictionary, decoded once: whole numbers and doubles as arrays, strings as where they lie.
    private int dictionarySize = -1;
    private long[] dictionaryLongs;
    private double[] dictionaryDoubles;
    private byte[] dictionaryBytes;
    private int[] dictionaryStarts;
    private int[] dictionaryEnds;
    /** Per string entry: stored as its bytes ({@link ImportedColumn#storesAsIs}). */
    private boolean[] dictionaryAsIs;

    // One page's levels and values, reused page after page; values hold only the non-NULL rows.
    private int[] definitions = new int[0];
    private int[] ids = new int[0];
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    /** Binary values: {@code valueBytes[starts[i], ends[i])}; the page's own array, or a copy for read values. */
    private byte[] valueBytes;
    private int[] starts = new int[0];
    private int[] ends = new int[0];
    private byte[] copiedBytes = new byte[0];
    private final int[] truncatedGroup = new int[8];
    private final byte[] paddedGroup = new byte[32];
    private BytePacker packer;
    /** The page being stored is dictionary-encoded: its values are {@link #ids}. */
    private boolean pageIsDictionary;
    private ValuesReader previousReader;
    private ColumbaException failure;

    ColumnChunkDecoder(ColumnDescriptor descriptor, ValueKind kind, ImportedColumn column, String createdBy) {
        this.descriptor = descriptor;
        this.kind = kind;
        this.column = column;
        this.createdBy = createdBy;
        this.maxDefinition = descriptor.getMaxDefinitionLevel();
        this.definitionWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
        PrimitiveTypeName type = descriptor.getPrimitiveType().getPrimitiveTypeName();
        this.fixedLength = type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? descriptor.getPrimitiveType().getTypeLength() : -1;
    }

    /** The error of the value at the row {@link #decode} returned. */
    ColumbaException failure() {
        return failure;
    }

    /**
     * Decodes the chunk's {@code rowCount} rows into this column of {@code batches}, row
     * {@code r} of the row group into row {@code r % batchRows} of batch {@code r / batchRows}
     * (each batch reserved, none committed).
     *
     * @return -1, or the row (of the row group, 0-based) of the first value the column refused
     *     ({@link #failure()}); rows after it are not written
     * @throws IOException or a runtime exception for pages that do not decode
     */
    int decode(PageReader pages, long rowCount, ColumnBatch[] batches, int batchRows) throws IOException {
        DictionaryPage dictionary = pages.readDictionaryPage();
        if (dictionary != null) {
            readDictionary(dictionary);
        }
        long row = 0;
        while (row < rowCount) {
            DataPage page = pages.readPage();
            if (page == null) {
                throw new IOException("column " + descriptor + " ends after " + row + " of its row group's " + rowCount + " rows");
            }
            int pageRows = page.getValueCount();
            if (pageRows > rowCount - row) {
                throw new IOException("column " + descriptor + " has more values than its row group's " + rowCount + " rows");
            }
            int present = readPage(page, pageRows);
            int valueIndex = 0;
            for (int pageRow = 0; pageRow < pageRows; ) {
                long at = row + pageRow;
                int batch = (int) (at / batchRows);
                int rowInBatch = (int) (at % batchRows);
                int count = Math.min(pageRows - pageRow, batchRows - rowInBatch);
                int stored = store(batches[batch], rowInBatch, pageRow, count, valueIndex);
                if (stored < 0) {
                    return (int) (at + (-stored - 1));
                }
                valueIndex = stored;
                pageRow += count;
            }
            if (valueIndex != present) {
                throw new IOException("column " + descriptor + ": a page's levels and values disagree");
            }
            row += pageRows;
        }
        return -1;
    }

    // ---- Pages --------------------------------------------------------------------------------------

    /** Decodes a page's levels into {@link #definitions} and its values; returns how many are not NULL. */
    private int readPage(DataPage page, int pageRows) throws IOException {
        if (definitions.length < pageRows + 8) {
            definitions = new int[pageRows + 8];
        }
        Encoding encoding;
        ByteBuffer values;
        if (page instanceof DataPageV1 v1) {
            ByteBuffer bytes = heap(v1.getBytes());
            byte[] array = bytes.array();
            int offset = bytes.arrayOffset() + bytes.position();
            int end = offset + bytes.remaining();
            // A flat schema has no repetition levels; the page holds definition levels, then values.
            if (maxDefinition > 0) {
                if (v1.getDlEncoding() == Encoding.RLE) {
                    int length = (int) INTS.get(array, offset);
                    if (length < 0 || length > end - offset - 4) {
                        throw new IOException("column " + descriptor + ": definition levels of " + length + " bytes in a page of "
                                + (end - offset));
                    }
                    hybrid(array, offset + 4, offset + 4 + length, definitionWidth, definitions, pageRows);
                    offset += 4 + length;
                } else {
                    ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(array, offset, end - offset));
                    ValuesReader levels = v1.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
                    levels.initFromPage(pageRows, in);
                    for (int row = 0; row < pageRows; row++) {
                        definitions[row] = levels.readInteger();
                    }
                    offset += (int) in.position();
                }
            }
            encoding = v1.getValueEncoding();
            values = ByteBuffer.wrap(array, offset, end - offset);
        } else {
            DataPageV2 v2 = (DataPageV2) page;
            if (maxDefinition > 0) {
                ByteBuffer levels = heap(v2.getDefinitionLevels());
                int from = levels.arrayOffset() + levels.position();
                hybrid(levels.array(), from, from + levels.remaining(), definitionWidth, definitions, pageRows);
            }
            encoding = v2.getDataEncoding();
            values = heap(v2.getData());
        }
        int present = pageRows;
        if (maxDefinition > 0) {
            present = 0;
            for (int row = 0; row < pageRows; row++) {
                present += definitions[row] == maxDefinition ? 1 : 0;
            }
        }
        readValues(encoding, values, pageRows, present);
        return present;
    }

    /** A heap buffer of the bytes, without a copy when they are on the heap already (as decompressed pages are). */
    private static ByteBuffer heap(BytesInput input) throws IOException {
        ByteBuffer buffer = input.toByteBuffer();
        if (buffer.hasArray()) {
            return buffer;
        }
        byte[] copy = new byte[buffer.remaining()];
        buffer.get(copy);
        return ByteBuffer.wrap(copy);
    }

    /** Decodes the page's {@code present} values into {@link #longs}, {@link #doubles} or the binary arrays. */
    private void readValues(Encoding encoding, ByteBuffer buffer, int pageRows, int present) throws IOException {
        byte[] array = buffer.array();
        int offset = buffer.arrayOffset() + buffer.position();
        int end = offset + buffer.remaining();
        reserveValues(present);
        pageIsDictionary = encoding.usesDictionary();
        if (pageIsDictionary) {
            if (dictionarySize < 0) {
                throw new IOException("column " + descriptor + ": a dictionary-encoded page without a dictionary page");
            }
            if (present > 0) {
                if (offset >= end) {
                    throw new IOException("column " + descriptor + ": an empty dictionary-encoded page");
                }
                if (ids.length < present + 8) {
                    ids = new int[present + 8];
                }
                hybrid(array, offset + 1, end, array[offset] & 0xFF, ids, present);
                gather(present);
            }
        } else if (encoding == Encoding.PLAIN) {
            plain(array, offset, end, present, false);
        } else {
            readWithParquet(encoding, buffer, pageRows, present);
        }
    }

    /** Values of a dictionary-encoded page from {@link #ids}: whole numbers and doubles gathered; strings use the ids. */
    private void gather(int present) throws IOException {
        int[] pageIds = ids;
        for (int index = 0; index < present; index++) {
            if (pageIds[index] < 0 || pageIds[index] >= dictionarySize) {
                throw new IOException("column " + descriptor + ": dictionary id " + pageIds[index] + " of a dictionary of "
                        + dictionarySize);
            }
        }
        switch (kind) {
            case FLOAT, DOUBLE -> {
                double[] from = dictionaryDoubles;
                double[] to = doubles;
                for (int index = 0; index < present; index++) {
                    to[index] = from[pageIds[index]];
                }
            }
            case STRING, DECIMAL_BINARY -> {
            }
            default -> {
                long[] from = dictionaryLongs;
                long[] to = longs;
                for (int index = 0; index < present; index++) {
                    to[index] = from[pageIds[index]];
                }
            }
        }
    }

    private void reserveValues(int count) {
        switch (kind) {
            case FLOAT, DOUBLE -> {
                if (doubles.length < count) {
                    doubles = new double[count];
                }
            }
            case STRING, DECIMAL_BINARY -> {
                if (starts.length < count) {
                    starts = new int[count];
                    ends = new int[count];
                }
            }
            default -> {
                if (longs.length < count) {
                    longs = new long[count];
                }
            }
        }
    }

    /**
     * PLAIN values {@code array[offset, end)}, {@code count} of them, into {@link #longs},
     * {@link #doubles} or (binary) where they lie in {@code array}; a dictionary page's entries
     * when {@code dictionary}.
     */
    private void plain(byte[] array, int offset, int end, int count, boolean dictionary) throws IOException {
        int available = end - offset;
        switch (descriptor.getPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> {
                need(available, (count + 7) / 8);
                long[] to = longs;
                for (int index = 0; index < count; index++) {
                    to[index] = array[offset + (index >>> 3)] >>> (index & 7) & 1;
                }
            }
            case INT32 -> {
                need(available, 4L * count);
                long[] to = dictionary ? dictionaryLongs : longs;
                for (int index = 0; index < count; index++) {
                    to[index] = (int) INTS.get(array, offset + 4 * index);
                }
            }
            case INT64 -> {
                need(available, 8L * count);
                ByteBuffer.wrap(array, offset, 8 * count).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer()
                        .get(dictionary ? dictionaryLongs : longs, 0, count);
            }
            case FLOAT -> {
                need(available, 4L * count);
                double[] to = dictionary ? dictionaryDoubles : doubles;
                for (int index = 0; index < count; index++) {
                    to[index] = Float.intBitsToFloat((int) INTS.get(array, offset + 4 * index));
                }
            }
            case DOUBLE -> {
                need(available, 8L * count);
                ByteBuffer.wrap(array, offset, 8 * count).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer()
                        .get(dictionary ? dictionaryDoubles : doubles, 0, count);
            }
            case BINARY, FIXED_LEN_BYTE_ARRAY -> {
                int[] valueStarts = dictionary ? dictionaryStarts : starts;
                int[] valueEnds = dictionary ? dictionaryEnds : ends;
                int position = offset;
                for (int index = 0; index < count; index++) {
                    int length;
                    if (fixedLength >= 0) {
                        length = fixedLength;
                    } else {
                        if (end - position < 4) {
                            throw new IOException("column " + descriptor + ": a page ends inside a value's length");
                        }
                        length = (int) INTS.get(array, position);
                        position += 4;
                    }
                    if (length < 0 || length > end - position) {
                        throw new IOException("column " + descriptor + ": a value of " + length + " bytes where "
                                + (end - position) + " are left");
                    }
                    valueStarts[index] = position;
                    position += length;
                    valueEnds[index] = position;
                }
                if (dictionary) {
                    dictionaryBytes = array;
                } else {
                    valueBytes = array;
                }
            }
            case INT96 -> throw new IllegalStateException("int96 is refused when the file is opened");
        }
    }

    private void need(int available, long bytes) throws IOException {
        if (bytes > available) {
            throw new IOException("column " + descriptor + ": " + bytes + " bytes of values in a page of " + available);
        }
    }

    /** Values of an encoding decoded here without a batch path, a value per call through parquet-java's reader. */
    private void readWithParquet(Encoding encoding, ByteBuffer buffer, int pageRows, int present) throws IOException {
        ValuesReader reader = encoding.getValuesReader(descriptor, ValuesType.VALUES);
        if (CorruptDeltaByteArrays.requiresSequentialReads(createdBy, encoding)
                && previousReader instanceof RequiresPreviousReader) {
            // Old parquet-mr wrote DELTA_BYTE_ARRAY pages that continue the previous page's prefix.
            ((RequiresPreviousReader) reader).setPreviousReader(previousReader);
        }
        reader.initFromPage(pageRows, ByteBufferInputStream.wrap(buffer));
        previousReader = reader;
        switch (kind) {
            case BOOLEAN -> {
                for (int index = 0; index < present; index++) {
                    longs[index] = reader.readBoolean() ? 1 : 0;
                }
            }
            case INT32, UINT32 -> {
                for (int index = 0; index < present; index++) {
                    longs[index] = reader.readInteger();
                }
            }
            case INT64, UINT64, TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS -> {
                for (int index = 0; index < present; index++) {
                    longs[index] = reader.readLong();
                }
            }
            case FLOAT -> {
                for (int index = 0; index < present; index++) {
                    doubles[index] = reader.readFloat();
                }
            }
            case DOUBLE -> {
                for (int index = 0; index < present; index++) {
                    doubles[index] = reader.readDouble();
                }
            }
            case STRING, DECIMAL_BINARY -> {
                int position = 0;
                for (int index = 0; index < present; index++) {
                    Binary binary = reader.readBytes();
                    int length = binary.length();
                    if (position + length > copiedBytes.length) {
                        copiedBytes = Arrays.copyOf(copiedBytes, Math.max(2 * copiedBytes.length, position + length));
                    }
                    ByteBuffer value = binary.toByteBuffer();
                    value.get(copiedBytes, position, length);
                    starts[index] = position;
                    position += length;
                    ends[index] = position;
                }
                valueBytes = copiedBytes;
            }
        }
    }

    private void readDictionary(DictionaryPage page) throws IOException {
        Encoding encoding = page.getEncoding();
        if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
            throw new IOException("column " + descriptor + ": a dictionary page in " + encoding);
        }
        int size = page.getDictionarySize();
        if (size < 0) {
            throw new IOException("column " + descriptor + ": a dictionary of " + size + " entries");
        }
        ByteBuffer bytes = heap(page.getBytes());
        int offset = bytes.arrayOffset() + bytes.position();
        switch (kind) {
            case FLOAT, DOUBLE -> dictionaryDoubles = new double[size];
            case STRING, DECIMAL_BINARY -> {
                dictionaryStarts = new int[size];
                dictionaryEnds = new int[size];
            }
            case BOOLEAN -> throw new IOException("column " + descriptor + ": a dictionary of booleans");
            default -> dictionaryLongs = new long[size];
        }
        plain(bytes.array(), offset, offset + bytes.remaining(), size, true);
        if (kind == ValueKind.STRING) {
            dictionaryAsIs = new boolean[size];
            for (int entry = 0; entry < size; entry++) {
                dictionaryAsIs[entry] = column.storesAsIs(dictionaryBytes, dictionaryStarts[entry], dictionaryEnds[entry]);
            }
        }
        dictionarySize = size;
    }

    /**
     * Decodes {@code count} values of the RLE/bit-packed hybrid in {@code array[from, to)} of
     * {@code width} bits into {@code out} (which has room for 8 more: a bit-packed group is
     * unpacked whole).
     */
    private void hybrid(byte[] array, int from, int to, int width, int[] out, int count) throws IOException {
        if (width > 32) {
            throw new IOException("column " + descriptor + ": values of " + width + " bits");
        }
        int position = from;
        int done = 0;
        while (done < count) {
            int header = 0;
            int shift = 0;
            byte next;
            do {
                if (position >= to || shift > 28) {
                    throw new IOException("column " + descriptor + ": run-length data ends after " + done + " of " + count
                            + " values");
                }
                next = array[position++];
                header |= (next & 0x7F) << shift;
                shift += 7;
            } while (next < 0);
            if ((header & 1) == 0) {
                int run = Math.min(header >>> 1, count - done);
                int valueBytes = (width + 7) >>> 3;
                if (to - position < valueBytes) {
                    throw new IOException("column " + descriptor + ": run-length data ends inside a run's value");
                }
                int value = 0;
                for (int index = 0; index < valueBytes; index++) {
                    value |= (array[position++] & 0xFF) << (8 * index);
                }
                Arrays.fill(out, done, done + run, value);
                done += run;
            } else {
                int groups = header >>> 1;
                if (packer == null || packer.getBitWidth() != width) {
                    packer = Packer.LITTLE_ENDIAN.newBytePacker(width);
                }
                for (int group = 0; group < groups && done < count; group++) {
                    if (to - position >= width) {
                        packer.unpack8Values(array, position, out, done);
                    } else {
                        // The last group of a page may be cut to the bytes its values need.
                        Arrays.fill(paddedGroup, (byte) 0);
                        System.arraycopy(array, position, paddedGroup, 0, Math.max(0, to - position));
                        packer.unpack8Values(paddedGroup, 0, truncatedGroup, 0);
                        System.arraycopy(truncatedGroup, 0, out, done, 8);
                    }
                    position += width;
                    done += 8;
                }
            }
        }
    }

    // ---- Values into the batch ------------------------------------------------------------------------

    /**
     * Stores rows {@code [pageRow, pageRow + count)} of the page into rows from {@code rowInBatch}
     * of {@code batch}, their values from {@code valueIndex} on.
     *
     * @return the value index after them, or {@code -(k + 1)} when the k-th of these rows was refused
     */
    private int store(ColumnBatch batch, int rowInBatch, int pageRow, int count, int valueIndex) {
        int value = valueIndex;
        int offset = 0;
        try {
            boolean nullable = maxDefinition > 0;
            int[] levels = definitions;
            switch (kind) {
                case BOOLEAN, INT32, INT64, TIMESTAMP_MICROS -> {
                    long[] from = longs;
                    for (; offset < count; offset++) {
                        if (nullable && levels[pageRow + offset] != maxDefinition) {
                            column.putNull(batch, rowInBatch + offset);
                        } else {
                            column.putLong(batch, rowInBatch + offset, from[value++]);
                        }
                    }
                }
                case UINT32, UINT64, TIMESTAMP_MILLIS, TIMESTAMP_NANOS -> {
                    long[] from = longs;
                    for (; offset < count; offset++) {
                        if (nullable && levels[pageRow + offset] != maxDefinition) {
                            column.putNull(batch, rowInBatch + offset);
                            continue;
                        }
                        long raw = from[value++];
                        switch (kind) {
                            case UINT32 -> column.putLong(batch, rowInBatch + offset, Integer.toUnsignedLong((int) raw));
                            case UINT64 -> column.putObject(batch, rowInBatch + offset, new BigDecimal(Long.toUnsignedString(raw)));
                            case TIMESTAMP_MILLIS -> column.putLong(batch, rowInBatch + offset, Math.multiplyExact(raw, 1_000L));
                            default -> column.putLong(batch, rowInBatch + offset, Math.floorDiv(raw, 1_000L));
                        }
                    }
                }
                case FLOAT, DOUBLE -> {
                    double[] from = doubles;
                    for (; offset < count; offset++) {
                        if (nullable && levels[pageRow + offset] != maxDefinition) {
                            column.putNull(batch, rowInBatch + offset);
                        } else {
                            column.putDouble(batch, rowInBatch + offset, from[value++]);
                        }
                    }
                }
                case STRING -> {
                    if (pageIsDictionary) {
                        int[] pageIds = ids;
                        byte[] bytes = dictionaryBytes;
                        int[] entryStarts = dictionaryStarts;
                        int[] entryEnds = dictionaryEnds;
                        boolean[] asIs = dictionaryAsIs;
                        for (; offset < count; offset++) {
                            if (nullable && levels[pageRow + offset] != maxDefinition) {
                                column.putNull(batch, rowInBatch + offset);
                                continue;
                            }
                            int entry = pageIds[value++];
                            if (asIs[entry]) {
                                column.putBytesAsIs(batch, rowInBatch + offset, bytes, entryStarts[entry], entryEnds[entry]);
                            } else {
                                column.putUtf8(batch, rowInBatch + offset, bytes, entryStarts[entry], entryEnds[entry]);
                            }
                        }
                    } else {
                        byte[] bytes = valueBytes;
                        int[] valueStarts = starts;
                        int[] valueEnds = ends;
                        for (; offset < count; offset++) {
                            if (nullable && levels[pageRow + offset] != maxDefinition) {
                                column.putNull(batch, rowInBatch + offset);
                            } else {
                                column.putUtf8(batch, rowInBatch + offset, bytes, valueStarts[value], valueEnds[value]);
                                value++;
                            }
                        }
                    }
                }
                case DECIMAL_BINARY -> {
                    for (; offset < count; offset++) {
                        if (nullable && levels[pageRow + offset] != maxDefinition) {
                            column.putNull(batch, rowInBatch + offset);
                        } else {
                            storeDecimal(batch, rowInBatch + offset, value++);
                        }
                    }
                }
            }
        } catch (ColumbaException e) {
            failure = e;
            return -(offset + 1);
        }
        return value;
    }

    /** A DECIMAL held as big-endian two's complement bytes: a long when it fits, else a BigDecimal. */
    private void storeDecimal(ColumnBatch batch, int row, int value) {
        byte[] bytes;
        int start;
        int end;
        if (pageIsDictionary) {
            int entry = ids[value];
            bytes = dictionaryBytes;
            start = dictionaryStarts[entry];
            end = dictionaryEnds[entry];
        } else {
            bytes = valueBytes;
            start = starts[value];
            end = ends[value];
        }
        int length = end - start;
        if (length <= 8) {
            long unscaled = length == 0 ? 0 : bytes[start];
            for (int index = start + 1; index < end; index++) {
                unscaled = unscaled << 8 | bytes[index] & 0xFF;
            }
            column.putLong(batch, row, unscaled);
        } else {
            BigInteger unscaled = new BigInteger(bytes, start, length);
            if (unscaled.bitLength() < Long.SIZE) {
                column.putLong(batch, row, unscaled.longValue());
            } else {
                SqlType.DecimalType decimal = (SqlType.DecimalType) column.fileColumn().type();
                column.putObject(batch, row, new BigDecimal(unscaled, decimal.scale()));
            }
        }
    }
}
