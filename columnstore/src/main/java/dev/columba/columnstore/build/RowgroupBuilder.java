package dev.columba.columnstore.build;

import dev.columba.columnstore.dictionary.Dictionary;
import dev.columba.columnstore.dictionary.DictionaryBuilder;
import dev.columba.columnstore.encoding.DictionarySource;
import dev.columba.columnstore.encoding.EncodedSegment;
import dev.columba.columnstore.encoding.EncodingOptions;
import dev.columba.columnstore.encoding.FallbackReason;
import dev.columba.columnstore.encoding.SegmentEncoder;
import dev.columba.columnstore.encoding.SegmentMetadata;
import dev.columba.columnstore.file.FooterMetadata;
import dev.columba.columnstore.file.SegmentBlob;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.ForkJoinPool;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Turns a stream of rows into compressed rowgroups, where the dictionary cap is decided.
 *
 * <p>Rows accumulate in Arrow vectors, one per column, up to {@code rowgroup_max_rows}. Every string
 * column keeps a dictionary as rows arrive — the primary one while the table has none, afterwards
 * a secondary one over the table's primary — so that the size the dictionary would reach is known
 * before each row is taken. When a new value would push a dictionary past the cap, the table's
 * {@code dictionary_overflow} decides:
 * <ul>
 *   <li>{@code trim} (SQL Server): the rowgroup is cut short before the row, with
 *       {@code trim_reason = DICTIONARY_SIZE}, and the row starts the next rowgroup;</li>
 *   <li>{@code fallback} (Parquet): that column gives its dictionary up for this rowgroup, whose
 *       segment is then encoded without one and records {@code DICTIONARY_OVERFLOW}; the rowgroup
 *       stays full.</li>
 * </ul>
 * With {@code fallback} a dictionary must also pay for itself, as parquet-java's dictionary writer
 * checks after its first page: once a rowgroup holds {@link #CARDINALITY_SAMPLE_ROWS} rows, a
 * column whose dictionary plus the ids its rows would need is not smaller than the same rows as
 * plain strings (nearly every value distinct, as a comment column) gives the dictionary up for the
 * rowgroup and records {@code HIGH_CARDINALITY}: the rest of its values are neither hashed nor
 * kept, and no primary dictionary of throw-away values is built and stored. With {@code trim}
 * (SQL Server) a dictionary is kept until its cap, which is what trims the rowgroup there.
 * A rowgroup is also cut when its vectors pass the build's memory budget ({@code MEMORY_LIMITATION}).
 * Each finished rowgroup is encoded (the encoder picks the smallest encoding per segment) and handed
 * to the sink; its columns may be encoded in parallel ({@link #encodeOn}). Owned by one thread.
 */
public final class RowgroupBuilder implements AutoCloseable {
    private final TableSchema schema;
    private final ColumnstoreOptions options;
    private final PrimaryDictionaries primaries;
    private final BufferAllocator allocator;
    private final long memoryBudget;
    private final IntSupplier rowgroupIds;
    private final Consumer<BuiltRowgroup> sink;
    private final EncodingOptions encoding;
    private final List<FieldVector> vectors = new ArrayList<>();
    /**
     * Rows of a rowgroup after which each string column's dictionary is weighed against plain
     * strings (fallback mode): an eighth of a full rowgroup. Long enough that a column whose values
     * repeat only over long stretches (100,000 names in turn) shows its repeats before it is judged;
     * short enough that a comment column's values are hashed into a table that still fits a cache
     * and most of a rowgroup's values are never hashed.
     */
    static final int CARDINALITY_SAMPLE_ROWS = 131_072;

    private final DictionaryBuilder[] dictionaries;
    /** Per column, why it gave its dictionary up for the current rowgroup; NONE while it keeps it. */
    private final FallbackReason[] fellBack;
    /**
     * Per string column, every row's {@link DictionaryBuilder#addUtf8} code (-1 for NULL) while the
     * rowgroup's rows all came through {@link #addBatch}: turned into the segment's ids when the
     * rowgroup is finished, so the encoder need not look each value up again.
     */
    private final int[][] rowCodes;
    /** Every row of the current rowgroup came through {@link #addBatch}, so {@link #rowCodes} are complete. */
    private boolean codesComplete;
    private int rows;
    private long rowgroupsBuilt;
    /** Encodes a finished rowgroup's columns side by side; null: one after the other on this thread. */
    private ForkJoinPool encoders;

    /**
     * @param rowgroupIds  gives the id of each rowgroup as it is finished
     * @param memoryBudget bytes the accumulating vectors may hold before a rowgroup is cut
     */
    public RowgroupBuilder(TableSchema schema, ColumnstoreOptions options, PrimaryDictionaries primaries,
                           BufferAllocator allocator, long memoryBudget, IntSupplier rowgroupIds,
                           Consumer<BuiltRowgroup> sink) {
        this.schema = schema;
        this.options = options;
        this.primaries = primaries;
        this.allocator = allocator;
        this.memoryBudget = memoryBudget;
        this.rowgroupIds = rowgroupIds;
        this.sink = sink;
        this.encoding = options.archive() ? EncodingOptions.ARCHIVE : EncodingOptions.DEFAULT;
        this.dictionaries = new DictionaryBuilder[schema.size()];
        this.fellBack = new FallbackReason[schema.size()];
        this.rowCodes = new int[schema.size()][];
        for (Column column : schema.columns()) {
            FieldVector vector = new Field(column.name(), new FieldType(true, column.type().arrowType(), null), null)
                    .createVector(allocator);
            vector.allocateNew();
            vectors.add(vector);
        }
        startRowgroup();
    }

    private static boolean usesDictionary(SqlType type) {
        return type instanceof SqlType.VarcharType || type instanceof SqlType.CharType;
    }

    private void startRowgroup() {
        rows = 0;
        codesComplete = true;
        for (int column = 0; column < schema.size(); column++) {
            fellBack[column] = FallbackReason.NONE;
            SqlType type = schema.column(column).type();
            if (!usesDictionary(type)) {
                dictionaries[column] = null;
                continue;
            }
            Dictionary primary = primaries.get(column);
            dictionaries[column] = primary == null ? DictionaryBuilder.primary(type, options.dictionaryCapBytes())
                    : DictionaryBuilder.secondary(type, primary, options.dictionaryCapBytes());
        }
    }

    /**
     * Encodes the columns of each finished rowgroup on {@code pool}'s threads (a bulk load's
     * MAXDOP) instead of one after the other on the caller's; null goes back to that.
     */
    public void encodeOn(ForkJoinPool pool) {
        this.encoders = pool;
    }

    /** Rowgroups finished so far. */
    public long rowgroupsBuilt() {
        return rowgroupsBuilt;
    }

    /** Rows waiting in the current, unfinished rowgroup. */
    public int pendingRows() {
        return rows;
    }

    /** Adds one row (values in column order); may finish one rowgroup first, or after. */
    public void add(Object[] row) {
        codesComplete = false;
        for (int column = 0; column < dictionaries.length; column++) {
            DictionaryBuilder dictionary = dictionaries[column];
            if (dictionary == null || fellBack[column] != FallbackReason.NONE) {
                continue;
            }
            long added = dictionary.addedBytes(row[column]);
            if (added == 0 || dictionary.sizeBytes() + added <= dictionary.capBytes()) {
                continue;
            }
            if (options.overflow() == ColumnstoreOptions.DictionaryOverflow.TRIM && rows > 0) {
                finishRowgroup(TrimReason.DICTIONARY_SIZE);
                // The fresh rowgroup's dictionaries may still refuse a value larger than the cap:
                // re-check all columns against them.
                add(row);
                return;
            }
            // fallback, or a single value that no dictionary of this cap can hold
            fellBack[column] = FallbackReason.DICTIONARY_OVERFLOW;
        }
        for (int column = 0; column < row.length; column++) {
            VectorValues.set(vectors.get(column), rows, schema.column(column).type(), row[column]);
            DictionaryBuilder dictionary = dictionaries[column];
            if (dictionary != null && fellBack[column] == FallbackReason.NONE) {
                dictionary.tryAdd(row[column]);
            }
        }
        rows++;
        if (rows == CARDINALITY_SAMPLE_ROWS) {
            weighDictionaries();
        }
        if (rows >= options.rowgroupMaxRows()) {
            finishRowgroup(TrimReason.NO_TRIM);
        } else if ((rows & 1023) == 0 && allocator.getAllocatedMemory() > memoryBudget) {
            finishRowgroup(TrimReason.MEMORY_LIMITATION);
        }
    }

    /** Adds {@code batch}'s rows in order, as {@link #add} one by one does. */
    public void addAll(List<Object[]> batch) {
        for (Object[] row : batch) {
            add(row);
        }
    }

    /**
     * Adds {@code batch}'s rows in order, column by column: fixed-width values are written into the
     * vectors in tight loops over the batch's primitive arrays, text is copied in one piece per
     * column and its dictionary keys are looked up from the UTF-8 bytes, with no object per value.
     * With {@code dictionary_overflow = fallback} each column's dictionary decides alone and a
     * rowgroup is cut only at its row limit or the memory budget, so the result is the rowgroups
     * {@link #add} row by row would build; the memory budget is checked after each run of rows
     * rather than every 1,024. With {@code trim}, where one column's full dictionary cuts the
     * rowgroup before a row for all columns, the rows go through {@link #add} one by one.
     */
    public void addBatch(ColumnBatch batch) {
        if (options.overflow() != ColumnstoreOptions.DictionaryOverflow.FALLBACK) {
            for (int row = 0; row < batch.rows(); row++) {
                add(batch.row(row));
            }
            return;
        }
        int done = 0;
        while (done < batch.rows()) {
            int count = Math.min(batch.rows() - done, options.rowgroupMaxRows() - rows);
            if (rows < CARDINALITY_SAMPLE_ROWS) {
                count = Math.min(count, CARDINALITY_SAMPLE_ROWS - rows); // weighed at the row add() weighs at
            }
            for (int column = 0; column < schema.size(); column++) {
                ColumnFill.fill(vectors.get(column), schema.column(column).type(), batch, column, done, count, rows);
                DictionaryBuilder dictionary = dictionaries[column];
                if (dictionary != null && fellBack[column] == FallbackReason.NONE && !addToDictionary(dictionary, batch,
                        column, done, count, codes(column, rows + count), rows)) {
                    fellBack[column] = FallbackReason.DICTIONARY_OVERFLOW;
                }
            }
            rows += count;
            done += count;
            if (rows == CARDINALITY_SAMPLE_ROWS) {
                weighDictionaries();
            }
            if (rows >= options.rowgroupMaxRows()) {
                finishRowgroup(TrimReason.NO_TRIM);
            } else if (allocator.getAllocatedMemory() > memoryBudget) {
                finishRowgroup(TrimReason.MEMORY_LIMITATION);
            }
        }
    }

    /**
     * With {@code dictionary_overflow = fallback}, gives up each dictionary of the rowgroup that is
     * not smaller than its rows as plain strings would be: the dictionary's bytes plus an id of
     * {@code ceil(log2(entries))} bits per row, against the rows' UTF-8 bytes plus a 4-byte length
     * each (parquet-java's measure). Ids count the primary's entries too, which a secondary extends.
     */
    private void weighDictionaries() {
        if (options.overflow() != ColumnstoreOptions.DictionaryOverflow.FALLBACK) {
            return;
        }
        for (int column = 0; column < dictionaries.length; column++) {
            DictionaryBuilder dictionary = dictionaries[column];
            if (dictionary == null || fellBack[column] != FallbackReason.NONE) {
                continue;
            }
            Dictionary primary = primaries.get(column);
            long entries = dictionary.entryCount() + (primary == null ? 0 : primary.entryCount());
            int idBits = 64 - Long.numberOfLeadingZeros(Math.max(1, entries - 1));
            long dictionaryBytes = dictionary.sizeBytes() + ((long) rows * idBits + 7) / 8;
            if (dictionary.entryCount() > 0 && dictionaryBytes >= plainBytes(column)) {
                fellBack[column] = FallbackReason.HIGH_CARDINALITY;
            }
        }
    }

    /**
     * The current rows of string column {@code column} as plain strings: their UTF-8 bytes (the end
     * offset of the last non-NULL row: a NULL row's offset is only written when a later row is set)
     * and a 4-byte length per row.
     */
    private long plainBytes(int column) {
        BaseVariableWidthVector text = (BaseVariableWidthVector) vectors.get(column);
        int lastValue = rows - 1;
        while (lastValue >= 0 && text.isNull(lastValue)) {
            lastValue--;
        }
        return (lastValue < 0 ? 0 : text.getEndOffset(lastValue)) + 4L * rows;
    }

    /** Column {@code column}'s row codes, with room for {@code rowCount} rows. */
    private int[] codes(int column, int rowCount) {
        int[] codes = rowCodes[column];
        if (codes == null || codes.length < rowCount) {
            int size = Math.min(options.rowgroupMaxRows(), Math.max(rowCount, codes == null ? 16_384 : 2 * codes.length));
            codes = codes == null ? new int[size] : java.util.Arrays.copyOf(codes, size);
            rowCodes[column] = codes;
        }
        return codes;
    }

    /**
     * Adds the text of rows {@code [from, from + count)} of BYTES column {@code column} to its
     * dictionary, each row's code into {@code codes} from {@code firstRow} on; false when a value
     * did not fit (the column falls back for this rowgroup, its codes no longer matter).
     */
    private static boolean addToDictionary(DictionaryBuilder dictionary, ColumnBatch batch, int column, int from,
                                           int count, int[] codes, int firstRow) {
        byte[] bytes = batch.bytes(column);
        int[] ends = batch.ends(column);
        boolean[] nulls = batch.nulls(column);
        int start = batch.valueStart(column, from);
        int codeIndex = firstRow;
        for (int row = from; row < from + count; row++) {
            int end = ends[row];
            int code = -1;
            if (!nulls[row]) {
                code = dictionary.addUtf8(bytes, start, end - start);
                if (code == DictionaryBuilder.FULL_CODE) {
                    return false;
                }
            }
            codes[codeIndex++] = code;
            start = end;
        }
        return true;
    }

    /**
     * The segment ids of column {@code column}'s rows from their codes, once its dictionary is
     * frozen: a primary index stays, a code of this builder's becomes its sorted position after
     * {@code secondaryBase} (0 when the builder made the primary); null when the codes are not
     * complete.
     */
    private int[] rowIds(int column, DictionaryBuilder dictionary, int secondaryBase) {
        if (!codesComplete || rows == 0) {
            return null;
        }
        int[] codes = rowCodes[column];
        for (int row = 0; row < rows; row++) {
            int code = codes[row];
            if (code < -1) {
                codes[row] = secondaryBase + dictionary.frozenId(code);
            }
        }
        return codes;
    }

    /**
     * Finishes the last rowgroup, if it has rows, with {@code reason} (BULKLOAD for the tail of a
     * bulk insert, RESIDUAL_ROW_GROUP for a rebuild's last, REORG for a reorganize).
     */
    public void finish(TrimReason reason) {
        if (rows > 0) {
            finishRowgroup(rows >= options.rowgroupMaxRows() ? TrimReason.NO_TRIM : reason);
        }
    }

    private void finishRowgroup(TrimReason reason) {
        int rowgroupId = rowgroupIds.getAsInt();
        int columns = schema.size();
        DictionarySource[] sources = new DictionarySource[columns];
        Dictionary[] secondaries = new Dictionary[columns];
        for (int column = 0; column < columns; column++) {
            vectors.get(column).setValueCount(rows);
            sources[column] = DictionarySource.none();
            DictionaryBuilder dictionary = dictionaries[column];
            if (fellBack[column] != FallbackReason.NONE) {
                sources[column] = DictionarySource.fallback(fellBack[column]);
            } else if (dictionary != null) {
                Dictionary primary = primaries.get(column);
                int secondaryBase = 0;
                if (primary == null) {
                    primary = primaries.store(column, dictionary.freeze(PrimaryDictionaries.PRIMARY_ID));
                } else {
                    secondaryBase = primary.entryCount();
                    if (dictionary.entryCount() > 0) {
                        secondaries[column] = dictionary.freeze(rowgroupId + 1);
                    }
                }
                sources[column] = DictionarySource.of(primary, secondaries[column],
                        rowIds(column, dictionary, secondaryBase));
            }
        }
        // Each column's segment depends only on its own vector and dictionaries: encoded side by side.
        EncodedSegment[] encoded = new EncodedSegment[columns];
        Runnable encodeAll = () -> IntStream.range(0, columns).parallel().forEach(column -> encoded[column] =
                SegmentEncoder.encode(vectors.get(column), schema.column(column).type(), sources[column], encoding));
        if (encoders == null) {
            for (int column = 0; column < columns; column++) {
                encoded[column] = SegmentEncoder.encode(vectors.get(column), schema.column(column).type(), sources[column],
                        encoding);
            }
        } else {
            encoders.submit(encodeAll).join();
        }
        List<SegmentBlob> segments = new ArrayList<>(columns);
        List<SegmentBlob> dictionaryBlobs = new ArrayList<>(columns);
        List<SegmentMetadata> metadata = new ArrayList<>(columns);
        for (int column = 0; column < columns; column++) {
            SqlType type = schema.column(column).type();
            DictionaryBuilder dictionary = dictionaries[column];
            long dictionaryBytes = dictionary == null ? 0 : dictionary.sizeBytes();
            int dictionaryEntries = dictionary == null ? 0 : dictionary.entryCount();
            segments.add(new SegmentBlob(encoded[column].bytes(),
                    FooterMetadata.encode(encoded[column].metadata(), type, dictionaryBytes, dictionaryEntries,
                            encoded[column].valueRuns())));
            metadata.add(encoded[column].metadata());
            boolean storesSecondary = secondaries[column] != null
                    && encoded[column].metadata().secondaryDictionaryId() != SegmentMetadata.NO_DICTIONARY;
            dictionaryBlobs.add(new SegmentBlob(storesSecondary ? secondaries[column].toBytes() : new byte[0],
                    new byte[0]));
        }
        List<SegmentBlob> blobs = new ArrayList<>(segments);
        blobs.addAll(dictionaryBlobs);
        sink.accept(new BuiltRowgroup(rowgroupId, rows, reason, blobs, metadata));
        rowgroupsBuilt++;
        for (FieldVector vector : vectors) {
            vector.clear();
            vector.allocateNew();
        }
        startRowgroup();
    }

    @Override
    public void close() {
        for (FieldVector vector : vectors) {
            vector.close();
        }
    }
}
