package dev.columba.planner.rules;

import dev.columba.planner.rel.JoinSelectivity;
import dev.columba.planner.rel.RowBytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The join-order phase of the logical rewrite: every maximal tree of inner joins (its
 * <em>factors</em> are the inputs that are not inner joins themselves: scans, filtered scans,
 * aggregates, semi joins...) is rebuilt in the order its estimated cardinalities favour, whatever
 * order the query wrote the tables in. Not a Hep rule: one pass over the tree, so a rebuilt tree
 * is never reordered again.
 *
 * <p>Estimates: a factor's rows from Calcite's metadata (Columba's statistics and selectivities
 * below it); an equality between columns of two factors by {@link JoinSelectivity} (distinct
 * counts), all equalities between the same two factors together (a composite key); any other
 * conjunct by Calcite's guess. A set of factors has the product of their rows times the
 * selectivities of the conjuncts among them. Equalities the stated ones imply ({@code a = b} and
 * {@code b = c} give {@code a = c}) join factors the query linked only through a third; an equality
 * between fields already equated is neither applied nor counted twice.
 *
 * <p>Search: up to {@value #EXHAUSTIVE_FACTORS} factors, dynamic programming over all subsets
 * (bushy trees); the cost of a join is its output rows plus its probe input plus twice its build
 * input (building a hash table costs more per row than probing it) weighted by the width of the
 * build's rows ({@link RowBytes}: the fields of its factors that the query uses above the region or
 * that a join not yet made needs), summed over the tree; each join builds the side that costs less
 * so. Without the width, 90 thousand customers with their names, addresses and comments cost less
 * to build than 76 thousand rows of a key and two numbers (TPC-H Q10). Above,
 * greedily: the two connected trees whose join is estimated smallest are joined first. Pairs not
 * connected by any conjunct are not joined while a connected pair exists, and in the exhaustive
 * search a set of factors that its conjuncts do not connect gets no plan (no cross products unless
 * the query has one). Each join gets the conjuncts that its two sides together first make
 * evaluable; the side chosen to build is the right input of the hash join. A project on
 * top restores the row the query's own order produced.
 *
 * <p>Inputs of inner joins that are projections of inner joins are flattened first by the caller
 * (Calcite's JoinProjectTransposeRule), and fields are trimmed again after.
 */
public final class JoinOrdering {
    /** Factors up to which every bushy tree is considered: 3^10 splits, about 59,000. */
    static final int EXHAUSTIVE_FACTORS = 10;
    /** A hash table's row costs this many probe rows. */
    private static final double BUILD_WEIGHT = 2;
    /** At most this many derived equalities per region, so that one wide class of equal keys cannot swamp the search. */
    private static final int MAX_DERIVED = 32;
    /** Calcite's guess for an equality, for keys whose distinct counts are unknown. */
    private static final double EQUALITY_GUESS = 0.15;

    private JoinOrdering() {
    }

    /** {@code rel} with each maximal inner-join tree of three factors or more reordered. */
    public static RelNode reorder(RelNode rel) {
        return rel.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(LogicalJoin join) {
                if (join.getJoinType() != JoinRelType.INNER) {
                    return super.visit(join);
                }
                List<RelNode> factors = new ArrayList<>();
                List<RexNode> conditions = new ArrayList<>();
                collect(join, factors, conditions, 0, this);
                if (factors.size() < 3) {
                    return super.visit(join);
                }
                return new Region(join, factors, conditions, required(join, stack.iterator())).build();
            }
        });
    }

    /**
     * The fields of {@code child} that its ancestors ({@code parents}, nearest first) read: a
     * projection's or aggregate's inputs; a filter's, sort's or join's own fields and what their
     * ancestors read of them. All fields at the root or under any other node.
     */
    static ImmutableBitSet required(RelNode child, Iterator<RelNode> parents) {
        int fieldCount = child.getRowType().getFieldCount();
        ImmutableBitSet all = ImmutableBitSet.range(fieldCount);
        if (!parents.hasNext()) {
            return all;
        }
        RelNode parent = parents.next();
        int input = parent.getInputs().indexOf(child);
        if (input < 0) {
            return all;
        }
        ImmutableBitSet used = switch (parent) {
            case Project project -> RelOptUtil.InputFinder.bits(project.getProjects(), null);
            case Aggregate aggregate -> {
                ImmutableBitSet.Builder fields = aggregate.getGroupSet().rebuild();
                for (AggregateCall call : aggregate.getAggCallList()) {
                    fields.addAll(call.getArgList());
                    if (call.filterArg >= 0) {
                        fields.set(call.filterArg);
                    }
                }
                yield fields.build();
            }
            case Filter filter -> RelOptUtil.InputFinder.bits(filter.getCondition()).union(required(filter, parents));
            case Sort sort -> ImmutableBitSet.of(sort.getCollation().getKeys()).union(required(sort, parents));
            case Join join -> {
                int leftCount = join.getLeft().getRowType().getFieldCount();
                ImmutableBitSet fields = RelOptUtil.InputFinder.bits(join.getCondition()).union(required(join, parents));
                yield input == 0 ? fields.intersect(ImmutableBitSet.range(leftCount))
                        : fields.intersect(ImmutableBitSet.range(leftCount, leftCount + fieldCount)).shift(-leftCount);
            }
            default -> all;
        };
        return used.intersect(all);
    }

    private static void collect(RelNode node, List<RelNode> factors, List<RexNode> conditions, int offset,
                                RelShuttleImpl shuttle) {
        if (node instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER && join.getHints().isEmpty()
                && join.getVariablesSet().isEmpty()) {
            collect(join.getLeft(), factors, conditions, offset, shuttle);
            collect(join.getRight(), factors, conditions, offset + join.getLeft().getRowType().getFieldCount(), shuttle);
            conditions.add(RexUtil.shift(join.getCondition(), offset));
            return;
        }
        factors.add(node.accept(shuttle));
    }

    /** One inner-join tree: its factors, their conjuncts over the concatenated row, and the search. */
    private static final class Region {
        private final LogicalJoin top;
        private final RexBuilder rexBuilder;
        private final RelMetadataQuery mq;
        private final List<RelNode> factors;
        private final int[] offsets;
        private final double[] rows;
        private final List<Conjunct> conjuncts = new ArrayList<>();
        private final Map<List<Integer>, Double> keySelectivity = new HashMap<>();
        private final Map<ImmutableBitSet, Double> cardinalities = new HashMap<>();
        /** The fields of the region's row that the query reads above it. */
        private final ImmutableBitSet usedAbove;
        /** Estimated bytes of each field of the region's row ({@link RowBytes}). */
        private final double[] fieldBytes;
        private final Map<ImmutableBitSet, Double> weights = new HashMap<>();
        private final Map<Integer, Double> otherSelectivities = new HashMap<>();

        /** A conjunct (stated, or {@linkplain #deriveEqualities derived}) and the factors it references. */
        private record Conjunct(RexNode condition, ImmutableBitSet factors) {
        }

        /** A (sub)tree of the result: the factors it covers, its estimated rows and cost, its inputs. */
        private record Plan(ImmutableBitSet factors, double rows, double cost, Plan left, Plan right) {
        }

        Region(LogicalJoin top, List<RelNode> factors, List<RexNode> conditions, ImmutableBitSet usedAbove) {
            this.top = top;
            this.usedAbove = usedAbove;
            this.rexBuilder = top.getCluster().getRexBuilder();
            this.mq = top.getCluster().getMetadataQuery();
            this.factors = new ArrayList<>(factors);
            this.offsets = new int[factors.size() + 1];
            for (int factor = 0; factor < factors.size(); factor++) {
                offsets[factor + 1] = offsets[factor] + factors.get(factor).getRowType().getFieldCount();
            }
            List<RexNode> singles = new ArrayList<>();
            for (RexNode condition : conditions) {
                for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
                    if (conjunct.isAlwaysTrue()) {
                        continue;
                    }
                    ImmutableBitSet referenced = factorsOf(conjunct);
                    if (referenced.cardinality() == 1) {
                        singles.add(conjunct);
                    } else {
                        conjuncts.add(new Conjunct(conjunct, referenced));
                    }
                }
            }
            // A conjunct on one factor filters it before any join.
            for (RexNode single : singles) {
                int factor = factorsOf(single).nth(0);
                RexNode local = RexUtil.shift(single, -offsets[factor]);
                this.factors.set(factor, LogicalFilter.create(this.factors.get(factor), local));
            }
            this.rows = new double[factors.size()];
            this.fieldBytes = new double[offsets[factors.size()]];
            for (int factor = 0; factor < factors.size(); factor++) {
                Double estimate = mq.getRowCount(this.factors.get(factor));
                rows[factor] = estimate == null ? 1 : Math.max(1, estimate);
                for (int field = offsets[factor]; field < offsets[factor + 1]; field++) {
                    fieldBytes[field] = RowBytes.field(this.factors.get(factor), field - offsets[factor], mq);
                }
            }
            deriveEqualities();
            // Where equalities overlap, the first ones are applied and counted: those of a
            // composite key first, so that lineitem joined to partsupp and part keeps partsupp's
            // (partkey, suppkey) together rather than one key from each (whose estimate, key by
            // key, would be independent and thousands of times too small).
            Map<ImmutableBitSet, Integer> keysPerPair = new HashMap<>();
            for (Conjunct conjunct : conjuncts) {
                if (equality(conjunct) != null) {
                    keysPerPair.merge(conjunct.factors(), 1, Integer::sum);
                }
            }
            conjuncts.sort(Comparator.comparingInt(
                    conjunct -> equality(conjunct) == null ? 0 : -keysPerPair.get(conjunct.factors())));
        }

        /**
         * Adds the equalities the stated ones imply between factors that no stated equality links on
         * that value. TPC-H Q5 states {@code c_nationkey = s_nationkey} and {@code s_nationkey =
         * n_nationkey}; with {@code c_nationkey = n_nationkey} derived, customer can be joined to the
         * few nations of one region before it is built, instead of being built whole and filtered by
         * the join with supplier at the end. Derived equalities come after the stated ones; a join
         * applies, and an estimate counts, only the equalities that link fields not linked already
         * ({@link Fields}), so an implied equality never filters or shrinks an estimate twice.
         */
        private void deriveEqualities() {
            int stated = conjuncts.size();
            Fields classes = new Fields(offsets[factors.size()]);
            for (int index = 0; index < stated; index++) {
                int[] equality = equality(conjuncts.get(index));
                if (equality != null) {
                    classes.union(equality[0], equality[1]);
                }
            }
            // Per class of equal fields, the first field of each factor in it.
            Map<Integer, Map<Integer, Integer>> members = new HashMap<>();
            for (int field = 0; field < offsets[factors.size()]; field++) {
                if (classes.size(field) > 1) {
                    members.computeIfAbsent(classes.find(field), ignored -> new TreeMap<>())
                            .putIfAbsent(factorOf(field), field);
                }
            }
            int derived = 0;
            for (Map<Integer, Integer> byFactor : members.values()) {
                if (byFactor.size() < 3) {
                    continue;
                }
                List<Integer> fields = new ArrayList<>(byFactor.values());
                for (int first = 0; first < fields.size(); first++) {
                    for (int second = first + 1; second < fields.size(); second++) {
                        int left = fields.get(first);
                        int right = fields.get(second);
                        if (derived == MAX_DERIVED || linked(stated, left, right, classes)) {
                            continue;
                        }
                        RexNode leftReference = reference(left);
                        RexNode rightReference = reference(right);
                        if (!SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), leftReference.getType(),
                                rightReference.getType())) {
                            continue;
                        }
                        RexNode condition = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, leftReference, rightReference);
                        conjuncts.add(new Conjunct(condition, ImmutableBitSet.of(factorOf(left), factorOf(right))));
                        derived++;
                    }
                }
            }
        }

        /** Whether one of the first {@code stated} conjuncts equates fields of the two fields' factors in their class. */
        private boolean linked(int stated, int left, int right, Fields classes) {
            ImmutableBitSet pair = ImmutableBitSet.of(factorOf(left), factorOf(right));
            for (int index = 0; index < stated; index++) {
                Conjunct conjunct = conjuncts.get(index);
                int[] equality = equality(conjunct);
                if (equality != null && conjunct.factors().equals(pair) && classes.find(equality[0]) == classes.find(left)) {
                    return true;
                }
            }
            return false;
        }

        private RexNode reference(int field) {
            int factor = factorOf(field);
            return rexBuilder.makeInputRef(factors.get(factor).getRowType().getFieldList()
                    .get(field - offsets[factor]).getType(), field);
        }

        RelNode build() {
            int count = factors.size();
            Plan best = count <= EXHAUSTIVE_FACTORS ? exhaustive() : greedy();
            List<Integer> order = new ArrayList<>();
            RelNode joined = relOf(best, order);
            // The query's row: factor by factor in their original order.
            int[] position = new int[offsets[count]];
            int at = 0;
            for (int factor : order) {
                for (int field = offsets[factor]; field < offsets[factor + 1]; field++) {
                    position[field] = at++;
                }
            }
            List<RexNode> projects = new ArrayList<>();
            for (int field = 0; field < position.length; field++) {
                projects.add(rexBuilder.makeInputRef(joined, position[field]));
            }
            return LogicalProject.create(joined, List.of(), projects, top.getRowType().getFieldNames(), java.util.Set.of());
        }

        /** Dynamic programming over every subset, smallest first. */
        private Plan exhaustive() {
            int count = factors.size();
            Plan[] best = new Plan[1 << count];
            for (int factor = 0; factor < count; factor++) {
                best[1 << factor] = new Plan(ImmutableBitSet.of(factor), rows[factor], 0, null, null);
            }
            boolean regionConnected = connected(best.length - 1);
            for (int set = 1; set < best.length; set++) {
                if (Integer.bitCount(set) < 2 || regionConnected && !connected(set)) {
                    // A connected region is joined without cross products: disconnected sets get no plan.
                    continue;
                }
                Plan chosen = null;
                boolean connectedOnly = hasConnectedSplit(set);
                // Each split once: the left part holds the set's lowest factor.
                int lowest = set & -set;
                for (int left = (set - 1) & set; left > 0; left = (left - 1) & set) {
                    if ((left & lowest) == 0) {
                        continue;
                    }
                    int right = set & ~left;
                    if (best[left] == null || best[right] == null || connectedOnly && !connected(left, right)) {
                        continue;
                    }
                    Plan candidate = join(best[left], best[right]);
                    if (chosen == null || candidate.cost() < chosen.cost()) {
                        chosen = candidate;
                    }
                }
                best[set] = chosen;
            }
            // Conjuncts over three factors or more can leave a connected set without a split into two
            // connected sets; the greedy search always finds a tree.
            return best[best.length - 1] != null ? best[best.length - 1] : greedy();
        }

        /** Greedy operator ordering: join the connected pair of trees with the smallest result until one is left. */
        private Plan greedy() {
            List<Plan> trees = new ArrayList<>();
            for (int factor = 0; factor < factors.size(); factor++) {
                trees.add(new Plan(ImmutableBitSet.of(factor), rows[factor], 0, null, null));
            }
            while (trees.size() > 1) {
                Plan chosen = null;
                int chosenLeft = -1;
                int chosenRight = -1;
                boolean anyConnected = false;
                for (int first = 0; first < trees.size(); first++) {
                    for (int second = first + 1; second < trees.size(); second++) {
                        anyConnected |= connected(trees.get(first).factors(), trees.get(second).factors());
                    }
                }
                for (int first = 0; first < trees.size(); first++) {
                    for (int second = first + 1; second < trees.size(); second++) {
                        if (anyConnected && !connected(trees.get(first).factors(), trees.get(second).factors())) {
                            continue;
                        }
                        Plan candidate = join(trees.get(first), trees.get(second));
                        if (chosen == null || candidate.rows() < chosen.rows()
                                || candidate.rows() == chosen.rows() && candidate.cost() < chosen.cost()) {
                            chosen = candidate;
                            chosenLeft = first;
                            chosenRight = second;
                        }
                    }
                }
                trees.remove(chosenRight);
                trees.remove(chosenLeft);
                trees.add(chosen);
            }
            return trees.getFirst();
        }

        /**
         * The hash join of two trees: the side whose rows, weighted by their width, cost less to
         * build builds (at equal cost the smaller estimated side), the other probes.
         */
        private Plan join(Plan first, Plan second) {
            double firstBuilds = BUILD_WEIGHT * first.rows() * weight(first.factors()) + second.rows();
            double secondBuilds = BUILD_WEIGHT * second.rows() * weight(second.factors()) + first.rows();
            boolean secondIsBuild = secondBuilds < firstBuilds || secondBuilds == firstBuilds && first.rows() >= second.rows();
            Plan probe = secondIsBuild ? first : second;
            Plan build = secondIsBuild ? second : first;
            ImmutableBitSet both = first.factors().union(second.factors());
            double rows = cardinality(both);
            double cost = first.cost() + second.cost() + rows + Math.min(firstBuilds, secondBuilds);
            return new Plan(both, rows, cost, probe, build);
        }

        /**
         * {@code 1 + bytes / RowBytes.ROW_BYTES} for the rows of the join of {@code set}'s factors:
         * the fields the query reads above the region and those a conjunct with a factor outside
         * the set still needs (the trimming after this phase drops the others).
         */
        private double weight(ImmutableBitSet set) {
            Double known = weights.get(set);
            if (known != null) {
                return known;
            }
            ImmutableBitSet.Builder carried = ImmutableBitSet.builder();
            for (int factor : set) {
                for (int field = offsets[factor]; field < offsets[factor + 1]; field++) {
                    if (usedAbove.get(field)) {
                        carried.set(field);
                    }
                }
            }
            for (Conjunct conjunct : conjuncts) {
                if (!set.contains(conjunct.factors())) {
                    for (int field : RelOptUtil.InputFinder.bits(conjunct.condition())) {
                        if (set.get(factorOf(field))) {
                            carried.set(field);
                        }
                    }
                }
            }
            double bytes = 0;
            for (int field : carried.build()) {
                bytes += fieldBytes[field];
            }
            double weight = 1 + bytes / RowBytes.ROW_BYTES;
            weights.put(set, weight);
            return weight;
        }

        /** Estimated rows of the join of {@code set}'s factors. */
        private double cardinality(ImmutableBitSet set) {
            Double known = cardinalities.get(set);
            if (known != null) {
                return known;
            }
            double product = 1;
            for (int factor : set) {
                product *= rows[factor];
            }
            // Equalities between the same two factors form one composite key; an equality between
            // fields the set's other equalities link already is implied and not counted again.
            Map<Long, List<Integer>> keysByPair = new HashMap<>();
            Fields linked = new Fields(offsets[factors.size()]);
            for (int index = 0; index < conjuncts.size(); index++) {
                Conjunct conjunct = conjuncts.get(index);
                if (!set.contains(conjunct.factors())) {
                    continue;
                }
                int[] equality = equality(conjunct);
                if (equality == null) {
                    product *= otherSelectivities.computeIfAbsent(index, ignored -> otherSelectivity(conjunct));
                    continue;
                }
                if (!linked.union(equality[0], equality[1])) {
                    continue;
                }
                int leftFactor = Math.min(factorOf(equality[0]), factorOf(equality[1]));
                int rightFactor = Math.max(factorOf(equality[0]), factorOf(equality[1]));
                keysByPair.computeIfAbsent(pair(leftFactor, rightFactor), ignored -> new ArrayList<>()).add(index);
            }
            for (List<Integer> key : keysByPair.values()) {
                product *= keySelectivity.computeIfAbsent(key, this::selectivity);
            }
            double estimate = Math.max(1, product);
            cardinalities.put(set, estimate);
            return estimate;
        }

        /**
         * A conjunct other than an equality of two factors' fields. An OR whose branches are each
         * an AND of conditions on one factor apiece is the sum of its branches, a branch the product
         * of its conditions' shares of their factor's rows (metadata of the factor filtered by the
         * condition: conditional on the filters the factor has). TPC-H Q7's {@code (n1.n_name =
         * 'FRANCE' AND n2.n_name = 'GERMANY') OR (n1.n_name = 'GERMANY' AND n2.n_name = 'FRANCE')}
         * over the two nations each side keeps is then a half, where Calcite's guess for any OR, a
         * quarter, halved every estimate above it. Anything else: Calcite's guess.
         */
        private double otherSelectivity(Conjunct conjunct) {
            RexNode condition = conjunct.condition();
            double guess = RelMdUtil.guessSelectivity(condition);
            if (condition.getKind() != SqlKind.OR) {
                return guess;
            }
            double sum = 0;
            for (RexNode branch : RelOptUtil.disjunctions(condition)) {
                double product = 1;
                for (RexNode leaf : RelOptUtil.conjunctions(branch)) {
                    ImmutableBitSet referenced = factorsOf(leaf);
                    if (referenced.cardinality() != 1) {
                        return guess;
                    }
                    int factor = referenced.nth(0);
                    Double kept = mq.getRowCount(LogicalFilter.create(factors.get(factor),
                            RexUtil.shift(leaf, -offsets[factor])));
                    if (kept == null) {
                        return guess;
                    }
                    product *= Math.min(1, kept / rows[factor]);
                }
                sum += product;
            }
            return Math.min(1, sum);
        }

        /**
         * The selectivity of the equalities (conjunct indices) between the same two factors, by
         * distinct counts, or Calcite's guess.
         */
        private double selectivity(List<Integer> indices) {
            List<int[]> equalities = new ArrayList<>();
            for (int index : indices) {
                int[] equality = equality(conjuncts.get(index));
                equalities.add(factorOf(equality[0]) < factorOf(equality[1]) ? equality
                        : new int[] {equality[1], equality[0]});
            }
            int leftFactor = factorOf(equalities.getFirst()[0]);
            int rightFactor = factorOf(equalities.getFirst()[1]);
            List<Integer> leftKeys = new ArrayList<>();
            List<Integer> rightKeys = new ArrayList<>();
            for (int[] equality : equalities) {
                int leftKey = equality[0] - offsets[leftFactor];
                int rightKey = equality[1] - offsets[rightFactor];
                if (!leftKeys.contains(leftKey) || !rightKeys.contains(rightKey)) {
                    leftKeys.add(leftKey);
                    rightKeys.add(rightKey);
                }
            }
            OptionalDouble estimate = JoinSelectivity.equiJoin(mq, factors.get(leftFactor), leftKeys,
                    factors.get(rightFactor), rightKeys);
            return estimate.orElse(Math.pow(EQUALITY_GUESS, leftKeys.size()));
        }

        /** The two fields of {@code $a = $b} between different factors, or null for any other conjunct. */
        private int[] equality(Conjunct conjunct) {
            if (conjunct.factors().cardinality() != 2 || !(conjunct.condition() instanceof RexCall call)
                    || call.getKind() != SqlKind.EQUALS) {
                return null;
            }
            if (call.getOperands().get(0) instanceof RexInputRef left && call.getOperands().get(1) instanceof RexInputRef right
                    && factorOf(left.getIndex()) != factorOf(right.getIndex())) {
                return new int[] {left.getIndex(), right.getIndex()};
            }
            return null;
        }

        /** Whether the conjuncts among {@code set}'s factors connect them all. */
        private boolean connected(int set) {
            int lowest = set & -set;
            int reached = lowest;
            boolean grew = true;
            while (grew) {
                grew = false;
                for (Conjunct conjunct : conjuncts) {
                    int bits = bits(conjunct.factors());
                    if ((bits & set) == bits && (bits & reached) != 0 && (bits & ~reached) != 0) {
                        reached |= bits;
                        grew = true;
                    }
                }
            }
            return reached == set;
        }

        private boolean hasConnectedSplit(int set) {
            for (Conjunct conjunct : conjuncts) {
                int bits = bits(conjunct.factors());
                if ((bits & set) == bits) {
                    return true;
                }
            }
            return false;
        }

        private boolean connected(int left, int right) {
            for (Conjunct conjunct : conjuncts) {
                int bits = bits(conjunct.factors());
                if ((bits & (left | right)) == bits && (bits & left) != 0 && (bits & right) != 0) {
                    return true;
                }
            }
            return false;
        }

        private boolean connected(ImmutableBitSet left, ImmutableBitSet right) {
            ImmutableBitSet both = left.union(right);
            for (Conjunct conjunct : conjuncts) {
                if (both.contains(conjunct.factors()) && conjunct.factors().intersects(left)
                        && conjunct.factors().intersects(right)) {
                    return true;
                }
            }
            return false;
        }

        /** The relational tree of {@code plan}; appends its factors, left to right, to {@code order}. */
        private RelNode relOf(Plan plan, List<Integer> order) {
            if (plan.left() == null) {
                int factor = plan.factors().nth(0);
                order.add(factor);
                return factors.get(factor);
            }
            int before = order.size();
            RelNode left = relOf(plan.left(), order);
            RelNode right = relOf(plan.right(), order);
            // Where each field of the region sits in this join's row.
            Map<Integer, Integer> position = new HashMap<>();
            int at = 0;
            for (int factor : order.subList(before, order.size())) {
                for (int field = offsets[factor]; field < offsets[factor + 1]; field++) {
                    position.put(field, at++);
                }
            }
            // The fields the joins below have equated already: an equality between them is implied.
            Fields linked = new Fields(offsets[factors.size()]);
            for (Conjunct conjunct : conjuncts) {
                int[] equality = equality(conjunct);
                if (equality != null && (plan.left().factors().contains(conjunct.factors())
                        || plan.right().factors().contains(conjunct.factors()))) {
                    linked.union(equality[0], equality[1]);
                }
            }
            List<RexNode> applicable = new ArrayList<>();
            for (Conjunct conjunct : conjuncts) {
                if (plan.factors().contains(conjunct.factors()) && !plan.left().factors().contains(conjunct.factors())
                        && !plan.right().factors().contains(conjunct.factors())) {
                    int[] equality = equality(conjunct);
                    if (equality != null && !linked.union(equality[0], equality[1])) {
                        continue;
                    }
                    applicable.add(conjunct.condition().accept(new RexShuttle() {
                        @Override
                        public RexNode visitInputRef(RexInputRef reference) {
                            return new RexInputRef(position.get(reference.getIndex()), reference.getType());
                        }
                    }));
                }
            }
            return LogicalJoin.create(left, right, List.of(), RexUtil.composeConjunction(rexBuilder, applicable),
                    java.util.Set.of(), JoinRelType.INNER);
        }

        private ImmutableBitSet factorsOf(RexNode condition) {
            ImmutableBitSet.Builder referenced = ImmutableBitSet.builder();
            for (int field : RelOptUtil.InputFinder.bits(condition)) {
                referenced.set(factorOf(field));
            }
            return referenced.build();
        }

        private int factorOf(int field) {
            int found = Arrays.binarySearch(offsets, field);
            if (found >= 0) {
                // The first field of a factor; skip factors without fields (none in practice).
                while (found + 1 < offsets.length && offsets[found + 1] == field) {
                    found++;
                }
                return found;
            }
            return -found - 2;
        }

        private static long pair(int left, int right) {
            return ((long) left << 32) | right;
        }

        private static int bits(ImmutableBitSet set) {
            int bits = 0;
            for (int factor : set) {
                bits |= 1 << factor;
            }
            return bits;
        }
    }

    /** Classes of fields known equal (union-find over the region's field indices). */
    private static final class Fields {
        private final int[] parent;
        private final int[] size;

        Fields(int fields) {
            parent = new int[fields];
            size = new int[fields];
            for (int field = 0; field < fields; field++) {
                parent[field] = field;
                size[field] = 1;
            }
        }

        int find(int field) {
            int root = field;
            while (parent[root] != root) {
                root = parent[root];
            }
            while (parent[field] != root) {
                int next = parent[field];
                parent[field] = root;
                field = next;
            }
            return root;
        }

        /** The number of fields in {@code field}'s class. */
        int size(int field) {
            return size[find(field)];
        }

        /** Joins the two fields' classes; false if they were one class already. */
        boolean union(int first, int second) {
            int firstRoot = find(first);
            int secondRoot = find(second);
            if (firstRoot == secondRoot) {
                return false;
            }
            if (size[firstRoot] < size[secondRoot]) {
                int swap = firstRoot;
                firstRoot = secondRoot;
                secondRoot = swap;
            }
            parent[secondRoot] = firstRoot;
            size[firstRoot] += size[secondRoot];
            return true;
        }
    }
}
