package dev.columba.core.batch;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The unit of batch-mode execution: Arrow vectors of equal length, one per column, plus an
 * optional selection vector naming the rows that are live (a filter selects rather than copies).
 * Owns its vectors: closing the batch releases them. Producers reuse a batch from call to call;
 * a consumer's view of it is valid until the producer's next call.
 *
 * <p>A {@linkplain #view view} is a batch over vectors owned elsewhere (an operator passing its
 * child's columns through, with its own selection): closing it releases nothing, and it lives no
 * longer than the vectors' owner keeps them.
 */
public final class Batch implements AutoCloseable {
    /**
     * The batch's root, made only if someone asks ({@link #root}): a root indexes its vectors in a
     * map keyed by their fields, and hashing the fields of every view (a projection's, a filter's,
     * per batch) cost 4% of TPC-H Q6. An owned batch does not make one either: every root makes an
     * Arrow {@code Schema}, whose class initialiser builds a Jackson {@code ObjectMapper}, a fifth
     * of a JVM's first statement (bench/results/plan11c-20261127.md), which nothing on the
     * statement path needs.
     */
    private VectorSchemaRoot root;
    private final boolean ownsVectors;
    private final FieldVector[] vectors;
    private final int columnCount;
    private int rowCount;
    /** Per column, the dictionary codes of its strings, or null; null when no column has any. */
    private CodedStrings[] codes;
    /** Per column, its values as stored longs, or null; null when no column has any. */
    private NativeLongs[] longs;
    private int[] selection;
    /** Whether {@link #selection} is another batch's ({@link #copySelection}), not to be written. */
    private boolean sharedSelection;
    private int selectedCount;
    private boolean selective;

    private Batch(FieldVector[] vectors, int rowCount, boolean ownsVectors) {
        this.ownsVectors = ownsVectors;
        this.vectors = vectors;
        this.columnCount = vectors.length;
        this.rowCount = rowCount;
    }

    /** An empty batch with one vector per column of {@code schema}, allocated from {@code allocator}. */
    public static Batch create(TableSchema schema, BufferAllocator allocator) {
        FieldVector[] vectors = new FieldVector[schema.size()];
        try {
            for (int columnIndex = 0; columnIndex < vectors.length; columnIndex++) {
                Column column = schema.column(columnIndex);
                vectors[columnIndex] = new Field(column.name(),
                        new FieldType(column.nullable(), column.type().arrowType(), null), null).createVector(allocator);
            }
        } catch (RuntimeException e) {
            AutoCloseables.close(e, vectors); // those made so far (the rest are null)
            throw e;
        }
        return new Batch(vectors, 0, true);
    }

    /** Wraps existing vectors (which the batch then owns); its row count is the first vector's value count. */
    public static Batch of(List<FieldVector> vectors) {
        return new Batch(vectors.toArray(new FieldVector[0]), vectors.isEmpty() ? 0 : vectors.getFirst().getValueCount(),
                true);
    }

    /**
     * A batch of {@code rowCount} rows over {@code vectors} owned by someone else, with no
     * selection. Closing the view leaves the vectors alone; its row count is fixed.
     */
    public static Batch view(List<FieldVector> vectors, int rowCount) {
        FieldVector[] columns = vectors.toArray(new FieldVector[0]);
        for (FieldVector vector : columns) {
            if (vector.getValueCount() < rowCount) {
                throw new IllegalArgumentException("vector " + vector.getName() + " holds " + vector.getValueCount()
                        + " values, fewer than the view's " + rowCount + " rows");
            }
        }
        Batch batch = new Batch(columns, rowCount, false);
        batch.selectedCount = rowCount;
        return batch;
    }

    /** A view of all of {@code batch}'s rows (its selection not taken): the same vectors, owned by {@code batch}. */
    public static Batch viewOf(Batch batch) {
        return view(batch.vectors(), batch.rowCount());
    }

    /** The batch's vectors, one per column, in order. */
    public List<FieldVector> vectors() {
        return List.of(vectors);
    }

    /**
     * The dictionary codes of column {@code column}'s strings, or null: see {@link CodedStrings}
     * (a consumer uses them only for rows below their {@linkplain CodedStrings#codedRows coded rows}).
     */
    public CodedStrings codes(int column) {
        return codes == null ? null : codes[column];
    }

    /** Attaches the codes its producer keeps for column {@code column}'s strings. */
    public void attachCodes(int column, CodedStrings columnCodes) {
        if (codes == null) {
            codes = new CodedStrings[columnCount];
        }
        codes[column] = columnCodes;
    }

    /**
     * The values of column {@code column} as the longs its producer stored them as, or null: see
     * {@link NativeLongs} (a consumer uses them only while they are {@linkplain NativeLongs#defined defined}).
     */
    public NativeLongs longs(int column) {
        return longs == null ? null : longs[column];
    }

    /** Attaches the longs its producer keeps for column {@code column}. */
    public void attachLongs(int column, NativeLongs columnLongs) {
        if (longs == null) {
            longs = new NativeLongs[columnCount];
        }
        longs[column] = columnLongs;
    }

    /**
     * Attaches to each column of this view the codes ({@link CodedStrings}) and longs ({@link
     * NativeLongs}) {@code source} has for the same vector.
     */
    public void inheritCodes(Batch source) {
        if (source.codes == null && source.longs == null) {
            return;
        }
        for (int column = 0; column < columnCount; column++) {
            FieldVector vector = column(column);
            for (int other = 0; other < source.columnCount; other++) {
                if (source.column(other) != vector) {
                    continue;
                }
                if (source.codes != null && source.codes[other] != null) {
                    attachCodes(column, source.codes[other]);
                }
                if (source.longs != null && source.longs[other] != null) {
                    attachLongs(column, source.longs[other]);
                }
            }
        }
    }

    /** Whether closing this batch releases its vectors (false for a {@linkplain #view view}). */
    public boolean ownsVectors() {
        return ownsVectors;
    }

    public int columnCount() {
        return columnCount;
    }

    public FieldVector column(int columnIndex) {
        return vectors[columnIndex];
    }

    /** Rows held by the vectors, selected or not. */
    public int rowCount() {
        return rowCount;
    }

    /**
     * Sets the row count of every vector (after the producer filled them) and clears the selection.
     *
     * @throws IllegalStateException on a {@linkplain #view view}, whose vectors belong to another
     */
    public void setRowCount(int rows) {
        if (!ownsVectors) {
            throw new IllegalStateException("the row count of a view is fixed");
        }
        if (root != null) {
            root.setRowCount(rows);
        } else {
            for (FieldVector vector : vectors) {
                vector.setValueCount(rows);
            }
        }
        rowCount = rows;
        selective = false;
        selectedCount = rows;
    }

    /** Whether only some rows are live. */
    public boolean hasSelection() {
        return selective;
    }

    /** Live rows: all rows without a selection. */
    public int selectedCount() {
        return selective ? selectedCount : rowCount;
    }

    /** The vector position of the {@code index}-th live row. */
    public int selectedRow(int index) {
        return selective ? selection[index] : index;
    }

    /** Writes the vector positions of the live rows to {@code out[0, selectedCount())}, which must be long enough. */
    public void copySelectedRows(int[] out) {
        if (selective) {
            System.arraycopy(selection, 0, out, 0, selectedCount);
        } else {
            int rows = rowCount;
            for (int row = 0; row < rows; row++) {
                out[row] = row;
            }
        }
    }

    /**
     * Keeps only the rows at {@code positions[0, count)} (ascending vector positions). The array is
     * copied into the batch's own.
     */
    public void select(int[] positions, int count) {
        Objects.checkFromToIndex(0, count, positions.length);
        if (selection == null || selection.length < count || sharedSelection) {
            // A producer's batch keeps room for all its rows (it is reused); a view only what it selects.
            selection = new int[ownsVectors ? Math.max(count, rowCount) : count];
            sharedSelection = false;
        }
        System.arraycopy(positions, 0, selection, 0, count);
        selectedCount = count;
        selective = true;
    }

    /** Makes every row live again. */
    public void selectAll() {
        selective = false;
        selectedCount = rowCount;
    }

    /** Gives this batch the same live rows as {@code other}, which must have as many rows. */
    public void copySelection(Batch other) {
        if (other.rowCount() != rowCount()) {
            throw new IllegalArgumentException("cannot copy the selection of a batch of " + other.rowCount()
                    + " rows into one of " + rowCount());
        }
        if (other.selective) {
            // Shared, not copied (a projection made a copy per batch): only select() writes a
            // selection, and it gives a batch whose selection is shared one of its own first. The
            // other batch changes its selection only when its producer is called again, when this
            // batch, made from it, is no longer valid anyway.
            selection = other.selection;
            sharedSelection = true;
            selectedCount = other.selectedCount;
            selective = true;
        } else {
            selectAll();
        }
    }

    /**
     * The schema root, for Arrow APIs that want one (made on first use for a view). Valid as long
     * as the batch; its row count is the batch's: change it only through {@link #setRowCount}.
     */
    public VectorSchemaRoot root() {
        if (root == null) {
            List<Field> fields = new ArrayList<>(columnCount);
            for (FieldVector vector : vectors) {
                fields.add(vector.getField());
            }
            root = new VectorSchemaRoot(fields, List.of(vectors), rowCount);
        }
        return root;
    }

    /** Releases the vectors if this batch owns them; a view releases nothing. */
    @Override
    public void close() {
        if (ownsVectors) {
            try {
                AutoCloseables.close(Arrays.asList(vectors));
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing a batch's vectors failed", e); // vectors throw none
            }
        }
    }
}
