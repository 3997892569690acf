package dev.columba.planner.plan;

import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ViewTable;
import java.util.Collection;
import java.util.Optional;

/**
 * The tables a statement can name, as the session sees the catalog when the statement starts:
 * user tables (rowstore and columnstore) by name, case-insensitively, and the system views under
 * the schema {@code sys}.
 */
public interface PlannerCatalog {
    /** A user table by name. */
    Optional<ColumbaTable> table(String name);

    /** A system view of schema {@code sys} by name. */
    Optional<ColumbaTable> systemView(String name);

    Collection<ColumbaTable> tables();

    Collection<ColumbaTable> systemViews();

    /** The user's views (CREATE VIEW), expanded where a statement names them. */
    Collection<ViewTable> views();
}
