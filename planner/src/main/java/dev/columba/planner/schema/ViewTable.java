package dev.columba.planner.schema;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.storage.catalog.CatalogEntry;
import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A user view as the planner sees it: the columns it was created with, and its query, which
 * {@link #toRel} expands where the view is named (through the converter's view expander, which
 * parses, validates and converts the text against the statement's own catalog), so a statement
 * over a view plans as if the view's query were written in its place. Nothing of the view is
 * cached between statements: a table the view reads that was dropped fails the statement naming
 * the view (42P01), and one whose columns changed so that the query no longer has the view's
 * columns fails with 42000.
 */
public final class ViewTable extends AbstractTable implements TranslatableTable {
    private final CatalogEntry.View view;

    public ViewTable(CatalogEntry.View view) {
        this.view = view;
    }

    public String name() {
        return view.name();
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return SqlTypes.toRowType(view.schema(), typeFactory);
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        RelDataType rowType = table.getRowType();
        RelRoot root = context.expandView(rowType, view.definition(), List.of(), List.of(view.name()));
        RelNode expanded = root.project();
        int columns = expanded.getRowType().getFieldCount();
        if (columns != rowType.getFieldCount()) {
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "view " + view.name() + " was created with "
                    + rowType.getFieldCount() + " columns, and its query now returns " + columns
                    + ": recreate it with CREATE OR ALTER VIEW");
        }
        return RelOptUtil.createCastRel(expanded, rowType, true);
    }
}
