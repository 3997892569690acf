package dev.columba.planner.session;

import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.plan.PlannerCatalog;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ColumnstoreTableAdapter;
import dev.columba.planner.schema.PartitionOptions;
import dev.columba.planner.schema.RowstoreTable;
import dev.columba.planner.schema.ViewTable;
import dev.columba.storage.buffer.PageReader;
import dev.columba.storage.catalog.Catalog;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.txn.ObjectLocks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalog as a statement of a session sees it when the statement starts: read once, through the
 * session's transaction if it has one (so it sees its own DDL), else committed (with the catalog
 * held shared while reading).
 */
final class SessionCatalog implements PlannerCatalog {
    private final Map<String, ColumbaTable> tables = new LinkedHashMap<>();
    private final Map<String, ColumbaTable> views;
    private final List<ViewTable> userViews = new ArrayList<>();

    SessionCatalog(Session session) {
        Database database = session.database();
        IoCounters counters = database.systemCounters();
        PageReader reader = session.inTransaction() ? session.writeTransaction().writes() : database.bufferPool();
        List<CatalogEntry> entries;
        try (ObjectLocks.Lease ignored = session.inTransaction() ? null
                : database.locks().shared(Catalog.CATALOG_OBJECT_ID)) {
            entries = database.catalog().entries(reader, counters);
        }
        List<CatalogEntry.Table> allTables = entries.stream().filter(entry -> entry instanceof CatalogEntry.Table)
                .map(entry -> (CatalogEntry.Table) entry).toList();
        for (CatalogEntry entry : entries) {
            if (entry instanceof CatalogEntry.Table table) {
                if (PartitionOptions.partition(table)) {
                    // A partition is read through its table, never by its own name.
                    continue;
                }
                ColumbaTable adapter = table.organization() == CatalogEntry.Organization.COLUMNSTORE
                        ? new ColumnstoreTableAdapter(ColumnstoreTable.open(database, table),
                                session.engine().statistics())
                        : new RowstoreTable(new TableStore(table, indexesOf(entries, table.objectId())),
                                session.engine().statistics(),
                                PartitionOptions.partitioned(table) ? PartitionOptions.read(table, allTables) : null);
                tables.put(table.name().toLowerCase(Locale.ROOT), adapter);
            } else if (entry instanceof CatalogEntry.View view) {
                userViews.add(new ViewTable(view));
            }
        }
        this.views = SystemViews.create(database, entries, session.engine().planCache());
    }

    private static List<CatalogEntry.Index> indexesOf(List<CatalogEntry> entries, int tableId) {
        return entries.stream().filter(entry -> entry instanceof CatalogEntry.Index index && index.tableId() == tableId)
                .map(entry -> (CatalogEntry.Index) entry).toList();
    }

    @Override
    public Optional<ColumbaTable> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }

    @Override
    public Optional<ColumbaTable> systemView(String name) {
        return Optional.ofNullable(views.get(name.toLowerCase(Locale.ROOT)));
    }

    @Override
    public Collection<ColumbaTable> tables() {
        return tables.values();
    }

    @Override
    public Collection<ColumbaTable> systemViews() {
        return views.values();
    }

    @Override
    public Collection<ViewTable> views() {
        return userViews;
    }
}
