package dev.columba.trino;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.schema.Column;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.ObjectLocks;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.ColumnHandle;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorTableHandle;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTableVersion;
import io.trino.spi.connector.Constraint;
import io.trino.spi.connector.ConstraintApplicationResult;
import io.trino.spi.connector.LimitApplicationResult;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SchemaTablePrefix;
import io.trino.spi.connector.TableColumnsMetadata;
import io.trino.spi.predicate.TupleDomain;
import io.trino.spi.statistics.Estimate;
import io.trino.spi.statistics.TableStatistics;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog's one schema and its tables: the tables of the database, columnstore and rowstore
 * (heaps and clustered B+trees), read from its catalog under the catalog's shared lock at each call
 * (a table created or dropped by the engine shows at the next query). Views are not shown, and the
 * partitions of partitioned tables show as tables of their own (docs/design/trino.md).
 */
final class ColumbaMetadata implements ConnectorMetadata {
    private final Database database;
    private final String schemaName;

    ColumbaMetadata(Database database, String schemaName) {
        this.database = database;
        this.schemaName = schemaName;
    }

    /** The database (or snapshot) this catalog reads. */
    Database database() {
        return database;
    }

    @Override
    public List<String> listSchemaNames(ConnectorSession session) {
        return List.of(schemaName);
    }

    @Override
    public boolean schemaExists(ConnectorSession session, String schema) {
        return schemaName.equals(schema);
    }

    @Override
    public ConnectorTableHandle getTableHandle(ConnectorSession session, SchemaTableName tableName,
                                               Optional<ConnectorTableVersion> startVersion,
                                               Optional<ConnectorTableVersion> endVersion) {
        if (startVersion.isPresent() || endVersion.isPresent()) {
            throw new IllegalArgumentException("Columba tables have no versions to travel to");
        }
        if (!schemaName.equals(tableName.getSchemaName())) {
            return null;
        }
        return table(tableName.getTableName())
                .map(table -> new ColumbaTableHandle(tableName, table.objectId(),
                        table.organization() != CatalogEntry.Organization.COLUMNSTORE))
                .orElse(null);
    }

    @Override
    public SchemaTableName getTableName(ConnectorSession session, ConnectorTableHandle table) {
        return ((ColumbaTableHandle) table).name();
    }

    @Override
    public ConnectorTableMetadata getTableMetadata(ConnectorSession session, ConnectorTableHandle table) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        List<ColumnMetadata> columns = new ArrayList<>();
        for (ColumbaColumnHandle column : columns(definition(handle))) {
            columns.add(column.metadata());
        }
        return new ConnectorTableMetadata(handle.name(), columns);
    }

    @Override
    public List<SchemaTableName> listTables(ConnectorSession session, Optional<String> schema) {
        if (schema.isPresent() && !schemaName.equals(schema.get())) {
            return List.of();
        }
        List<SchemaTableName> names = new ArrayList<>();
        for (CatalogEntry.Table table : tables()) {
            names.add(new SchemaTableName(schemaName, table.name().toLowerCase(Locale.ROOT)));
        }
        return names;
    }

    @Override
    public Map<String, ColumnHandle> getColumnHandles(ConnectorSession session, ConnectorTableHandle table) {
        Map<String, ColumnHandle> handles = new LinkedHashMap<>();
        for (ColumbaColumnHandle column : columns(definition((ColumbaTableHandle) table))) {
            handles.put(column.name(), column);
        }
        return handles;
    }

    @Override
    public ColumnMetadata getColumnMetadata(ConnectorSession session, ConnectorTableHandle table, ColumnHandle column) {
        return ((ColumbaColumnHandle) column).metadata();
    }

    @Override
    public Iterator<TableColumnsMetadata> streamTableColumns(ConnectorSession session, SchemaTablePrefix prefix) {
        List<TableColumnsMetadata> columns = new ArrayList<>();
        if (prefix.getSchema().isPresent() && !schemaName.equals(prefix.getSchema().get())) {
            return columns.iterator();
        }
        for (CatalogEntry.Table table : tables()) {
            SchemaTableName name = new SchemaTableName(schemaName, table.name().toLowerCase(Locale.ROOT));
            if (prefix.getTable().isEmpty() || prefix.getTable().get().equals(name.getTableName())) {
                columns.add(TableColumnsMetadata.forTable(name,
                        columns(table).stream().map(ColumbaColumnHandle::metadata).toList()));
            }
        }
        return columns.iterator();
    }

    /**
     * A columnstore table's row count, NULL fractions and min/max ranges from the rowgroup directory
     * and footers ({@link FooterStatistics}); a rowstore table's row count, which its catalog entry keeps
     * exact as of the last commit that changed it.
     */
    @Override
    public TableStatistics getTableStatistics(ConnectorSession session, ConnectorTableHandle table) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        CatalogEntry.Table definition = definition(handle);
        if (handle.rowstore()) {
            return TableStatistics.builder().setRowCount(Estimate.of(definition.rowCount())).build();
        }
        return FooterStatistics.of(ColumnstoreTable.open(database, definition), columns(definition));
    }

    /**
     * Keeps the constraint in the table handle, where the split manager eliminates rowgroups by it
     * and the page source filters with it; Trino keeps the whole constraint to enforce itself, since
     * neither is exact for every domain.
     */
    @Override
    public Optional<ConstraintApplicationResult<ConnectorTableHandle>> applyFilter(ConnectorSession session,
                                                                                   ConnectorTableHandle table,
                                                                                   Constraint constraint) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        if (handle.limited() || handle.rowstore()) {
            // A filter over a limited scan filters the rows after the limit took them: not the scan's to apply.
            // A rowstore table's pages have no statistics a constraint could eliminate them by.
            return Optional.empty();
        }
        TupleDomain<ColumnHandle> combined = handle.constraint().intersect(constraint.getSummary());
        if (combined.equals(handle.constraint())) {
            return Optional.empty();
        }
        return Optional.of(new ConstraintApplicationResult<>(handle.withConstraint(combined), constraint.getSummary(),
                constraint.getExpression(), false));
    }

    /**
     * Takes the limit of a LIMIT right above the scan (Trino pushes none through a filter, so every
     * row the scan returns counts toward it), never guaranteed: the scan stops after that many rows
     * and the splits leave out the rowgroups beyond them (see {@link ColumbaTableHandle}), and
     * Trino's own limit stays above, since several splits each return up to the limit.
     */
    @Override
    public Optional<LimitApplicationResult<ConnectorTableHandle>> applyLimit(ConnectorSession session, ConnectorTableHandle table,
                                                                             long limit) {
        ColumbaTableHandle handle = (ColumbaTableHandle) table;
        if (handle.rowstore() || handle.limited() && handle.limit() <= limit) {
            // Not yet for a rowstore table: its page source would have to stop at the limit (docs/design/trino.md).
            return Optional.empty();
        }
        return Optional.of(new LimitApplicationResult<>(handle.withLimit(limit), false, false));
    }

    /** The catalog entry of {@code handle}'s table; fails when it was dropped, or dropped and created again. */
    CatalogEntry.Table definition(ColumbaTableHandle handle) {
        return table(handle.name().getTableName())
                .filter(table -> table.objectId() == handle.objectId())
                .orElseThrow(() -> new IllegalStateException("table " + handle.name() + " (object " + handle.objectId()
                        + ") is no longer in " + database.directory()));
    }

    private Optional<CatalogEntry.Table> table(String name) {
        return tables().stream().filter(table -> table.name().equalsIgnoreCase(name)).findFirst();
    }

    /** The database's tables; every question about the catalog's tables starts here, so a closed database is reported here. */
    private List<CatalogEntry.Table> tables() {
        if (!database.isOpen()) {
            throw new TrinoException(ColumbaErrorCode.COLUMBA_DATABASE_CLOSED, "database " + database.directory()
                    + " was closed by the engine whose opening this catalog read through");
        }
        List<CatalogEntry.Table> tables = new ArrayList<>();
        try (ObjectLocks.Lease ignored = database.locks().shared(Catalog.CATALOG_OBJECT_ID)) {
            for (CatalogEntry entry : database.catalog().entries(database.bufferPool(), database.systemCounters())) {
                if (entry instanceof CatalogEntry.Table table) {
                    tables.add(table);
                }
            }
        }
        return tables;
    }

    static List<ColumbaColumnHandle> columns(CatalogEntry.Table table) {
        List<ColumbaColumnHandle> columns = new ArrayList<>();
        List<Column> schema = table.schema().columns();
        for (int ordinal = 0; ordinal < schema.size(); ordinal++) {
            Column column = schema.get(ordinal);
            columns.add(new ColumbaColumnHandle(column.name().toLowerCase(Locale.ROOT), ordinal,
                    TypeMapping.trinoType(column.type())));
        }
        return columns;
    }
}
