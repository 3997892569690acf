package dev.columba.planner.rel;

import java.util.Set;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelColumnOrigin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Calcite metadata: which table column an output column of a Columba scan is. Calcite answers only
 * for a scan that returns every column of its table in order; a Columba scan returns the columns
 * of its projection, so without this every projected scan had no origin, and join and GROUP BY
 * estimates fell back from distinct counts to Calcite's fixed guesses (an equi-join kept 15% of
 * the cross product: TPC-H Q3 at SF 1 built its hash table on 3.2 M lineitem rows instead of 147 k
 * orders). A subset answers for its best (or first) member, as for the other Columba handlers, and
 * a bitmap filter and the exchanges of a parallel plan (placed after planning) pass their input's
 * origins on.
 *
 * <p>The cost-based phase memoizes metadata (Janino's handlers), which is what makes answering
 * through subsets affordable: without the cache, the recursion through subsets made planning of
 * TPC-H Q21 take minutes over rowstore tables (docs/design/planner.md).
 */
public final class ColumbaColumnOrigins implements MetadataHandler<BuiltInMetadata.ColumnOrigin> {
    public static final ColumbaColumnOrigins INSTANCE = new ColumbaColumnOrigins();

    @Override
    public MetadataDef<BuiltInMetadata.ColumnOrigin> getDef() {
        return BuiltInMetadata.ColumnOrigin.DEF;
    }

    public Set<RelColumnOrigin> getColumnOrigins(RelSubset subset, RelMetadataQuery mq, int column) {
        RelNode rel = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
        return rel == null ? null : mq.getColumnOrigins(rel, column);
    }

    public Set<RelColumnOrigin> getColumnOrigins(TableScan scan, RelMetadataQuery mq, int column) {
        int[] projection = ColumbaDistinctRowCount.projection(scan);
        if (column < 0 || column >= projection.length) {
            return null;
        }
        return Set.of(new RelColumnOrigin(scan.getTable(), projection[column], false));
    }

    /**
     * A phase of a split aggregation: its aggregate's origins (a group key from its input's column,
     * an aggregate derived), not Calcite's guess for a single-input node (the input's column at the
     * same position).
     */
    public Set<RelColumnOrigin> getColumnOrigins(ColumbaSplitAggregate split, RelMetadataQuery mq, int column) {
        return mq.getColumnOrigins(split.aggregate(), column);
    }

    /**
     * The exchanges of a parallel plan pass their input's columns on. Without these, every join
     * above a gather or a repartition lost its keys' origins, so its selectivity fell from distinct
     * counts ({@link JoinSelectivity}) to Calcite's 15% of the cross product: TPC-H Q18 at MAXDOP 2
     * was shown joining orders to its big orders at 1.7 x 10^11 rows, Q20's partsupp to its parts
     * at 5.3 x 10^9.
     */
    public Set<RelColumnOrigin> getColumnOrigins(ColumbaGather gather, RelMetadataQuery mq, int column) {
        return mq.getColumnOrigins(gather.getInput(), column);
    }

    public Set<RelColumnOrigin> getColumnOrigins(ColumbaRepartition repartition, RelMetadataQuery mq, int column) {
        return mq.getColumnOrigins(repartition.getInput(), column);
    }

    /** A bitmap filter passes its input's columns on. */
    public Set<RelColumnOrigin> getColumnOrigins(ColumbaBitmapFilter filter, RelMetadataQuery mq, int column) {
        return mq.getColumnOrigins(filter.getInput(), column);
    }
}
