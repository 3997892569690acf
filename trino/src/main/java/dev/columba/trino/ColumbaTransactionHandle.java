package dev.columba.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;
import java.util.UUID;

/**
 * A Trino transaction of the catalog. In {@code columba.access-mode = open} every transaction reads the
 * one shared opening ({@link #SHARED}); in {@code snapshot} mode each has an id of its own, naming the
 * snapshot its queries read ({@link Snapshots}). Public, as every handle: Trino serializes handles to
 * JSON (Jackson) between its nodes.
 *
 * @param id the transaction's id
 */
public record ColumbaTransactionHandle(UUID id) implements ConnectorTransactionHandle {
    /** The transaction of the shared opening: no per-transaction state. */
    static final ColumbaTransactionHandle SHARED = new ColumbaTransactionHandle(new UUID(0, 0));

    public ColumbaTransactionHandle {
        if (id == null) {
            throw new IllegalArgumentException("a transaction handle needs an id");
        }
    }
}
