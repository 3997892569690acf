package dev.columba.core.exec;

import dev.columba.core.batch.Batch;
import dev.columba.core.batch.CodedStrings;
import dev.columba.core.batch.NativeLongs;
import dev.columba.core.batch.VectorCopy;
import dev.columba.core.batch.VectorValues;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.CompiledExpression;
import dev.columba.core.expr.DecimalProducts;
import dev.columba.core.expr.ExecutionMode;
import dev.columba.core.expr.Expr;
import dev.columba.core.expr.ExpressionCompiler;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;

/**
 * GROUP BY with aggregates: hashes each input batch's key columns to group ids (NULL keys form
 * a group of their own), then adds every aggregate's values per group; when the input ends, returns
 * one row per group: the keys, then the aggregates. Without GROUP BY keys every row falls in one
 * group, and an empty input still yields one row (COUNT 0, other aggregates NULL). A DISTINCT
 * aggregate first passes its values through a set of (group, value) pairs so each counts once;
 * FILTER keeps only the rows whose filter column is TRUE. Groups come out in order of first appearance.
 *
 * <p>Parallel plans split an aggregation in two: each worker runs a {@linkplain #partial partial}
 * aggregation over its share of the rows, which returns per group the keys and each aggregate's
 * state (COUNT: the count; SUM and AVG: the exact total at the argument's scale, or the DOUBLE sum,
 * and the count of values; MIN and MAX: the value), and one {@linkplain #merging final}
 * aggregation merges those states by key into the results a single aggregation would give.
 * DISTINCT aggregates are not split.
 *
 * <p>An aggregation with many groups may instead run whole in every worker and {@linkplain
 * #mergeAcrossWorkers merge across workers} ({@link SharedAggregation}): each worker aggregates
 * its rows into one group table per partition of the keys' hash, and then finishes one partition
 * of every worker's groups, returning the results of its partition.
 *
 * <p>Memory: the distinct keys in Arrow vectors, the hash table and per-group state on the heap,
 * charged to the query's limit; the input is not kept. Each returned batch is the operator's own,
 * valid until the next {@code next()}.
 */
public final class HashAggregateOperator extends BaseOperator {
    /** Which part of an aggregation this operator computes. */
    public enum Phase {
        /** All of it: rows in, results out. */
        COMPLETE,
        /** A worker's share: rows in, keys and aggregate states out. */
        PARTIAL,
        /** The merge: keys and aggregate states in, results out. */
        FINAL
    }

    private final Phase phase;
    private final Operator input;
    private final int[] groupKeys;
    private final List<AggregateCall> aggregates;
    private final List<SqlType> argumentTypes = new ArrayList<>();
    /** Columns of each aggregate's partial state. */
    private final int[] stateWidths;
    private GroupHashTable groups;
    /** The planner's estimate of the groups to come ({@link #expectGroups}), 0 when none. */
    private long expectedGroups;
    /** The planner's span of a whole-number key's values ({@link #expectKeys}); high below low when none. */
    private long expectedKeyLow = Long.MAX_VALUE;
    private long expectedKeyHigh = Long.MIN_VALUE;
    /** The current batch's key vectors and their dictionary codes (null where none), refilled per batch. */
    private FieldVector[] keyVectors;
    private CodedStrings[] keyCodes;
    private final List<MemoryCharge> charges = new ArrayList<>();
    private final List<Accumulators.Accumulator> accumulators = new ArrayList<>();
    private final List<DistinctSet> distinctSets = new ArrayList<>();
    private int[] positions = new int[0];
    private int[] groupIds = new int[0];
    /** The current batch's rows per group when the groups are few, for the accumulators that add every row. */
    private final GroupRows groupRows = new GroupRows();
    private int[] filteredPositions = new int[0];
    private int[] filteredGroups = new int[0];
    private int[] distinctPositions = new int[0];
    private int[] distinctGroups = new int[0];
    /** The input's own aggregates over rows it did not return ({@link #foldFrom}), or null. */
    private Supplier<List<FoldedAggregate>> folded;
    /**
     * The input when it is a projection that handed this aggregation some of its products to sum
     * ({@link #takeProducts}), else null; then per aggregate the product it computes itself
     * ({@code null} for the others), the product's expression over the projection's input, and
     * (from {@link #opened}) the expression compiled, for batches {@link DecimalProducts} declines.
     */
    private final ProjectOperator productSource;
    private final DecimalProducts[] products;
    private final Expr[] productExpressions;
    private final CompiledExpression[] productKernels;
    /**
     * Per product aggregate: the aggregate whose product is this one without its last factor
     * ({@link DecimalProducts#extendsBy}; -1 for none), computed in the same pass; whether the
     * current batch's values fit ({@link #evaluateProducts}); and the values.
     */
    private final int[] productPrefix;
    private final boolean[] productFits;
    /** Per product aggregate, a bound on the magnitude of the current batch's values ({@link DecimalProducts#magnitude}). */
    private final long[] productMagnitudes;
    private final long[][] productValues;
    private Batch output;
    /** The workers' partitioned groups ({@link #mergeAcrossWorkers}), null when this operator aggregates alone. */
    private SharedAggregation acrossWorkers;
    /** Across workers: this worker's number, the partition it finishes. */
    private int worker;
    /** Across workers: this worker's table per partition until it hands them in (the shared aggregation owns them). */
    private SharedAggregation.PartitionTable[] partitionTables;
    private int[][] partitionPositions;
    private int[] partitionCounts;
    private long[] hashes = new long[0];
    /** Across workers: the partial states of a batch of another worker's groups, merged into the adopted table. */
    private Batch mergedStates;
    /** Per call, its state columns of {@link #mergedStates}. */
    private FieldVector[][] mergeStates;
    private int[] stateRows = new int[0];
    /** Across workers, for groups found in an earlier table: their group ids there. */
    private int[] foundGroups = new int[0];
    /**
     * Across workers, after the hand-ins: the tables of this worker's partition whose groups it
     * returns, the adopted (largest) one first, and which of them {@link #groups} and
     * {@link #accumulators} are now ({@link #returnGroupsOf}).
     */
    private List<SharedAggregation.PartitionTable> finishing;
    private int finishingIndex;
    /** Per table of {@link #finishing}, a bit per group that was merged into an earlier table (not returned), or null for none. */
    private long[][] absorbed;
    /** The rows of the output batch that are returned when some of its groups were absorbed. */
    private int[] keptRows = new int[0];
    private boolean handedIn;
    private boolean releasedAcrossWorkers;
    private boolean aggregated;
    /** {@link #groupsDense} of the table {@link #freeGroups} freed. */
    private boolean denseWhenFreed;
    private int groupCount;
    private int emitted;

    /**
     * @param groupKeys input columns to group by (none for a single group)
     * @param aggregates computed per group, after the keys in the output
     * @throws ColumbaException {@link ErrorCode#WRONG_TYPE} when an aggregate does not fit its argument
     */
    public HashAggregateOperator(Operator input, List<Integer> groupKeys, List<AggregateCall> aggregates) {
        this(Phase.COMPLETE, input, groupKeys, aggregates, argumentTypes(input.schema(), aggregates));
    }

    private HashAggregateOperator(Phase phase, Operator input, List<Integer> groupKeys, List<AggregateCall> aggregates,
                                  List<SqlType> argumentTypes) {
        super(schemaOf(phase, input.schema(), groupKeys, aggregates, argumentTypes), List.of(input));
        this.phase = phase;
        this.input = input;
        this.groupKeys = groupKeys.stream().mapToInt(Integer::intValue).toArray();
        this.aggregates = List.copyOf(aggregates);
        this.argumentTypes.addAll(argumentTypes);
        this.stateWidths = new int[aggregates.size()];
        for (int index = 0; index < aggregates.size(); index++) {
            stateWidths[index] = stateTypes(aggregates.get(index), argumentTypes.get(index)).size();
        }
        this.products = new DecimalProducts[aggregates.size()];
        this.productExpressions = new Expr[aggregates.size()];
        this.productKernels = new CompiledExpression[aggregates.size()];
        this.productPrefix = new int[aggregates.size()];
        this.productFits = new boolean[aggregates.size()];
        this.productMagnitudes = new long[aggregates.size()];
        this.productValues = new long[aggregates.size()][];
        Arrays.fill(productPrefix, -1);
        this.productSource = phase != Phase.FINAL && input instanceof ProjectOperator project && takeProducts(project) ? project : null;
    }

    /**
     * Takes over from {@code project} the products this aggregation sums and nothing else reads
     * (a SUM or AVG argument that is no group key, FILTER column or other call's argument, except
     * a SUM or AVG over the same column, which shares the sum): they are computed at native width
     * from the projection's input ({@link DecimalProducts}), straight into the sums, instead of
     * into 16-byte vectors the sums read back (TPC-H Q1's discounted price and charge). Returns
     * whether it took any.
     */
    private boolean takeProducts(ProjectOperator project) {
        boolean took = false;
        for (int index = 0; index < aggregates.size(); index++) {
            AggregateCall call = aggregates.get(index);
            if (!sharesSum(call, argumentTypes.get(index)) || !(argumentTypes.get(index) instanceof SqlType.DecimalType)
                    || !onlySummed(call.argument(), index)) {
                continue;
            }
            Expr expression = project.expression(call.argument());
            DecimalProducts product = DecimalProducts.of(expression);
            if (product != null) {
                project.handOver(call.argument());
                products[index] = product;
                productExpressions[index] = expression;
                took = true;
            }
        }
        for (int index = 0; index < aggregates.size(); index++) {
            for (int shorter = 0; products[index] != null && shorter < aggregates.size(); shorter++) {
                if (products[shorter] != null && productPrefix[index] < 0 && !isPrefix(shorter)
                        && products[index].extendsBy(products[shorter])) {
                    productPrefix[index] = shorter;
                }
            }
        }
        return took;
    }

    /** How many products this aggregation took over from its projection (for tests). */
    int productsSummed() {
        return (int) Arrays.stream(products).filter(java.util.Objects::nonNull).count();
    }

    /** Whether the product of aggregate {@code index} is computed as another's prefix already. */
    private boolean isPrefix(int index) {
        for (int prefix : productPrefix) {
            if (prefix == index) {
                return true;
            }
        }
        return false;
    }

    /** Whether input column {@code column} is read only by call {@code index} and later SUM/AVG calls that share its sum. */
    private boolean onlySummed(int column, int index) {
        for (int key : groupKeys) {
            if (key == column) {
                return false;
            }
        }
        for (int other = 0; other < aggregates.size(); other++) {
            AggregateCall call = aggregates.get(other);
            if (call.filter() == column) {
                return false;
            }
            if (other != index && call.argument() == column && (other < index || !sharesSum(call, argumentTypes.get(other)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The planner's estimate of the groups this aggregate makes, handed to its group table before
     * the first row ({@code GroupHashTable.expectGroups}): keys that arrive out of order (TPC-H
     * Q13's customers, grouped after a join probed by the orders) then keep the dense array
     * instead of leaving it at the first far key. At most 2^20 groups are taken from the estimate,
     * which bounds the array it allows to 64 MB, charged to the query like the hash table would be.
     */
    public void expectGroups(long groups) {
        expectedGroups = Math.max(0, Math.min(groups, 1L << 20));
    }

    /**
     * The span the planner's figures give for the values of a single whole-number group key
     * ({@code GroupHashTable.expectKeys}): its dense array is then made once over the span, not
     * grown by doubling. Ignored for other keys; before open.
     */
    public void expectKeys(long low, long high) {
        expectedKeyLow = low;
        expectedKeyHigh = high;
    }

    /**
     * Adds what the input computed itself, over rows it did not return, to each call's result:
     * {@code folded} gives one {@link FoldedAggregate} per call, in order, once the input has
     * returned its last batch (a columnstore scan that answered some rowgroups from their
     * segments). Only for an aggregation without GROUP BY, DISTINCT or FILTER that computes rows
     * (complete or a worker's partial), before {@link #open}.
     */
    public void foldFrom(Supplier<List<FoldedAggregate>> folded) {
        if (groupKeys.length > 0 || phase == Phase.FINAL
                || aggregates.stream().anyMatch(call -> call.distinct() || call.filter() != AggregateCall.NO_FILTER)) {
            throw new ColumbaException(ErrorCode.INTERNAL, "only an aggregation of rows without GROUP BY, DISTINCT or FILTER"
                    + " takes aggregates its input computed");
        }
        this.folded = folded;
    }

    /**
     * Makes this aggregation (complete, with GROUP BY keys, no DISTINCT) one worker's part of an
     * aggregation across the workers of a parallel fragment, which all share {@code shared}: the
     * worker aggregates its rows into one group table per partition (the high bits of the keys'
     * hash, the bits a repartition would use; a single whole-number key's value modulo the
     * partitions, see {@link SharedAggregation#wholeNumberPartitionOf}), hands them in, and then returns the results of the
     * groups of its own partition from every worker's tables: each table's groups are looked up in
     * the tables before it (the largest first) and merged into the first that holds their key, the
     * others returned from where they are, so no group is inserted twice and nothing is copied
     * between workers ({@link #absorbIntoEarlier}). Every worker's operator must be made (and call
     * this) before any of them runs. Before {@link #open}.
     */
    public void mergeAcrossWorkers(SharedAggregation shared) {
        if (phase != Phase.COMPLETE || groupKeys.length == 0 || folded != null
                || aggregates.stream().anyMatch(AggregateCall::distinct)) {
            throw new ColumbaException(ErrorCode.INTERNAL, "only a complete aggregation with keys and no DISTINCT merges across workers");
        }
        acrossWorkers = shared;
        worker = shared.register();
    }

    /** Whether the group table still looks its whole-number key up in the dense array, or did when it was freed (for tests). */
    boolean groupsDense() {
        return groups != null ? groups.dense() : denseWhenFreed;
    }

    /**
     * A worker's share of an aggregation: the same arguments as a complete one; returns the keys,
     * then each aggregate's {@linkplain #stateTypes state columns}. Without keys it returns one row
     * even over no input (a count of 0, empty states), so the merge sees every worker.
     */
    public static HashAggregateOperator partial(Operator input, List<Integer> groupKeys, List<AggregateCall> aggregates) {
        for (AggregateCall call : aggregates) {
            if (call.distinct()) {
                throw new ColumbaException(ErrorCode.INTERNAL, "a DISTINCT aggregate (" + call.name() + ") cannot be split");
            }
        }
        return new HashAggregateOperator(Phase.PARTIAL, input, groupKeys, aggregates, argumentTypes(input.schema(), aggregates));
    }

    /**
     * The merge of partial aggregations: {@code states} returns what {@link #partial} returns
     * ({@code keyCount} keys, then the states of {@code aggregates} in order), and the result is
     * what the complete aggregation over all rows returns. {@code argumentTypes} are the
     * aggregates' argument types in the partial's input (null for COUNT(*)).
     */
    public static HashAggregateOperator merging(Operator states, int keyCount, List<AggregateCall> aggregates,
                                                List<SqlType> argumentTypes) {
        List<Integer> keys = new ArrayList<>();
        for (int key = 0; key < keyCount; key++) {
            keys.add(key);
        }
        return new HashAggregateOperator(Phase.FINAL, states, keys, aggregates, argumentTypes);
    }

    /** The argument types of {@code aggregates} over {@code input}, null for COUNT(*). */
    public static List<SqlType> argumentTypes(TableSchema input, List<AggregateCall> aggregates) {
        List<SqlType> types = new ArrayList<>();
        for (AggregateCall call : aggregates) {
            types.add(call.argument() == AggregateCall.NO_ARGUMENT ? null : input.column(call.argument()).type());
        }
        return types;
    }

    /** The columns of {@code call}'s partial state over an argument of {@code argumentType}. */
    static List<SqlType> stateTypes(AggregateCall call, SqlType argumentType) {
        return switch (call.function()) {
            case COUNT -> List.of(SqlType.BIGINT);
            case SUM, AVG -> argumentType instanceof SqlType.DoubleType
                    ? List.of(SqlType.DOUBLE, SqlType.BIGINT)
                    : List.of(SqlType.decimal(38, argumentType instanceof SqlType.DecimalType decimal ? decimal.scale() : 0),
                            SqlType.BIGINT);
            case MIN, MAX -> List.of(argumentType);
            case STRING_AGG -> List.of(call.type());
        };
    }

    /** The columns of the rows this operator aggregates (for a final merge, the states it merges). */
    public TableSchema inputSchema() {
        return input.schema();
    }

    /** SELECT DISTINCT (and UNION without ALL): one row per distinct input row. */
    public static HashAggregateOperator distinct(Operator input) {
        List<Integer> keys = new ArrayList<>();
        for (int column = 0; column < input.schema().size(); column++) {
            keys.add(column);
        }
        return new HashAggregateOperator(input, keys, List.of());
    }

    private static TableSchema schemaOf(Phase phase, TableSchema input, List<Integer> groupKeys, List<AggregateCall> aggregates,
                                        List<SqlType> argumentTypes) {
        List<Column> columns = new ArrayList<>();
        for (int key : groupKeys) {
            columns.add(input.column(checkColumn(input, key, "group key")));
        }
        int stateColumn = groupKeys.size();
        for (int index = 0; index < aggregates.size(); index++) {
            AggregateCall call = aggregates.get(index);
            List<SqlType> states = stateTypes(call, argumentTypes.get(index));
            if (phase != Phase.FINAL) {
                check(input, call);
            } else {
                for (SqlType state : states) {
                    SqlType given = input.column(checkColumn(input, stateColumn++, "aggregate state")).type();
                    if (!given.arrowType().equals(state.arrowType())) {
                        throw wrong(call, "its state column is " + given.sqlName() + ", not " + state.sqlName());
                    }
                }
            }
            if (phase == Phase.PARTIAL) {
                for (int state = 0; state < states.size(); state++) {
                    columns.add(new Column(call.name() + "$" + state, states.get(state), true));
                }
                continue;
            }
            boolean nullable = call.function() != AggregateFunction.COUNT;
            columns.add(new Column(call.name(), call.type(), nullable));
        }
        if (columns.isEmpty()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "an aggregate needs a group key or an aggregate call");
        }
        return new TableSchema(columns);
    }

    private static int checkColumn(TableSchema input, int column, String what) {
        if (column < 0 || column >= input.size()) {
            throw new ColumbaException(ErrorCode.INTERNAL, what + " column " + column + " is not one of the "
                    + input.size() + " input columns");
        }
        return column;
    }

    private static void check(TableSchema input, AggregateCall call) {
        if (call.filter() != AggregateCall.NO_FILTER
                && !(input.column(checkColumn(input, call.filter(), "filter")).type() instanceof SqlType.BooleanType)) {
            throw wrong(call, "its FILTER column must be BOOLEAN");
        }
        SqlType type = call.type();
        if (call.argument() == AggregateCall.NO_ARGUMENT) {
            if (!(type instanceof SqlType.BigintType)) {
                throw wrong(call, "COUNT(*) is BIGINT");
            }
            return;
        }
        SqlType argument = input.column(checkColumn(input, call.argument(), "aggregate argument")).type();
        boolean fits = switch (call.function()) {
            case COUNT -> type instanceof SqlType.BigintType;
            case MIN, MAX -> type.arrowType().equals(argument.arrowType());
            case STRING_AGG -> type instanceof SqlType.VarcharType
                    && (argument instanceof SqlType.VarcharType || argument instanceof SqlType.CharType);
            case SUM, AVG -> switch (argument) {
                case SqlType.DoubleType ignored -> type instanceof SqlType.DoubleType;
                case SqlType.IntegerType ignored -> isNumeric(type);
                case SqlType.BigintType ignored -> isNumeric(type);
                case SqlType.DecimalType ignored -> isNumeric(type);
                default -> false;
            };
        };
        if (!fits) {
            throw wrong(call, "it cannot produce " + type.sqlName() + " from " + argument.sqlName());
        }
    }

    private static boolean isNumeric(SqlType type) {
        return type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType
                || type instanceof SqlType.DecimalType || type instanceof SqlType.DoubleType;
    }

    private static ColumbaException wrong(AggregateCall call, String why) {
        return new ColumbaException(ErrorCode.WRONG_TYPE, "aggregate " + call.name() + " (" + call.function() + "): " + why);
    }

    @Override
    public ExecutionMode mode() {
        return ExecutionMode.BATCH;
    }

    @Override
    void opened() {
        List<SqlType> keyTypes = new ArrayList<>();
        for (int key : groupKeys) {
            keyTypes.add(input.schema().column(key).type());
        }
        if (groupKeys.length > 0) {
            keyVectors = new FieldVector[groupKeys.length];
            keyCodes = new CodedStrings[groupKeys.length];
        }
        for (int index = 0; index < aggregates.size(); index++) {
            AggregateCall call = aggregates.get(index);
            distinctSets.add(call.distinct() ? new DistinctSet(argumentTypes.get(index), charge(call.name() + " DISTINCT")) : null);
            if (products[index] != null) {
                productKernels[index] = ExpressionCompiler.compile(productExpressions[index], productSource.inputSchema(),
                        context.evaluation(), allocator);
            }
        }
        if (acrossWorkers != null) {
            openPartitions(keyTypes);
            return;
        }
        if (groupKeys.length > 0) {
            groups = GroupHashTable.forGrouping(keyTypes, allocator, charge("group hash table"));
            groups.expectGroups(expectedGroups);
            if (wholeNumberKey()) {
                groups.expectKeys(expectedKeyLow, expectedKeyHigh);
            }
        }
        createAccumulators(accumulators, this::charge);
    }

    /** Adds one accumulator per call to {@code made}, each charging {@code charges.apply(what)}. */
    private void createAccumulators(List<Accumulators.Accumulator> made, Function<String, MemoryCharge> charges) {
        for (int index = 0; index < aggregates.size(); index++) {
            AggregateCall call = aggregates.get(index);
            Accumulators.ExactSumAccumulator owner = phase == Phase.FINAL ? null : sumOverSameArgument(made, index);
            made.add(owner != null
                    ? owner.alias(call.function() == AggregateFunction.AVG, charges.apply(call.name()))
                    : Accumulators.create(call, argumentTypes.get(index), charges.apply(call.name())));
        }
    }

    /**
     * Across workers: one table per partition, in the shared aggregation's allocator (another
     * worker may finish the partition and free it), each recorded there as soon as it is made.
     */
    private void openPartitions(List<SqlType> keyTypes) {
        BufferAllocator memory = acrossWorkers.memory(context);
        int partitions = acrossWorkers.partitions();
        partitionTables = new SharedAggregation.PartitionTable[partitions];
        partitionPositions = new int[partitions][0];
        partitionCounts = new int[partitions];
        // Each table starts with room for its share of the planner's groups when the workers' groups do
        // not overlap (one worker's part of one partition: TPC-H Q18's clustered order keys), so its keys
        // and states are not grown by doubling from 16 (each step fresh memory and a copy: 17% of Q18's
        // worker samples at MAXDOP 2); tables of overlapping groups grow from there.
        int share = (int) (expectedGroups / ((long) partitions * partitions));
        for (int partition = 0; partition < partitions; partition++) {
            List<MemoryCharge> tableCharges = new ArrayList<>();
            List<Accumulators.Accumulator> made = new ArrayList<>();
            GroupHashTable table = null;
            String prefix = name() + " partition " + partition + " ";
            Function<String, MemoryCharge> charges = what -> {
                MemoryCharge charge = new MemoryCharge(memory, prefix + what);
                tableCharges.add(charge);
                return charge;
            };
            try {
                table = GroupHashTable.forGrouping(keyTypes, memory, charges.apply("group hash table"));
                table.expectGroups(expectedGroups);
                if (wholeNumberKey()) {
                    table.holdResidue(partition, partitions);
                    table.expectKeys(expectedKeyLow, expectedKeyHigh);
                }
                createAccumulators(made, charges);
                if (share > 0) {
                    table.reserveKeys(share);
                    for (Accumulators.Accumulator accumulator : made) {
                        accumulator.ensureGroups(share);
                    }
                }
            } catch (RuntimeException e) {
                new SharedAggregation.PartitionTable(table, made, tableCharges).close();
                throw e;
            }
            partitionTables[partition] = new SharedAggregation.PartitionTable(table, made, tableCharges);
            acrossWorkers.record(worker, partition, partitionTables[partition]);
        }
    }

    /**
     * The exact SUM/AVG accumulator among {@code made} of an earlier call that keeps what call
     * {@code index} needs (both SUM or AVG of the same argument column, neither DISTINCT nor
     * FILTERed, an exact argument type), or null: call {@code index} then reads that
     * accumulator's state instead of passing over the argument again.
     */
    private Accumulators.ExactSumAccumulator sumOverSameArgument(List<Accumulators.Accumulator> made, int index) {
        AggregateCall call = aggregates.get(index);
        if (!sharesSum(call, argumentTypes.get(index))) {
            return null;
        }
        for (int earlier = 0; earlier < index; earlier++) {
            AggregateCall other = aggregates.get(earlier);
            if (other.argument() == call.argument() && sharesSum(other, argumentTypes.get(earlier))
                    && made.get(earlier) instanceof Accumulators.ExactSumAccumulator owner) {
                return owner;
            }
        }
        return null;
    }

    private static boolean sharesSum(AggregateCall call, SqlType argumentType) {
        return (call.function() == AggregateFunction.SUM || call.function() == AggregateFunction.AVG)
                && !call.distinct() && call.filter() == AggregateCall.NO_FILTER
                && argumentType != null && !(argumentType instanceof SqlType.DoubleType);
    }

    private MemoryCharge charge(String what) {
        MemoryCharge charge = new MemoryCharge(allocator, name() + " " + what);
        charges.add(charge);
        return charge;
    }

    @Override
    Batch produce() {
        if (!aggregated) {
            if (acrossWorkers != null) {
                aggregateAcrossWorkers();
            } else {
                for (Batch batch = input.next(); batch != null; batch = input.next()) {
                    add(batch);
                }
            }
            aggregated = true;
            groupCount = groups == null ? 1 : groups.groupCount();
            for (Accumulators.Accumulator accumulator : accumulators) {
                accumulator.ensureGroups(groupCount);
            }
            if (folded != null) {
                mergeFolded(folded.get());
            }
            closeDistinctSets();
        }
        while (true) {
            if (emitted >= groupCount) {
                if (finishing == null || finishingIndex + 1 >= finishing.size()) {
                    freeGroups();
                    return null;
                }
                returnGroupsOf(finishingIndex + 1);
                continue;
            }
            if (writeOutput() > 0) {
                return output;
            }
        }
    }

    /**
     * Writes the next batch of groups into {@link #output} and returns how many of its rows are
     * live: fewer than it holds when some of the groups were merged into an earlier table
     * (across workers), which returns them.
     */
    private int writeOutput() {
        if (output == null) {
            output = Batch.create(schema(), allocator);
        }
        Vectors.rewind(output);
        int count = Math.min(context.batchSize(), groupCount - emitted);
        for (int key = 0; key < groupKeys.length; key++) {
            VectorCopy.copyRange(groups.key(key), emitted, count, output.column(key), 0);
        }
        int column = groupKeys.length;
        for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
            Accumulators.Accumulator accumulator = accumulators.get(aggregate);
            if (phase == Phase.PARTIAL) {
                FieldVector[] states = new FieldVector[stateWidths[aggregate]];
                for (int state = 0; state < states.length; state++) {
                    states[state] = output.column(column++);
                }
                accumulator.writeState(states, emitted, count);
            } else {
                accumulator.write(output.column(column++), aggregates.get(aggregate).type(), emitted, count);
            }
        }
        output.setRowCount(count);
        int from = emitted;
        emitted += count;
        long[] gone = absorbed == null ? null : absorbed[finishingIndex];
        if (gone == null) {
            return count;
        }
        keptRows = grow(keptRows, count);
        int kept = 0;
        for (int row = 0; row < count; row++) {
            int group = from + row;
            if ((gone[group >>> 6] & (1L << group)) == 0) {
                keptRows[kept++] = row;
            }
        }
        if (kept < count) {
            output.select(keptRows, kept);
        }
        return kept;
    }

    /**
     * Frees the groups, their states and the output batch once the last group was returned: the
     * consumer is done with the last batch when it asks again, and the memory goes back before the
     * operators above need theirs (a final merge above a worker's partial aggregation, a hash
     * join's table above an aggregated build input), not when the plan closes. {@link #release}
     * then finds nothing left to free.
     */
    private void freeGroups() {
        denseWhenFreed = groupsDense();
        if (acrossWorkers != null) {
            // The groups are the adopted table's: the shared aggregation frees the partition's tables.
            groups = null;
            accumulators.clear();
            acrossWorkers.closePartition(worker);
            closeOutput();
            return;
        }
        release();
        output = null;
        groups = null;
        accumulators.clear();
        charges.clear();
    }

    private void add(Batch batch) {
        int count = batch.selectedCount();
        positions = Vectors.livePositions(batch, positions);
        for (int key = 0; key < groupKeys.length; key++) {
            keyVectors[key] = batch.column(groupKeys[key]);
            keyCodes[key] = batch.codes(groupKeys[key]);
            NativeLongs keyLongs = batch.longs(groupKeys[key]);
            if (keyLongs != null) {
                keyLongs.materialize(); // grouped by the vector's values
            }
        }
        add(batch, positions, count, groups, accumulators);
    }

    /**
     * Across workers: reads all input into this worker's partition tables, hands them in, and
     * once every worker has, orders the tables of its own partition for returning (the largest
     * first) and merges into each earlier table the groups of the later ones that it holds.
     */
    private void aggregateAcrossWorkers() {
        try {
            for (Batch batch = input.next(); batch != null; batch = input.next()) {
                addPartitioned(batch);
            }
            for (SharedAggregation.PartitionTable table : partitionTables) {
                for (Accumulators.Accumulator accumulator : table.accumulators) {
                    accumulator.ensureGroups(table.groups.groupCount());
                }
            }
        } catch (RuntimeException e) {
            acrossWorkers.fail(e);
            throw e;
        }
        handedIn = true;
        partitionTables = null;
        List<SharedAggregation.PartitionTable> partition = acrossWorkers.handIn(context, worker);
        int largest = 0;
        for (int index = 1; index < partition.size(); index++) {
            if (partition.get(index).groups.groupCount() > partition.get(largest).groups.groupCount()) {
                largest = index;
            }
        }
        finishing = new ArrayList<>(partition.size());
        finishing.add(partition.get(largest));
        for (int index = 0; index < partition.size(); index++) {
            if (index != largest) {
                finishing.add(partition.get(index));
            }
        }
        absorbed = new long[finishing.size()][];
        for (int index = 1; index < finishing.size(); index++) {
            absorbIntoEarlier(index);
        }
        returnGroupsOf(0);
    }

    /** Makes table {@code index} of {@link #finishing} the one whose groups {@link #produce} returns next. */
    private void returnGroupsOf(int index) {
        SharedAggregation.PartitionTable table = finishing.get(index);
        finishingIndex = index;
        groups = table.groups;
        accumulators.clear();
        accumulators.addAll(table.accumulators);
        groupCount = groups.groupCount();
        emitted = 0;
    }

    /** Sorts the batch's live rows by the partition of their keys' hash and adds each partition's rows to its table. */
    private void addPartitioned(Batch batch) {
        int count = batch.selectedCount();
        positions = Vectors.livePositions(batch, positions);
        for (int key = 0; key < groupKeys.length; key++) {
            keyVectors[key] = batch.column(groupKeys[key]);
            keyCodes[key] = batch.codes(groupKeys[key]);
            NativeLongs keyLongs = batch.longs(groupKeys[key]);
            if (keyLongs != null) {
                keyLongs.materialize(); // grouped by the vector's values
            }
        }
        int partitions = partitionTables.length;
        for (int partition = 0; partition < partitions; partition++) {
            partitionPositions[partition] = grow(partitionPositions[partition], count);
            partitionCounts[partition] = 0;
        }
        if (wholeNumberKey()) {
            sortWholeNumbers(keyVectors[0], count, partitions);
        } else {
            // The partition is decided by the keys' values, so strings a scan deferred are decoded here.
            GroupHashTable.materialize(keyCodes);
            hashes = GroupHashTable.hashRows(keyVectors, keyLayouts(), positions, count, hashes);
            for (int index = 0; index < count; index++) {
                int partition = SharedAggregation.partitionOf(hashes[index], partitions);
                partitionPositions[partition][partitionCounts[partition]++] = positions[index];
            }
        }
        for (int partition = 0; partition < partitions; partition++) {
            if (partitionCounts[partition] > 0) {
                SharedAggregation.PartitionTable table = partitionTables[partition];
                add(batch, partitionPositions[partition], partitionCounts[partition], table.groups, table.accumulators);
            }
        }
    }

    private Layout[] keyLayouts;

    /** Whether the only key is a whole number (INT, BIGINT, DATE, TIMESTAMP): partitioned by its value modulo the partitions. */
    private boolean wholeNumberKey() {
        return groupKeys.length == 1 && (keyLayouts()[0] == Layout.INT32 || keyLayouts()[0] == Layout.INT64);
    }

    /** Sorts the live rows ({@link #positions}) by the partition of their whole-number key; NULL keys to partition 0. */
    private void sortWholeNumbers(FieldVector key, int count, int partitions) {
        ArrowBuf data = key.getDataBuffer();
        ArrowBuf validity = key.getValidityBuffer();
        boolean nulls = key.getNullCount() > 0;
        boolean wide = keyLayouts()[0] == Layout.INT64;
        if (partitions == 2 && !nulls) {
            sortByParity(data, wide, count);
            return;
        }
        // A power of two of partitions (the usual worker counts) takes the low bits instead of a division.
        long mask = Integer.bitCount(partitions) == 1 ? partitions - 1 : -1;
        for (int index = 0; index < count; index++) {
            int row = positions[index];
            long value = wide ? data.getLong((long) row * 8) : data.getInt((long) row * 4);
            int partition = nulls && BitVectorHelper.get(validity, row) == 0 ? 0
                    : mask >= 0 ? (int) (value & mask) : SharedAggregation.wholeNumberPartitionOf(value, partitions);
            partitionPositions[partition][partitionCounts[partition]++] = row;
        }
    }

    /**
     * {@link #sortWholeNumbers} for two partitions and no NULL keys (MAXDOP 2), without a branch or
     * a count in memory per row: each row is written to both partitions' next place and only its
     * own count moves, the counts held in locals. The general loop keeps its counts in an array
     * that the position arrays might alias, so each row's count is stored and loaded again
     * (TPC-H Q18's 6 million order keys: 12% of its workers' samples at MAXDOP 2 were this loop).
     * Every count stays at most the rows seen before, so both writes stay within arrays of
     * {@code count} places.
     */
    private void sortByParity(ArrowBuf data, boolean wide, int count) {
        int[] even = partitionPositions[0];
        int[] odd = partitionPositions[1];
        int[] rows = positions;
        int evens = 0;
        int odds = 0;
        for (int index = 0; index < count; index++) {
            int row = rows[index];
            int parity = (int) ((wide ? data.getLong((long) row * 8) : data.getInt((long) row * 4)) & 1);
            even[evens] = row;
            odd[odds] = row;
            odds += parity;
            evens += 1 - parity;
        }
        partitionCounts[0] = evens;
        partitionCounts[1] = odds;
    }

    private Layout[] keyLayouts() {
        if (keyLayouts == null) {
            keyLayouts = new Layout[groupKeys.length];
            for (int key = 0; key < groupKeys.length; key++) {
                keyLayouts[key] = Layout.of(input.schema().column(groupKeys[key]).type());
            }
        }
        return keyLayouts;
    }

    /**
     * Finds the groups of table {@code index} of {@link #finishing} in the tables before it, a
     * batch of groups at a time, and merges each group found into the first table that holds its
     * key (their states written out with {@code writeState} and merged with {@code merge}, as a
     * final merge merges a worker's), marking it {@linkplain #absorbed absorbed}; the groups found
     * nowhere stay where they are and are returned from this table. Where the workers' groups do
     * not overlap (TPC-H Q18's order keys, clustered in lineitem) every group is looked up once
     * and none is inserted, copied or merged again, and no table grows to hold the others'.
     * A key absorbed in a table is found first in an earlier one, which holds it live, since the
     * tables are searched in order.
     */
    private void absorbIntoEarlier(int index) {
        SharedAggregation.PartitionTable source = finishing.get(index);
        int sourceGroups = source.groups.groupCount();
        FieldVector[] sourceKeys = new FieldVector[groupKeys.length];
        for (int key = 0; key < groupKeys.length; key++) {
            sourceKeys[key] = source.groups.key(key);
        }
        int batchSize = context.batchSize();
        positions = grow(positions, batchSize);
        groupIds = grow(groupIds, batchSize);
        stateRows = grow(stateRows, batchSize);
        foundGroups = grow(foundGroups, batchSize);
        for (int from = 0; from < sourceGroups; from += batchSize) {
            int count = Math.min(batchSize, sourceGroups - from);
            int unresolved = count;
            for (int row = 0; row < count; row++) {
                positions[row] = from + row;
            }
            for (int earlier = 0; earlier < index && unresolved > 0; earlier++) {
                SharedAggregation.PartitionTable target = finishing.get(earlier);
                hashes = target.groups.find(sourceKeys, positions, unresolved, groupIds, hashes);
                int found = 0;
                int left = 0;
                for (int row = 0; row < unresolved; row++) {
                    int group = positions[row];
                    if (groupIds[row] >= 0) {
                        stateRows[found] = group - from;
                        foundGroups[found++] = groupIds[row];
                        markAbsorbed(index, group, sourceGroups);
                    } else {
                        positions[left++] = group;
                    }
                }
                unresolved = left;
                if (found > 0) {
                    mergeStates(source, from, count, target, found);
                }
            }
        }
    }

    private void markAbsorbed(int table, int group, int groups) {
        if (absorbed[table] == null) {
            absorbed[table] = new long[(groups + 63) >>> 6];
        }
        absorbed[table][group >>> 6] |= 1L << group;
    }

    /**
     * Merges the states of {@code source}'s groups {@code from + stateRows[i]} into {@code
     * target}'s groups {@code foundGroups[i]}, for i below {@code found}; the states of groups
     * {@code [from, from + count)} are written out at once.
     */
    private void mergeStates(SharedAggregation.PartitionTable source, int from, int count,
                             SharedAggregation.PartitionTable target, int found) {
        if (mergedStates == null) {
            mergedStates = Batch.create(schemaOf(Phase.PARTIAL, input.schema(), Arrays.stream(groupKeys).boxed().toList(),
                    aggregates, argumentTypes), allocator);
            mergeStates = new FieldVector[aggregates.size()][];
            int column = groupKeys.length;
            for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
                mergeStates[aggregate] = new FieldVector[stateWidths[aggregate]];
                for (int state = 0; state < stateWidths[aggregate]; state++) {
                    mergeStates[aggregate][state] = mergedStates.column(column++);
                }
            }
        }
        Vectors.rewind(mergedStates);
        for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
            if (!(target.accumulators.get(aggregate) instanceof Accumulators.SumAlias)) {
                source.accumulators.get(aggregate).writeState(mergeStates[aggregate], from, count);
            }
        }
        // The value counts tell the merges' kernels which states are NULL.
        mergedStates.setRowCount(count);
        for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
            Accumulators.Accumulator merged = target.accumulators.get(aggregate);
            if (!(merged instanceof Accumulators.SumAlias)) { // an alias's owner, an earlier call, merges the sums it reads
                merged.merge(mergeStates[aggregate], stateRows, foundGroups, found);
            }
        }
    }

    /** Adds the rows {@code live[0, count)} of {@code batch} (keys in {@link #keyVectors}) to {@code table}'s groups and {@code perCall}'s accumulators. */
    private void add(Batch batch, int[] live, int count, GroupHashTable table, List<Accumulators.Accumulator> perCall) {
        groupIds = grow(groupIds, count);
        if (table != null) {
            table.groupIds(keyVectors, keyCodes, live, count, groupIds);
        } else {
            Arrays.fill(groupIds, 0, count, 0);
        }
        int groupTotal = table == null ? 1 : table.groupCount();
        if (phase == Phase.FINAL) {
            int column = groupKeys.length;
            for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
                Accumulators.Accumulator accumulator = perCall.get(aggregate);
                accumulator.ensureGroups(groupTotal);
                FieldVector[] states = new FieldVector[stateWidths[aggregate]];
                for (int state = 0; state < states.length; state++) {
                    states[state] = batch.column(column++);
                }
                accumulator.merge(states, live, groupIds, count);
            }
            return;
        }
        if (productSource != null) {
            evaluateProducts(live, count);
        }
        GroupRows rowsPerGroup = null;
        if (groupTotal <= GroupRows.MAX_GROUPS) {
            groupRows.count(groupIds, count, groupTotal);
            rowsPerGroup = groupRows;
        }
        for (int aggregate = 0; aggregate < aggregates.size(); aggregate++) {
            AggregateCall call = aggregates.get(aggregate);
            Accumulators.Accumulator accumulator = perCall.get(aggregate);
            accumulator.ensureGroups(groupTotal);
            boolean everyRow = call.filter() == AggregateCall.NO_FILTER && !call.distinct();
            if (everyRow && call.argument() == AggregateCall.NO_ARGUMENT && rowsPerGroup != null
                    && accumulator.addRowCounts(rowsPerGroup)) {
                continue;
            }
            FieldVector values = call.argument() == AggregateCall.NO_ARGUMENT ? null : batch.column(call.argument());
            int[] rows = live;
            int[] ids = groupIds;
            int rowCount = count;
            if (call.filter() != AggregateCall.NO_FILTER) {
                rowCount = filter(batch.column(call.filter()), rows, ids, rowCount);
                rows = filteredPositions;
                ids = filteredGroups;
            }
            DistinctSet distinct = distinctSets.get(aggregate);
            CodedStrings coded = values == null ? null : batch.codes(call.argument());
            if (coded != null && coded.codedRows() > 0 && distinct == null
                    && accumulator.addCoded(values, coded, rows, ids, rowCount, table == null)) {
                continue;
            }
            if (coded != null) {
                coded.materialize(); // the strings a scan deferred, for a kernel that reads them
            }
            if (distinct != null) {
                distinctPositions = grow(distinctPositions, rowCount);
                distinctGroups = grow(distinctGroups, rowCount);
                rowCount = distinct.firstOccurrences(values, rows, ids, rowCount, batch.rowCount(), distinctPositions, distinctGroups);
                rows = distinctPositions;
                ids = distinctGroups;
            }
            if (products[aggregate] != null) {
                addProducts((Accumulators.ExactSumAccumulator) accumulator, aggregate, rows, ids, rowCount,
                        everyRow ? rowsPerGroup : null);
                continue;
            }
            NativeLongs stored = values == null ? null : batch.longs(call.argument());
            if (stored != null && stored.defined() && everyRow
                    && accumulator.addStored(stored.values(), stored.magnitude(), rows, ids, rowCount, rowsPerGroup)) {
                continue;
            }
            if (stored != null) {
                stored.materialize();
            }
            accumulator.add(values, rows, ids, rowCount);
        }
    }

    /**
     * Computes the products this aggregation took over ({@link #takeProducts}) at rows
     * {@code rows[0, count)} of the projection's input, a product and the one it extends by a
     * factor in one pass; records per product whether they all fit ({@link DecimalProducts#evaluate}).
     */
    private void evaluateProducts(int[] rows, int count) {
        Batch source = productSource.currentInput();
        for (int aggregate = 0; aggregate < products.length; aggregate++) {
            if (products[aggregate] == null || isPrefix(aggregate)) {
                continue;
            }
            long[] values = productValues(aggregate, count);
            int prefix = productPrefix[aggregate];
            boolean fits = products[aggregate].evaluate(source, rows, count, values, prefix < 0 ? null : productValues(prefix, count));
            productFits[aggregate] = fits;
            productMagnitudes[aggregate] = products[aggregate].magnitude(source, false);
            if (prefix >= 0) {
                productFits[prefix] = fits;
                productMagnitudes[prefix] = products[aggregate].magnitude(source, true);
            }
        }
    }

    private long[] productValues(int aggregate, int count) {
        long[] values = productValues[aggregate];
        if (values == null || values.length < count) {
            values = new long[Math.max(count, values == null ? 0 : 2 * values.length)];
            productValues[aggregate] = values;
        }
        return values;
    }

    /**
     * Adds the product of call {@code aggregate} at rows {@code rows[0, count)} to {@code sums} (the
     * call's accumulator: this operator's, or across workers a partition table's): the values
     * {@link #evaluateProducts} computed when they all fit, else (NULLs, a value beyond a long)
     * through its kernels as the projection would have computed it.
     */
    private void addProducts(Accumulators.ExactSumAccumulator sums, int aggregate, int[] rows, int[] ids, int count,
                             GroupRows rowsPerGroup) {
        if (productFits[aggregate]) {
            sums.addLongs(productValues[aggregate], productMagnitudes[aggregate], ids, count, rowsPerGroup);
        } else {
            Batch source = productSource.currentInput();
            NativeLongs.materialize(source, products[aggregate].columns());
            sums.add(productKernels[aggregate].evaluate(source), rows, ids, count);
        }
    }

    /**
     * Merges the input's own aggregates into the single group as a worker's partial state would
     * be merged: each call's state columns ({@link #stateTypes}) as one row. A call that reads
     * another's sums ({@code SumAlias}) has nothing of its own to merge.
     */
    private void mergeFolded(List<FoldedAggregate> values) {
        if (values.size() != aggregates.size()) {
            throw new ColumbaException(ErrorCode.INTERNAL, values.size() + " folded aggregates for " + aggregates.size() + " calls");
        }
        int[] single = {0};
        for (int index = 0; index < aggregates.size(); index++) {
            Accumulators.Accumulator accumulator = accumulators.get(index);
            if (accumulator instanceof Accumulators.SumAlias) {
                continue;
            }
            AggregateCall call = aggregates.get(index);
            FoldedAggregate value = values.get(index);
            List<SqlType> types = stateTypes(call, argumentTypes.get(index));
            FieldVector[] state = new FieldVector[types.size()];
            try {
                for (int column = 0; column < state.length; column++) {
                    state[column] = VectorValues.newVector(call.name() + "$" + column, types.get(column), allocator);
                    state[column].allocateNew();
                }
                // A null value (no values seen) is a NULL state, as VectorValues.set writes it.
                switch (call.function()) {
                    case COUNT -> VectorValues.set(state[0], 0, SqlType.BIGINT, value.count());
                    case SUM, AVG -> {
                        VectorValues.set(state[0], 0, types.get(0), value.value());
                        VectorValues.set(state[1], 0, SqlType.BIGINT, value.count());
                    }
                    case MIN, MAX -> VectorValues.set(state[0], 0, types.get(0), value.value());
                    case STRING_AGG -> throw new ColumbaException(ErrorCode.INTERNAL, "a scan does not compute STRING_AGG");
                }
                for (FieldVector vector : state) {
                    vector.setValueCount(1);
                }
                accumulator.merge(state, single, single, 1);
            } finally {
                for (FieldVector vector : state) {
                    if (vector != null) {
                        vector.close();
                    }
                }
            }
        }
    }

    /** Keeps the rows whose filter value is TRUE, into {@link #filteredPositions} and {@link #filteredGroups}. */
    private int filter(FieldVector filterColumn, int[] rows, int[] ids, int count) {
        filteredPositions = grow(filteredPositions, count);
        filteredGroups = grow(filteredGroups, count);
        ArrowBuf validity = filterColumn.getValidityBuffer();
        ArrowBuf values = filterColumn.getDataBuffer();
        int kept = 0;
        for (int index = 0; index < count; index++) {
            int row = rows[index];
            if (BitVectorHelper.get(validity, row) != 0 && BitVectorHelper.get(values, row) != 0) {
                filteredPositions[kept] = row;
                filteredGroups[kept++] = ids[index];
            }
        }
        return kept;
    }

    private static int[] grow(int[] array, int size) {
        return array.length >= size ? array : new int[Math.max(size, array.length * 2)];
    }

    private void closeDistinctSets() {
        for (int index = 0; index < distinctSets.size(); index++) {
            if (distinctSets.get(index) != null) {
                distinctSets.get(index).close();
                distinctSets.set(index, null);
            }
        }
    }

    private void closeOutput() {
        if (output != null) {
            output.close();
            output = null;
        }
    }

    @Override
    void release() {
        if (mergedStates != null) {
            mergedStates.close();
            mergedStates = null;
        }
        if (acrossWorkers != null && !releasedAcrossWorkers) {
            // The partition tables are the shared aggregation's, freed by it (this.groups may be one of them).
            releasedAcrossWorkers = true;
            groups = null;
            accumulators.clear();
            acrossWorkers.release(handedIn);
        }
        closeOutput();
        if (groups != null) {
            groups.close();
        }
        closeDistinctSets();
        for (CompiledExpression kernel : productKernels) {
            if (kernel != null) {
                kernel.close();
            }
        }
        for (Accumulators.Accumulator accumulator : accumulators) {
            accumulator.close();
        }
        for (MemoryCharge charge : charges) {
            charge.close();
        }
    }

    /** The (group, value) pairs a DISTINCT aggregate has seen; a pair passes on its first appearance only. */
    private final class DistinctSet implements AutoCloseable {
        private final GroupHashTable pairs;
        private final IntVector groupColumn;
        private int[] nonNull = new int[0];
        private int[] pairIds = new int[0];

        DistinctSet(SqlType argumentType, MemoryCharge charge) {
            this.pairs = new GroupHashTable(List.of(SqlType.INT, argumentType), allocator, charge);
            this.groupColumn = (IntVector) VectorValues.newVector("group", SqlType.INT, allocator);
        }

        /** Writes the first appearances among {@code rows[0, count)} (non-NULL values only) to the outputs; returns how many. */
        int firstOccurrences(FieldVector values, int[] rows, int[] ids, int count, int rowCount,
                             int[] outPositions, int[] outGroups) {
            while (groupColumn.getValueCapacity() < rowCount) {
                groupColumn.reAlloc();
            }
            nonNull = grow(nonNull, count);
            pairIds = grow(pairIds, count);
            int candidates = 0;
            for (int index = 0; index < count; index++) {
                int row = rows[index];
                if (!values.isNull(row)) {
                    groupColumn.set(row, ids[index]);
                    nonNull[candidates++] = row;
                }
            }
            int firstNew = pairs.groupCount();
            pairs.groupIds(new FieldVector[] {groupColumn, values}, nonNull, candidates, pairIds);
            int kept = 0;
            for (int index = 0; index < candidates; index++) {
                if (pairIds[index] == firstNew) {
                    outPositions[kept] = nonNull[index];
                    outGroups[kept++] = groupColumn.get(nonNull[index]);
                    firstNew++;
                }
            }
            return kept;
        }

        @Override
        public void close() {
            pairs.close();
            groupColumn.close();
        }
    }
}
