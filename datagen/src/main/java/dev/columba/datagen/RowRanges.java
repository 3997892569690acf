package dev.columba.datagen;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/** Argument checks shared by the generators, so every one rejects a bad range the same way. */
final class RowRanges {
    private RowRanges() {
    }

    static void checkRange(String tableName, long rowCount, long fromRow, long toRow) {
        if (fromRow < 0 || fromRow > toRow || toRow > rowCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "row range [" + fromRow + ", " + toRow
                    + ") is not within table " + tableName + " of " + rowCount + " rows");
        }
    }

    static void checkRowCount(String tableName, long rowCount, long maxRowCount) {
        if (rowCount < 0 || rowCount > maxRowCount) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "row count " + rowCount + " for table "
                    + tableName + " must be between 0 and " + maxRowCount);
        }
    }
}
