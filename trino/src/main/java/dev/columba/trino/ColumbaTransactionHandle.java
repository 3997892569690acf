package dev.columba.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/**
 * The connector only reads, and what a query reads is fixed by its splits: no per-transaction state.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 */
public enum ColumbaTransactionHandle implements ConnectorTransactionHandle {
    INSTANCE
}
