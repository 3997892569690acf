package dev.columba.planner.rel;

import dev.columba.core.exec.HashJoinOperator;
import dev.columba.core.exec.JoinType;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ProjectOperator;
import dev.columba.core.exec.SharedHashBuild;
import dev.columba.core.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * Equi-join by hashing: the right input is the build side, the left is probed batch by batch
 * (core's {@link HashJoinOperator}); conditions beyond the equal keys are checked on candidate
 * pairs. Keys whose vectors differ in type are cast to their common type first.
 *
 * <p>A SEMI or ANTI join can build on its left input instead ({@link #buildsLeft()}, EXPLAIN's
 * {@code build left}): core's RIGHT_SEMI and RIGHT_ANTI joins hash the preserved rows, probe with
 * the other input's rows, and return the preserved rows that were (not) matched once the probe is
 * done — the same rows, NULL keys included, as the left join, for a table of the smaller side when
 * the preserved side is the smaller one (TPC-H Q4: 57 thousand orders against 3 million lineitems).
 * A LEFT join can too: core's RIGHT join hashes the preserved rows, returns the pairs the other
 * input's rows find and then the preserved rows no row found, with NULL right columns (TPC-H Q13:
 * 150 thousand customers against 1.5 million orders); a projection puts the columns back in the
 * LEFT join's order. The node is still Calcite's join of left and right; only the roles differ.
 */
public final class ColumbaHashJoin extends Join implements ColumbaRel {
    /** Per equi-key (in {@link JoinInfo} order), the bitmap filter its build publishes, or null. */
    private final List<String> bitmapFilters;
    /** Whether the left input is built and the right one probed (SEMI, ANTI and LEFT only). */
    private final boolean buildLeft;
    /**
     * In a parallel fragment: whether every worker reads its share of the build input (whose scan
     * the fragment's workers divide) rather than the first worker reading it all.
     */
    private final boolean buildReadByEach;

    /** The names of the bitmap filters this join's build publishes. */
    public List<String> publishedFilters() {
        return bitmapFilters == null ? List.of() : bitmapFilters.stream().filter(java.util.Objects::nonNull).toList();
    }

    /**
     * @param buildLeft whether to build the left input and probe with the right one, which only a
     *                  SEMI, ANTI or LEFT join can
     */
    public ColumbaHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                           JoinRelType joinType, boolean buildLeft) {
        this(cluster, traits, left, right, condition, joinType, null, buildLeft, false);
    }

    private ColumbaHashJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                            JoinRelType joinType, List<String> bitmapFilters, boolean buildLeft, boolean buildReadByEach) {
        super(cluster, traits, List.of(), left, right, condition, java.util.Set.of(), joinType);
        if (buildLeft && !buildsLeftIn(joinType)) {
            throw new IllegalArgumentException("only a SEMI, ANTI or LEFT hash join builds its left input, not " + joinType);
        }
        this.bitmapFilters = bitmapFilters;
        this.buildLeft = buildLeft;
        this.buildReadByEach = buildReadByEach;
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new ColumbaHashJoin(getCluster(), traitSet, left, right, condition, joinType, bitmapFilters, buildLeft, buildReadByEach);
    }

    /** Whether the left input is the build side (a SEMI, ANTI or LEFT join whose preserved rows are hashed). */
    public boolean buildsLeft() {
        return buildLeft;
    }

    /** Whether a join of {@code type} can build its left (preserved) input. */
    public static boolean buildsLeftIn(JoinRelType type) {
        return type == JoinRelType.SEMI || type == JoinRelType.ANTI || type == JoinRelType.LEFT;
    }

    /** The input whose rows are hashed. */
    public RelNode build() {
        return buildLeft ? getLeft() : getRight();
    }

    /** The input whose rows probe the table: the one a parallel fragment's workers divide. */
    public RelNode probe() {
        return buildLeft ? getRight() : getLeft();
    }

    /** {@code build} and {@code probe} as this join's inputs, in their places (left, right). */
    public List<RelNode> inputs(RelNode build, RelNode probe) {
        return buildLeft ? List.of(build, probe) : List.of(probe, build);
    }

    /**
     * This join over {@code build} and {@code probe} (in their places), its build input read by
     * every worker of the parallel fragment it is in, each its share (the fragment's workers divide
     * the build input's scan too).
     */
    public ColumbaHashJoin withBuildReadByEach(RelNode build, RelNode probe) {
        List<RelNode> inputs = inputs(build, probe);
        return new ColumbaHashJoin(getCluster(), getTraitSet(), inputs.get(0), inputs.get(1), condition, joinType,
                bitmapFilters, buildLeft, true);
    }

    /** Whether every worker of a parallel fragment reads its share of the build input. */
    public boolean buildReadByEach() {
        return buildReadByEach;
    }

    @Override
    public RelWriter explainTerms(RelWriter writer) {
        // Part of the digest: the two build sides of one join are different plans to Volcano.
        return super.explainTerms(writer).itemIf("build", "left", buildLeft);
    }

    /**
     * This join over {@code left} and {@code right} publishing its keys' values to the bitmap
     * filters named in {@code filters} (one entry per equi-key, null for none).
     */
    public ColumbaHashJoin withBitmapFilters(RelNode left, RelNode right, List<String> filters) {
        return new ColumbaHashJoin(getCluster(), getTraitSet(), left, right, condition, joinType,
                java.util.Collections.unmodifiableList(new java.util.ArrayList<>(filters)), buildLeft, buildReadByEach);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double probe = mq.getRowCount(probe());
        double build = mq.getRowCount(build());
        double out = mq.getRowCount(this);
        // The build's rows are copied into the table and held: wide ones cost more (RowBytes).
        return Costs.cost(planner, out, build * Costs.HASH_BUILD_ROW * RowBytes.weight(build(), mq)
                + probe * Costs.HASH_PROBE_ROW + out * Costs.BATCH_ROW, 0);
    }

    @Override
    public String explainDetail() {
        String published = "";
        if (bitmapFilters != null) {
            List<String> names = publishedFilters();
            published = names.isEmpty() ? "" : ", bitmap filters " + String.join(", ", names);
        }
        return getJoinType() + ", " + condition + ", build " + (buildLeft ? "left" : "right")
                + (buildReadByEach ? " read by each worker" : "") + published;
    }

    @Override
    public Operator instantiate(Execution execution) {
        Joins.Inputs inputs = new Joins.Inputs(execution.instantiate(getLeft()), execution.instantiate(getRight()));
        JoinInfo info = analyzeCondition();
        for (int key = 0; key < info.leftKeys.size(); key++) {
            inputs = inputs.withCommonKeyType(info.leftKeys.get(key), info.rightKeys.get(key));
        }
        Operator left = inputs.left();
        Operator right = inputs.right();
        RexNode remaining = org.apache.calcite.rex.RexUtil.composeConjunction(getCluster().getRexBuilder(), info.nonEquiConditions);
        // The workers of a parallel fragment probe one table: built from every worker's share of the
        // build input when they divide its scan, else by the first of them to need it.
        SharedHashBuild shared = execution.inFragment()
                ? execution.shared(this, buildReadByEach ? SharedHashBuild::readByEach : SharedHashBuild::readByOne) : null;
        HashJoinOperator join;
        if (buildLeft) {
            // Core's RIGHT_SEMI/RIGHT_ANTI/RIGHT: probe with the right input, build the left; the residual's pairs are right then left.
            JoinType type = switch (getJoinType()) {
                case SEMI -> JoinType.RIGHT_SEMI;
                case ANTI -> JoinType.RIGHT_ANTI;
                default -> JoinType.RIGHT;
            };
            join = new HashJoinOperator(right, left, type, info.rightKeys, info.leftKeys,
                    Joins.condition(execution, rightFirst(remaining, left.schema().size(), right.schema().size()),
                            right.schema(), left.schema()), shared);
        } else {
            join = new HashJoinOperator(left, right, Joins.joinType(getJoinType()), info.leftKeys, info.rightKeys,
                    Joins.condition(execution, remaining, left.schema(), right.schema()), shared);
        }
        if (bitmapFilters != null) {
            for (int key = 0; key < bitmapFilters.size(); key++) {
                if (bitmapFilters.get(key) != null) {
                    join.publishKeys(key, execution.runtimeFilter(bitmapFilters.get(key)));
                }
            }
        }
        if (buildLeft && getJoinType() == JoinRelType.LEFT) {
            return leftColumnsFirst(join, right.schema().size(), left.schema().size());
        }
        return join;
    }

    /** The pairs of a RIGHT join of {@code rightCount} probe columns then {@code leftCount} build columns, the build columns first. */
    private Operator leftColumnsFirst(Operator pairs, int rightCount, int leftCount) {
        List<Expr> columns = new ArrayList<>();
        for (int index = 0; index < leftCount + rightCount; index++) {
            int source = index < leftCount ? rightCount + index : index - leftCount;
            columns.add(new Expr.ColumnReference(source, pairs.schema().column(source).type()));
        }
        return new ProjectOperator(pairs, columns, Execution.uniqueNames(getRowType().getFieldNames()));
    }

    /** {@code condition} over the left columns then the right ones, rewritten over the right columns then the left ones. */
    private static RexNode rightFirst(RexNode condition, int leftCount, int rightCount) {
        return condition.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef reference) {
                int index = reference.getIndex();
                return new RexInputRef(index < leftCount ? index + rightCount : index - leftCount, reference.getType());
            }
        });
    }
}
