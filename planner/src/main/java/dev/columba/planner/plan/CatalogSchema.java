package dev.columba.planner.plan;

import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.ViewTable;
import java.util.Locale;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The catalog as Calcite schemas, built for one statement from the {@link PlannerCatalog}: user
 * tables and views in the default schema and again under {@code dbo} (SQL Server's default schema, so
 * {@code dbo.TestTable} resolves), system views under {@code sys} and under {@code master.dbo}
 * (where SQL Server keeps {@code spt_values}). Names match case-insensitively (the catalog reader's
 * setting), keeping the case they were created with.
 */
final class CatalogSchema {
    private CatalogSchema() {
    }

    static CalciteSchema build(PlannerCatalog catalog) {
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        SchemaPlus plus = root.plus();
        SchemaPlus dbo = plus.add("dbo", new AbstractSchema());
        for (ColumbaTable table : catalog.tables()) {
            plus.add(table.name(), table);
            dbo.add(table.name(), table);
        }
        for (ViewTable view : catalog.views()) {
            plus.add(view.name(), view);
            dbo.add(view.name(), view);
        }
        SchemaPlus sys = plus.add("sys", new AbstractSchema());
        SchemaPlus master = plus.add("master", new AbstractSchema());
        SchemaPlus masterDbo = master.add("dbo", new AbstractSchema());
        for (ColumbaTable view : catalog.systemViews()) {
            sys.add(view.name().toLowerCase(Locale.ROOT), view);
            masterDbo.add(view.name().toLowerCase(Locale.ROOT), view);
        }
        return root;
    }
}
