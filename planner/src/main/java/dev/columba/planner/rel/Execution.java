package dev.columba.planner.rel;

import dev.columba.core.exec.Operator;
import dev.columba.core.exec.RuntimeFilter;
import dev.columba.core.exec.Spool;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.planner.plan.StatementEnvironment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;

/**
 * One instantiation of a physical plan: the statement's environment and parameter values, or
 * neither when the planner instantiates the tree once to check it (every expression translated,
 * every operator constructed, nothing opened) and to learn each node's columns and execution mode
 * for {@code EXPLAIN}.
 */
public final class Execution {
    private final StatementEnvironment environment;
    private final List<Object> parameters;
    private final RexBuilder rexBuilder;
    /** Shared by an execution and its workers' (EXPLAIN reads the first operator of each node). */
    private final Map<RelNode, Operator> instantiated;
    /** The parallel fragment this execution instantiates one worker's copy of, or null. */
    private final Fragment fragment;
    /** The bitmap filters of this execution by name, shared with its workers' executions. */
    private final ConcurrentMap<String, RuntimeFilter> runtimeFilters;
    /** Per columnstore scan about to be instantiated, the output columns whose strings it may defer. */
    private final Map<RelNode, Set<Integer>> deferredStrings = new IdentityHashMap<>();
    private final Map<RelNode, Set<Integer>> deferredLongs = new IdentityHashMap<>();
    /** Per columnstore scan about to be instantiated, the aggregates it may compute itself; per aggregate, the request it made. */
    private final Map<RelNode, ScanAggregation> scanAggregations = new IdentityHashMap<>();
    private final Map<RelNode, ScanAggregation> aggregationsMade = new IdentityHashMap<>();
    /** The aggregates a columnstore scan took calls of (for EXPLAIN); shared with the workers' executions. */
    private final Set<RelNode> aggregatesInScans;
    /** The subplans this execution computes once for their several readers ({@link #instantiatePlan}), and their spools. */
    private Set<RelNode> spooled = Set.of();
    private final Map<RelNode, Spool> spools = new IdentityHashMap<>();

    /**
     * A fragment of a parallel plan (the input of a {@link ColumbaGather}) as its workers run it:
     * which scan they divide, and the state their copies share, such as that scan's morsels.
     */
    public static final class Fragment {
        private final List<RelNode> drivers;
        private final int workers;
        private final ConcurrentMap<RelNode, Object> shared = new ConcurrentHashMap<>();

        /**
         * @param drivers the scans the workers divide: the fragment's, and those of build inputs each worker reads a share of
         * @param workers how many workers run the fragment
         */
        public Fragment(List<RelNode> drivers, int workers) {
            this.drivers = List.copyOf(drivers);
            this.workers = workers;
        }
    }

    private Execution(StatementEnvironment environment, List<Object> parameters, RexBuilder rexBuilder,
                      Map<RelNode, Operator> instantiated, Fragment fragment, ConcurrentMap<String, RuntimeFilter> runtimeFilters,
                      Set<RelNode> aggregatesInScans) {
        this.environment = environment;
        this.aggregatesInScans = aggregatesInScans;
        this.parameters = parameters;
        this.rexBuilder = rexBuilder;
        this.instantiated = instantiated;
        this.fragment = fragment;
        this.runtimeFilters = runtimeFilters;
    }

    private Execution(StatementEnvironment environment, List<Object> parameters, RexBuilder rexBuilder) {
        this(environment, parameters, rexBuilder, new IdentityHashMap<>(), null, new ConcurrentHashMap<>(),
                ConcurrentHashMap.newKeySet());
    }

    /** The execution of one worker's copy of {@code fragment}. */
    public Execution worker(Fragment fragment) {
        return new Execution(environment, parameters, rexBuilder, instantiated, fragment, runtimeFilters, aggregatesInScans);
    }

    /** The bitmap filter called {@code name} in this execution: one object for the join and every scan copy. */
    public RuntimeFilter runtimeFilter(String name) {
        return runtimeFilters.computeIfAbsent(name, RuntimeFilter::new);
    }

    /** Whether this execution is a worker's copy of a fragment whose workers divide {@code scan}'s rowgroups. */
    public boolean divides(RelNode scan) {
        if (fragment == null) {
            return false;
        }
        for (RelNode driver : fragment.drivers) {
            if (driver == scan) {
                return true;
            }
        }
        return false;
    }

    /** How many workers run this execution's fragment (a worker's copy of a fragment only). */
    public int fragmentWorkers() {
        if (fragment == null) {
            throw new IllegalStateException("only a worker's copy of a fragment has fellow workers");
        }
        return fragment.workers;
    }

    /** Whether this execution is a worker's copy of a parallel fragment (whose workers share state). */
    public boolean inFragment() {
        return fragment != null;
    }

    /** The object the workers of this execution's fragment share for {@code rel}, made by the first to ask. */
    @SuppressWarnings("unchecked")
    public <T> T shared(RelNode rel, Supplier<T> make) {
        if (fragment == null) {
            throw new IllegalStateException("only a worker's copy of a fragment shares state");
        }
        return (T) fragment.shared.computeIfAbsent(rel, ignored -> make.get());
    }

    /** A check of the plan while planning: parameters are typed NULLs, nothing may be opened. */
    public static Execution planning(RexBuilder rexBuilder) {
        return new Execution(null, null, rexBuilder);
    }

    /** A real execution; {@code parameters} may hold nulls (SQL NULL). */
    public static Execution of(StatementEnvironment environment, List<Object> parameters, RexBuilder rexBuilder) {
        return new Execution(environment, java.util.Collections.unmodifiableList(new ArrayList<>(parameters)), rexBuilder);
    }

    /** The statement's environment; null while planning. */
    public StatementEnvironment environment() {
        return environment;
    }

    /** Whether this is the planner's check rather than a run. */
    public boolean planning() {
        return environment == null;
    }

    public RexBuilder rexBuilder() {
        return rexBuilder;
    }

    /** Parameter values, or null while planning. */
    public List<Object> parameters() {
        return parameters;
    }

    /**
     * Instantiates a plan from its root. A subplan the plan reads in several places
     * ({@link SharedSubplans}) is instantiated once, behind a {@link Spool} each reader reads; not
     * while planning, whose check instantiates every node as it appears.
     */
    public Operator instantiatePlan(RelNode root) {
        if (!planning()) {
            spooled = SharedSubplans.of(root).keySet();
        }
        return instantiate(root);
    }

    /** Instantiates a physical input. */
    public Operator instantiate(RelNode input) {
        RelNode physical = SharedSubplans.physical(input);
        if (fragment == null && spooled.contains(physical)) {
            Spool spool = spools.get(physical);
            if (spool == null) {
                spool = new Spool(instantiateNode(physical));
                spools.put(physical, spool);
            }
            return spool.reader();
        }
        return instantiateNode(physical);
    }

    private Operator instantiateNode(RelNode physical) {
        Operator operator = ((ColumbaRel) physical).instantiate(this);
        instantiated.putIfAbsent(physical, operator);
        return operator;
    }

    /**
     * Lets the next instantiation of {@code scan} (a columnstore scan) hand on the dictionary codes
     * of output columns {@code columns} and defer decoding their strings (see {@code
     * CodedStrings.defer}): the caller, about to instantiate the scan's consumers, knows that only
     * a grouping by those columns reads them. Called right before instantiating the input that
     * leads to {@code scan}; {@link #takeDeferredStrings} consumes it, {@link #dropDeferredStrings}
     * withdraws what was not consumed.
     */
    public void deferStrings(RelNode scan, Set<Integer> columns) {
        deferredStrings.put(scan, Set.copyOf(columns));
    }

    /** The columns whose strings {@code scan} may defer, once (empty when none). */
    public Set<Integer> takeDeferredStrings(RelNode scan) {
        Set<Integer> columns = deferredStrings.remove(scan);
        return columns == null ? Set.of() : columns;
    }

    public void dropDeferredStrings(RelNode scan) {
        deferredStrings.remove(scan);
    }

    /**
     * Lets the next instantiation of {@code scan} (a columnstore scan) hand on output columns
     * {@code columns} as stored longs and defer writing their vectors (see {@code
     * NativeLongs.defer}): the caller, about to instantiate the scan's consumers, knows that only
     * an aggregation summing those columns reads them (projections on the way ask for the vectors
     * they compute from). As {@link #deferStrings}: {@link #takeDeferredLongs} consumes it, {@link
     * #dropDeferredLongs} withdraws what was not consumed.
     */
    public void deferLongs(RelNode scan, Set<Integer> columns) {
        deferredLongs.put(scan, Set.copyOf(columns));
    }

    /** The columns {@code scan} may hand on as stored longs, once (empty when none). */
    public Set<Integer> takeDeferredLongs(RelNode scan) {
        Set<Integer> columns = deferredLongs.remove(scan);
        return columns == null ? Set.of() : columns;
    }

    public void dropDeferredLongs(RelNode scan) {
        deferredLongs.remove(scan);
    }

    /**
     * Lets the next instantiation of {@code scan} (a columnstore scan) compute {@code request}'s
     * aggregates itself (see {@code ColumnstoreScan.aggregate}) on behalf of {@code aggregate},
     * whose instantiation right after reads it back with {@link #takeAggregationMade}. Called right
     * before instantiating the input that leads to {@code scan}.
     */
    void aggregateInScan(RelNode scan, RelNode aggregate, ScanAggregation request) {
        scanAggregations.put(scan, request);
        aggregationsMade.put(aggregate, request);
    }

    /** The aggregates {@code scan} may compute itself, once (null when none). */
    ScanAggregation takeScanAggregation(RelNode scan) {
        return scanAggregations.remove(scan);
    }

    /** The request {@code aggregate} made of its scan, once, with the scan that took it if one did (null when none). */
    ScanAggregation takeAggregationMade(RelNode aggregate, RelNode scan) {
        scanAggregations.remove(scan);
        return aggregationsMade.remove(aggregate);
    }

    /** Records that {@code aggregate}'s calls are computed by the columnstore scan under it where it can (for EXPLAIN). */
    void computedInScan(ColumbaAggregate aggregate) {
        aggregatesInScans.add(aggregate);
    }

    /** Whether a columnstore scan took {@code aggregate}'s calls (SQL Server's aggregate pushdown). */
    public boolean computesInScan(ColumbaAggregate aggregate) {
        return aggregatesInScans.contains(aggregate);
    }

    /** The operator instantiated for {@code rel}, if any (for EXPLAIN). */
    public Operator operatorOf(RelNode rel) {
        return instantiated.get(rel);
    }

    public ExpressionTranslator translator(TableSchema input) {
        return new ExpressionTranslator(input, rexBuilder, parameters);
    }

    /** {@code names} made unique ignoring case (core's schemas require it), keeping the first of each as is. */
    public static List<String> uniqueNames(List<String> names) {
        Set<String> seen = new HashSet<>();
        List<String> unique = new ArrayList<>(names.size());
        for (String name : names) {
            String candidate = name;
            int suffix = 0;
            while (!seen.add(candidate.toLowerCase(Locale.ROOT))) {
                candidate = name + suffix++;
            }
            unique.add(candidate);
        }
        return unique;
    }

    /** The columns of {@code left} then {@code right}, names made unique: the pair rows a join condition reads. */
    public static TableSchema concat(TableSchema left, TableSchema right) {
        List<Column> columns = new ArrayList<>(left.columns());
        columns.addAll(right.columns());
        List<String> names = uniqueNames(columns.stream().map(Column::name).toList());
        List<Column> renamed = new ArrayList<>(columns.size());
        for (int index = 0; index < columns.size(); index++) {
            renamed.add(new Column(names.get(index), columns.get(index).type(), true));
        }
        return new TableSchema(renamed);
    }
}
