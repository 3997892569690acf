package dev.columba.trino;

import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.predicate.TupleDomain;
import java.util.Objects;

/**
 * A table of the catalog's database, columnstore or rowstore, with the constraint Trino pushed down
 * ({@code applyFilter}) and the limit ({@code applyLimit}). The constraint only narrows what is read
 * (rowgroups eliminated by their min/max, rows filtered by the scan where it can); Trino still
 * applies it, so it may be wider than the query's predicate and is never relied on for correctness.
 * The limit is never guaranteed either (Trino keeps its own): a scan stops reading once it has
 * returned that many rows, and the split manager leaves out the rowgroups after those whose live
 * rows reach it — only while no constraint is pushed down, since then every row read is a row the
 * query keeps.
 * Public, as every handle: Trino serializes handles to JSON (Jackson) between its nodes.
 *
 * @param objectId   the table's object id in the database's catalog, checked again when it is read
 * @param rowstore   whether it is a rowstore table (heap or clustered B+tree), split by page ranges
 *                   and taking no constraint or limit (nothing in its pages can eliminate them), or a
 *                   columnstore table, split by rowgroups
 * @param constraint the pushed-down constraint, over {@link ColumbaColumnHandle}s
 * @param limit      the most rows the query takes from this scan, or {@link #NO_LIMIT}
 */
public record ColumbaTableHandle(SchemaTableName name, int objectId, boolean rowstore, TupleDomain<ColumnHandle> constraint,
                                 long limit)
        implements ConnectorTableHandle {
    /** {@link #limit} when Trino pushed none. */
    public static final long NO_LIMIT = -1;

    public ColumbaTableHandle {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(constraint, "constraint");
        if (limit < NO_LIMIT) {
            throw new IllegalArgumentException("a limit is at least 0, not " + limit);
        }
    }

    ColumbaTableHandle(SchemaTableName name, int objectId, boolean rowstore) {
        this(name, objectId, rowstore, TupleDomain.all(), NO_LIMIT);
    }

    ColumbaTableHandle withConstraint(TupleDomain<ColumnHandle> newConstraint) {
        return new ColumbaTableHandle(name, objectId, rowstore, newConstraint, limit);
    }

    ColumbaTableHandle withLimit(long newLimit) {
        return new ColumbaTableHandle(name, objectId, rowstore, constraint, newLimit);
    }

    boolean limited() {
        return limit != NO_LIMIT;
    }

    /**
     * Whether the scan may stop after {@link #limit} rows and leave rowgroups out: a limit and no
     * pushed-down constraint (with one, Trino filters the rows after the scan, so rows the scan
     * returns may not count toward the limit).
     */
    boolean stopsAtLimit() {
        return limited() && constraint.isAll();
    }
}
