package dev.columba.planner.rel;

import dev.columba.planner.schema.ColumbaTable;
import java.util.Arrays;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

/**
 * Calcite metadata: the selectivity of a predicate over a scan of a Columba table, from the
 * table's statistics ({@link Selectivities}), so a filter's estimated rows (and so the decision for
 * random prefetch) rest on real numbers. For a scan that already holds a key range, the
 * selectivity is conditional on that range. Other nodes keep Calcite's handlers.
 */
public final class ColumbaSelectivity implements MetadataHandler<BuiltInMetadata.Selectivity> {
    public static final ColumbaSelectivity INSTANCE = new ColumbaSelectivity();

    @Override
    public MetadataDef<BuiltInMetadata.Selectivity> getDef() {
        return BuiltInMetadata.Selectivity.DEF;
    }

    /** A subset answers for its best (or first) member. */
    public Double getSelectivity(RelSubset subset, RelMetadataQuery mq, RexNode predicate) {
        RelNode rel = subset.getBest() != null ? subset.getBest() : subset.getOriginal();
        return rel == null ? RelMdUtil.guessSelectivity(predicate) : mq.getSelectivity(rel, predicate);
    }

    /**
     * An inner or left equi-join whose sides' distinct keys are known: {@link JoinSelectivity}.
     * Otherwise, an equi-join on a key that is unique on one side matches each row of the other side at most
     * once: its selectivity is one over that unique side's rows (Calcite guesses 0.15 for any
     * equality, which makes a join with a unique key look thousands of times bigger than it is).
     */
    public Double getSelectivity(org.apache.calcite.rel.core.Join join, RelMetadataQuery mq, RexNode predicate) {
        if (predicate == null) {
            return 1.0;
        }
        org.apache.calcite.rel.core.JoinInfo info = org.apache.calcite.rel.core.JoinInfo.of(join.getLeft(), join.getRight(),
                predicate);
        double guess = RelMdUtil.guessSelectivity(org.apache.calcite.rex.RexUtil.composeConjunction(join.getCluster().getRexBuilder(), info.nonEquiConditions));
        if (info.leftKeys.isEmpty()) {
            return RelMdUtil.guessSelectivity(predicate);
        }
        if (join.getJoinType() == org.apache.calcite.rel.core.JoinRelType.INNER
                || join.getJoinType() == org.apache.calcite.rel.core.JoinRelType.LEFT) {
            java.util.OptionalDouble fromDistinct = JoinSelectivity.equiJoin(mq, join.getLeft(), info.leftKeys,
                    join.getRight(), info.rightKeys);
            if (fromDistinct.isPresent()) {
                return guess * fromDistinct.getAsDouble();
            }
        }
        Boolean rightUnique = mq.areColumnsUnique(join.getRight(), org.apache.calcite.util.ImmutableBitSet.of(info.rightKeys));
        Boolean leftUnique = mq.areColumnsUnique(join.getLeft(), org.apache.calcite.util.ImmutableBitSet.of(info.leftKeys));
        if (Boolean.TRUE.equals(rightUnique)) {
            return guess / Math.max(1, mq.getRowCount(join.getRight()));
        }
        if (Boolean.TRUE.equals(leftUnique)) {
            return guess / Math.max(1, mq.getRowCount(join.getLeft()));
        }
        return RelMdUtil.guessSelectivity(predicate);
    }

    public Double getSelectivity(TableScan scan, RelMetadataQuery mq, RexNode predicate) {
        ColumbaTable table = scan.getTable().unwrap(ColumbaTable.class);
        if (table == null || predicate == null) {
            return predicate == null ? 1.0 : RelMdUtil.guessSelectivity(predicate);
        }
        int[] projection = ColumbaDistinctRowCount.projection(scan);
        if (scan instanceof ColumbaRowstoreScan rowstore && rowstore.range() != null) {
            // Conditional on the range: P(predicate and range) / P(range), over table columns.
            RexNode onTable = predicate.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return new RexInputRef(projection[reference.getIndex()], reference.getType());
                }
            });
            int[] identity = new int[scan.getTable().getRowType().getFieldCount()];
            Arrays.setAll(identity, column -> column);
            RexNode both = RexUtil.composeConjunction(scan.getCluster().getRexBuilder(),
                    java.util.List.of(onTable, rowstore.rangeCondition()));
            double range = rowstore.rangeFraction();
            return range <= 0 ? 1.0 : Math.min(1.0, Selectivities.of(table, identity, both) / range);
        }
        if (scan instanceof ColumbaColumnstoreScan columnstore && columnstore.filtersRows()
                && table.columnstoreStatistics().isPresent()) {
            // Conditional on the pushed filters, as for a key range above (without figures, the
            // filters' guesses and the predicate's are independent).
            RexNode onTable = predicate.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef reference) {
                    return new RexInputRef(projection[reference.getIndex()], reference.getType());
                }
            });
            int[] identity = new int[scan.getTable().getRowType().getFieldCount()];
            Arrays.setAll(identity, column -> column);
            RexNode both = RexUtil.composeConjunction(scan.getCluster().getRexBuilder(),
                    java.util.List.of(onTable, columnstore.filterCondition()));
            double filtered = columnstore.filterFraction();
            return filtered <= 0 ? 1.0 : Math.min(1.0, Selectivities.of(table, identity, both) / filtered);
        }
        return Selectivities.of(table, projection, predicate);
    }
}
