package dev.columba.planner.rel;

import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Calcite metadata: row counts of Columba nodes that Calcite's handlers get wrong.
 * <ul>
 * <li>A generate_series call: the same for the logical node the converter produces and for
 *     Columba's physical one, so the optimizer costs joins against a series on its real size before
 *     and after conversion (Calcite's own guess for a table function is a constant). Other table
 *     functions keep Calcite's constant.
 * <li>A phase of a split aggregation ({@link ColumbaSplitAggregate}): its aggregate's groups.
 *     Calcite's handler for any single-input node is its input's count, so at MAXDOP n every
 *     estimate above a split aggregate was made from the rows aggregated (TPC-H Q15's join over its
 *     revenue view was shown at 324 million rows).
 * </ul>
 * Other nodes keep Calcite's handlers.
 */
public final class ColumbaRowCount implements MetadataHandler<BuiltInMetadata.RowCount> {
    public static final ColumbaRowCount INSTANCE = new ColumbaRowCount();

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

    public Double getRowCount(ColumbaSplitAggregate split, RelMetadataQuery mq) {
        return mq.getRowCount(split.aggregate());
    }
}
