package dev.columba.datagen;

/** A cursor for generators whose rows are pure functions of their index (TestTable, comments). */
final class IndexedRowCursor implements RowCursor {
    private final RowWriter writer;
    private final Object[] row;
    private final long toRow;
    private long nextRow;
    private long currentRow = -1;

    IndexedRowCursor(int columnCount, long fromRow, long toRow, RowWriter writer) {
        this.writer = writer;
        this.row = new Object[columnCount];
        this.nextRow = fromRow;
        this.toRow = toRow;
    }

    @Override
    public boolean next() {
        if (nextRow >= toRow) {
            return false;
        }
        currentRow = nextRow++;
        writer.write(currentRow, row);
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
}
