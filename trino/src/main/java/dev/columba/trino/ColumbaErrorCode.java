package dev.columba.trino;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

/**
 * The connector's own errors, in the range Trino leaves to connectors ({@code 0x0620_0000}, as
 * Trino's connectors each take one). EXTERNAL: the database changed or went away outside the query;
 * running the query again sees its new state.
 */
enum ColumbaErrorCode implements ErrorCodeSupplier {
    /** A rowgroup the query planned to read was compressed, merged or dropped by the engine before its split opened. */
    COLUMBA_TABLE_CHANGED(0, ErrorType.EXTERNAL),
    /** The engine whose opening the catalog read through closed the database. */
    COLUMBA_DATABASE_CLOSED(1, ErrorType.EXTERNAL),
    /**
     * No snapshot of the database could be taken (the writer checkpointed through every attempt, a data
     * file outside the directory), or a split's transaction has none in this JVM.
     */
    COLUMBA_SNAPSHOT_FAILED(2, ErrorType.EXTERNAL);

    private final ErrorCode errorCode;

    ColumbaErrorCode(int code, ErrorType type) {
        this.errorCode = new ErrorCode(0x0620_0000 + code, name(), type);
    }

    @Override
    public ErrorCode toErrorCode() {
        return errorCode;
    }
}
