package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.NativeLongs;
import dev.columba.core.batch.SortedCodeSpace;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.schema.TableSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A hand-written input operator for tests, standing where a table scan will: it returns given rows
 * in batches of a given size. With a random source it also mixes in rows that are not live (values
 * from a foreign row, deselected by the batch's selection vector), so every operator is tested on
 * inputs with selection vectors. It can fail on purpose after some batches, and records whether it
 * was opened and closed.
 */
final class ListSource implements Operator {
    private final TableSchema schema;
    private final List<Object[]> rows;
    private final int batchSize;
    private final Random selections;
    private final int failAfterBatches;
    private BufferAllocator allocator;
    private Batch batch;
    /** Columns handed on as stored longs ({@link #handOnLongs}), their vectors written only when asked. */
    private int[] longColumns = new int[0];
    /** String columns handed on as dictionary codes ({@link #handOnCodes}), their strings written only when asked. */
    private int[] codeColumns = new int[0];
    private int next;
    private int batches;
    boolean opened;
    boolean closed;

    /**
     * @param selections when not null, adds deselected rows to the batches at random
     * @param failAfterBatches throws a {@link ColumbaException} (IO_ERROR) instead of this batch; -1 never
     */
    ListSource(TableSchema schema, List<Object[]> rows, int batchSize, Random selections, int failAfterBatches) {
        this.schema = schema;
        this.rows = List.copyOf(rows);
        this.batchSize = batchSize;
        this.selections = selections;
        this.failAfterBatches = failAfterBatches;
    }

    /** Another source of the same rows, batches and failure (a parallel plan's copy of an input). */
    ListSource copy() {
        return new ListSource(schema, rows, batchSize, selections == null ? null : new Random(rows.size()), failAfterBatches);
    }

    /**
     * Hands columns {@code columns} (INT, BIGINT, narrow DECIMAL) on as a columnstore scan told to
     * does ({@link NativeLongs}): in every batch without a NULL in the column, the live rows' stored
     * longs, and the vector left holding only NULLs until a consumer asks for it
     * ({@link NativeLongs#materialize}); so a consumer that reads the vector without asking gets wrong
     * answers. Before {@link #open}.
     */
    ListSource handOnLongs(int... columns) {
        longColumns = columns.clone();
        return this;
    }

    /**
     * Hands string columns {@code columns} on as a columnstore scan told to defer their strings
     * does ({@link CodedStrings}): each batch's rows carry codes of a code space of its own, and
     * the vector holds empty strings (with the right validity) until a consumer asks for them
     * ({@link CodedStrings#materialize}). Two batches of three have a {@link SortedCodeSpace} whose
     * two runs interleave (the strings' ranks alternate between them, as a primary and a secondary
     * dictionary may), the third a space of no known order. Before {@link #open}.
     */
    ListSource handOnCodes(int... columns) {
        codeColumns = columns.clone();
        return this;
    }

    static ListSource of(TableSchema schema, List<Object[]> rows, int batchSize) {
        return new ListSource(schema, rows, batchSize, null, -1);
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    public void open(ExecutionContext context) {
        opened = true;
        allocator = context.allocator().newChildAllocator("ListSource", 0, Long.MAX_VALUE);
        batch = Batch.create(schema, allocator);
        for (int column : longColumns) {
            batch.attachLongs(column, new NativeLongs());
        }
        for (int column : codeColumns) {
            batch.attachCodes(column, new CodedStrings());
        }
    }

    @Override
    public Batch next() {
        if (next >= rows.size()) {
            return null;
        }
        if (batches++ == failAfterBatches) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "the test source fails after " + failAfterBatches + " batches");
        }
        Vectors.rewind(batch);
        List<Object[]> physical = new ArrayList<>();
        List<Integer> live = new ArrayList<>();
        while (live.size() < batchSize && next < rows.size()) {
            if (selections != null && selections.nextInt(3) == 0) {
                physical.add(rows.get(selections.nextInt(rows.size())));
            }
            live.add(physical.size());
            physical.add(rows.get(next++));
        }
        for (int column = 0; column < schema.size(); column++) {
            NativeLongs longs = batch.longs(column);
            if (longs != null) {
                longs.forget();
                if (handOnLongs(column, physical, longs)) {
                    continue;
                }
            }
            CodedStrings codes = batch.codes(column);
            if (codes != null) {
                codes.forget();
                handOnCodes(column, physical, codes);
                continue;
            }
            writeColumn(column, physical);
        }
        batch.setRowCount(physical.size());
        if (live.size() < physical.size()) {
            batch.select(live.stream().mapToInt(Integer::intValue).toArray(), live.size());
        }
        return batch;
    }

    private void writeColumn(int column, List<Object[]> physical) {
        for (int row = 0; row < physical.size(); row++) {
            VectorValues.set(batch.column(column), row, schema.column(column).type(), physical.get(row)[column]);
        }
    }

    /** Writes the column's stored longs and defers its vector, unless some row of the batch is NULL there (false). */
    private boolean handOnLongs(int column, List<Object[]> physical, NativeLongs longs) {
        long[] values = longs.valuesFor(physical.size());
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (int row = 0; row < physical.size(); row++) {
            Object value = physical.get(row)[column];
            if (value == null) {
                return false;
            }
            values[row] = value instanceof BigDecimal decimal ? decimal.unscaledValue().longValueExact() : ((Number) value).longValue();
            lowest = Math.min(lowest, values[row]);
            highest = Math.max(highest, values[row]);
        }
        for (int row = 0; row < physical.size(); row++) {
            VectorValues.setNull(batch.column(column), row);
        }
        // Every other batch with bounds that rule nothing out, as a segment of unknown range has.
        longs.markDefined(batches % 2 == 0 ? lowest : Long.MIN_VALUE, batches % 2 == 0 ? highest : Long.MAX_VALUE);
        longs.defer(() -> writeColumn(column, physical));
        return true;
    }

    /** Writes the column's codes and empty strings, and defers its strings (see {@link #handOnCodes}). */
    private void handOnCodes(int column, List<Object[]> physical, CodedStrings codes) {
        TreeSet<byte[]> distinct = new TreeSet<>(Arrays::compareUnsigned);
        for (Object[] row : physical) {
            if (row[column] != null) {
                distinct.add(((String) row[column]).getBytes(StandardCharsets.UTF_8));
            }
        }
        List<byte[]> ranked = new ArrayList<>(distinct);
        int split = (ranked.size() + 1) / 2;
        byte[][] byCode = new byte[ranked.size()][];
        for (int rank = 0; rank < ranked.size(); rank++) {
            byCode[rank % 2 == 0 ? rank / 2 : split + rank / 2] = ranked.get(rank);
        }
        Object space = batches % 3 == 0 ? new Object() : new SortedCodeSpace() {
            @Override
            public int split() {
                return split;
            }

            @Override
            public byte[] utf8(int code) {
                return byCode[code].clone();
            }
        };
        byte[][] byRank = ranked.toArray(byte[][]::new);
        int[] out = codes.codesFor(physical.size());
        for (int row = 0; row < physical.size(); row++) {
            Object value = physical.get(row)[column];
            VectorValues.set(batch.column(column), row, schema.column(column).type(), value == null ? null : "");
            if (value != null) {
                byte[] bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
                int rank = Arrays.binarySearch(byRank, bytes, Arrays::compareUnsigned);
                out[row] = rank % 2 == 0 ? rank / 2 : split + rank / 2;
            }
        }
        codes.markCoded(0, physical.size(), space, ranked.size());
        codes.defer(() -> writeColumn(column, physical));
    }

    @Override
    public void close() {
        closed = true;
        if (batch != null) {
            batch.close();
            batch = null;
        }
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }
}
