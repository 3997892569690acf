package dev.columba.planner.rel;

import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Calcite metadata: the row count of a generate_series call, the same for the logical node the
 * converter produces and for Columba's physical one, so the optimizer costs joins against a series
 * on its real size before and after conversion (Calcite's own guess for a table function is a
 * constant). Other table functions keep
 * Calcite's constant, other nodes Calcite's handlers.
 */
public final class TableFunctionRowCount implements MetadataHandler<BuiltInMetadata.RowCount> {
    public static final TableFunctionRowCount INSTANCE = new TableFunctionRowCount();

    @Override
    public MetadataDef<BuiltInMetadata.RowCount> getDef() {
        return BuiltInMetadata.RowCount.DEF;
    }

    public Double getRowCount(TableFunctionScan scan, RelMetadataQuery mq) {
        if (!ColumbaTableFunctionScan.runs(scan)) {
            return scan.estimateRowCount(mq);
        }
        return ColumbaTableFunctionScan.estimatedRows(scan.getCall()).orElse(ColumbaTableFunctionScan.UNKNOWN_ROWS);
    }
}
