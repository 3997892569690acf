package dev.columba.planner.rel;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.LimitOperator;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.SortKey;
import dev.columba.core.exec.SortOperator;
import dev.columba.core.exec.TopNOperator;
import dev.columba.core.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/**
 * ORDER BY, OFFSET and FETCH: a sort, a top-N (ORDER BY with FETCH keeps only the best rows) or a
 * limit (no ORDER BY). NULLs sort as SQL's default orders them (last ascending, first
 * descending) unless the query says otherwise.
 */
public final class ColumbaSort extends Sort implements ColumbaRel {
    public ColumbaSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation, RexNode offset,
                       RexNode fetch) {
        super(cluster, traits, List.of(), input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode input, RelCollation collation, RexNode offset, RexNode fetch) {
        return new ColumbaSort(getCluster(), traitSet, input, collation, offset, fetch);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = mq.getRowCount(getInput());
        if (collation.getFieldCollations().isEmpty()) {
            return Costs.cost(planner, mq.getRowCount(this), rows * Costs.BATCH_ROW * 0.1, 0);
        }
        double kept = fetch == null ? rows : Math.min(rows, mq.getRowCount(this));
        double comparisons = rows * Math.max(1, Math.log(Math.max(2, kept)) / Math.log(2));
        // The kept rows are copied and held until the end (RowBytes): wide ones cost more.
        return Costs.cost(planner, mq.getRowCount(this), comparisons * Costs.SORT_COMPARISON + rows * Costs.BATCH_ROW
                + kept * Costs.BATCH_ROW * (RowBytes.weight(getInput(), mq) - 1), 0);
    }

    @Override
    public String explainDetail() {
        List<String> keys = new ArrayList<>();
        List<String> names = getInput().getRowType().getFieldNames();
        for (RelFieldCollation field : collation.getFieldCollations()) {
            keys.add(names.get(field.getFieldIndex()) + (field.getDirection().isDescending() ? " DESC" : "")
                    + (field.nullDirection == RelFieldCollation.NullDirection.FIRST ? " NULLS FIRST"
                    : field.nullDirection == RelFieldCollation.NullDirection.LAST ? " NULLS LAST" : ""));
        }
        StringBuilder text = new StringBuilder(keys.isEmpty() ? "" : "order by " + keys);
        if (offset != null) {
            text.append(text.isEmpty() ? "" : ", ").append("offset ").append(KeyRange.text(offset));
        }
        if (fetch != null) {
            text.append(text.isEmpty() ? "" : ", ").append("fetch ").append(KeyRange.text(fetch));
        }
        return text.toString();
    }

    /** The operator EXPLAIN names this node after. */
    public String operatorName() {
        if (collation.getFieldCollations().isEmpty()) {
            return "Limit";
        }
        return fetch == null ? "Sort" : "TopN";
    }

    @Override
    public Operator instantiate(Execution execution) {
        Operator input = execution.instantiate(getInput());
        long offsetRows = rowCount(execution, offset, 0);
        long fetchRows = rowCount(execution, fetch, LimitOperator.UNLIMITED);
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation field : collation.getFieldCollations()) {
            boolean descending = field.getDirection().isDescending();
            boolean nullsFirst = switch (field.nullDirection) {
                case FIRST -> true;
                case LAST -> false;
                case UNSPECIFIED -> descending;
            };
            keys.add(new SortKey(field.getFieldIndex(), descending, nullsFirst));
        }
        if (keys.isEmpty()) {
            return new LimitOperator(input, offsetRows, fetchRows);
        }
        if (fetch != null) {
            return new TopNOperator(input, keys, offsetRows, fetchRows);
        }
        Operator sorted = new SortOperator(input, keys);
        return offsetRows > 0 ? new LimitOperator(sorted, offsetRows, LimitOperator.UNLIMITED) : sorted;
    }

    private static long rowCount(Execution execution, RexNode node, long absent) {
        if (node == null) {
            return absent;
        }
        Expr expression = execution.translator(dev.columba.core.schema.TableSchema.of(
                dev.columba.core.schema.Column.nullable("unused", dev.columba.core.type.SqlType.INT))).translate(node);
        Object value = ((Expr.Literal) expression).value();
        if (value == null) {
            return execution.planning() ? absent : fail("NULL");
        }
        long rows = ((Number) value).longValue();
        if (rows < 0) {
            return fail(String.valueOf(rows));
        }
        return rows;
    }

    private static long fail(String value) {
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "OFFSET and FETCH need a number of rows of 0 or more, got " + value);
    }
}
