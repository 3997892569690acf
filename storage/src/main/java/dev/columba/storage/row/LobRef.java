package dev.columba.storage.row;

/**
 * A variable-length value kept out of the row: the row holds this reference and the B+tree or
 * heap layer keeps the value's bytes (as {@link RowCodec#lobBytes} returns them) on overflow pages
 * starting at {@code firstPageId}. Which values go out of row is that layer's decision
 * ({@link RowCodec#columnsToMoveOutOfRow}); the codec only stores and returns the reference.
 *
 * @param firstPageId the first overflow page, as the storage layer numbers pages
 * @param byteLength the value's length in bytes (UTF-8, CHAR padding included)
 */
public record LobRef(long firstPageId, long byteLength) {
    public LobRef {
        if (firstPageId < 0) {
            throw new IllegalArgumentException("LobRef firstPageId must be >= 0, was " + firstPageId);
        }
        if (byteLength < 0) {
            throw new IllegalArgumentException("LobRef byteLength must be >= 0, was " + byteLength);
        }
    }
}
