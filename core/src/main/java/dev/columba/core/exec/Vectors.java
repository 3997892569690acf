package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;

/** Small operations on an operator's own output batches. */
final class Vectors {
    private Vectors() {
    }

    /**
     * Prepares a batch the operator filled before to be filled again from row 0: variable-width
     * vectors forget their last written row so values are appended from the start.
     */
    static void rewind(Batch batch) {
        for (int columnIndex = 0; columnIndex < batch.columnCount(); columnIndex++) {
            if (batch.column(columnIndex) instanceof BaseVariableWidthVector variableWidth) {
                variableWidth.setLastSet(-1);
            }
        }
    }

    /** Sets {@code row} of {@code vector} to NULL, growing it as needed. */
    static void setNull(FieldVector vector, int row) {
        while (row >= vector.getValueCapacity()) {
            vector.reAlloc();
        }
        vector.setNull(row);
    }

    /** The live positions of {@code batch} into {@code positions} (grown if needed); returns the array. */
    static int[] livePositions(Batch batch, int[] positions) {
        int count = batch.selectedCount();
        int[] result = positions.length >= count ? positions : new int[Math.max(count, positions.length * 2)];
        batch.copySelectedRows(result);
        return result;
    }
}
