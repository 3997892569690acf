package dev.columba.datagen;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import io.trino.tpch.TpchEntity;
import java.util.Arrays;
import java.util.Iterator;

/**
 * A cursor over a TPC-H range: walks the library's partitions (one per block of
 * {@link TpchGenerator}) from the one holding the first row, skipping that block's earlier rows.
 * At the end of each block it checks that the library produced exactly the rows the generator
 * counted, so a library whose streams changed fails loudly instead of shifting rows.
 */
final class TpchBlockCursor<E extends TpchEntity> implements RowCursor {
    private final TpchTableMapping<E> mapping;
    private final double scaleFactor;
    private final long[] rowsBeforeBlock;
    private final int blockCount;
    private final long toRow;
    private final Object[] row;

    private int block;
    private Iterator<E> entities;
    private long nextRow;
    private long currentRow = -1;

    TpchBlockCursor(TpchTableMapping<E> mapping, double scaleFactor, long[] rowsBeforeBlock, int blockCount,
            long fromRow, long toRow) {
        this.mapping = mapping;
        this.scaleFactor = scaleFactor;
        this.rowsBeforeBlock = rowsBeforeBlock;
        this.blockCount = blockCount;
        this.toRow = toRow;
        this.row = new Object[mapping.schema().size()];
        this.nextRow = fromRow;
        if (fromRow < toRow) {
            block = blockOf(fromRow);
            openBlock();
            for (long skipped = rowsBeforeBlock[block]; skipped < fromRow; skipped++) {
                take();
            }
        }
    }

    @Override
    public boolean next() {
        if (nextRow >= toRow) {
            return false;
        }
        while (nextRow == rowsBeforeBlock[block + 1]) {
            if (entities.hasNext()) {
                throw mismatch("more rows than the " + (rowsBeforeBlock[block + 1] - rowsBeforeBlock[block]) + " counted");
            }
            block++;
            openBlock();
        }
        mapping.filler().fill(take(), row);
        currentRow = nextRow++;
        return true;
    }

    @Override
    public Object[] row() {
        if (currentRow < 0) {
            throw new IllegalStateException("row() before the first next()");
        }
        return row;
    }

    @Override
    public long rowIndex() {
        return currentRow;
    }

    private E take() {
        if (!entities.hasNext()) {
            throw mismatch("fewer rows than the " + (rowsBeforeBlock[block + 1] - rowsBeforeBlock[block]) + " counted");
        }
        return entities.next();
    }

    private void openBlock() {
        // The library numbers partitions from 1.
        entities = mapping.library().createGenerator(scaleFactor, block + 1, blockCount).iterator();
    }

    /** The last block whose first row is at or before {@code rowIndex}. */
    private int blockOf(long rowIndex) {
        int found = Arrays.binarySearch(rowsBeforeBlock, 0, blockCount, rowIndex);
        if (found < 0) {
            return -found - 2;
        }
        // Blocks are never empty, so equal starts do not occur; take the last one all the same.
        while (found + 1 < blockCount && rowsBeforeBlock[found + 1] == rowIndex) {
            found++;
        }
        return found;
    }

    private ColumbaException mismatch(String what) {
        return new ColumbaException(ErrorCode.INTERNAL, "io.trino.tpch generated " + what + " in partition "
                + (block + 1) + " of " + blockCount + " of " + mapping.library().getTableName() + " at scale factor "
                + scaleFactor + ": the library's random streams differ from the ones this generator replays");
    }
}
