package dev.columba.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;
import java.util.Objects;

/**
 * A columnstore table of the catalog's database, with the constraint Trino pushed down
 * ({@code applyFilter}). The constraint only narrows what is read (rowgroups eliminated by their
 * min/max, rows filtered by the scan where it can); Trino still applies it, so it may be wider
 * than the query's predicate and is never relied on for correctness.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 *
 * @param objectId   the table's object id in the database's catalog, checked again when it is read
 * @param constraint the pushed-down constraint, over {@link ColumbaColumnHandle}s
 */
public record ColumbaTableHandle(SchemaTableName name, int objectId, TupleDomain<ColumnHandle> constraint)
        implements ConnectorTableHandle {
    public ColumbaTableHandle {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(constraint, "constraint");
    }

    ColumbaTableHandle withConstraint(TupleDomain<ColumnHandle> newConstraint) {
        return new ColumbaTableHandle(name, objectId, newConstraint);
    }
}
