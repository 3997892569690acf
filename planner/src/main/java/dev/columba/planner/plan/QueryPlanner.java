package dev.columba.planner.plan;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.exec.Operator;
import dev.columba.core.exec.ValuesOperator;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.SettingValues;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.type.SqlType;
import dev.columba.planner.function.GenerateSeries;
import dev.columba.planner.parser.ColumbaSqlParser;
import org.apache.calcite.sql.ddl.SqlCreateView;
import dev.columba.planner.parser.SqlCreateTable;
import dev.columba.planner.parser.SqlQueryHint;
import dev.columba.planner.parser.SqlQueryOption;
import dev.columba.planner.rel.ColumbaColumnOrigins;
import dev.columba.planner.rel.ColumbaCost;
import dev.columba.planner.rel.ColumbaDistinctRowCount;
import dev.columba.planner.rel.ColumbaRel;
import dev.columba.planner.rel.ColumbaSelectivity;
import dev.columba.planner.rel.ColumbaTableFunctionScan;
import dev.columba.planner.rel.ColumbaTableModify;
import dev.columba.planner.rel.Execution;
import dev.columba.planner.rel.ExpressionTranslator;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.core.expr.Expr;
import dev.columba.planner.rel.PlanTables;
import dev.columba.planner.rel.ColumbaRowCount;
import dev.columba.planner.rules.AntiJoinRule;
import dev.columba.planner.rules.ColumbaAggregateRule;
import dev.columba.planner.rules.ConstantWindowKeysRule;
import dev.columba.planner.rules.CountIntoScanRule;
import dev.columba.planner.rules.ColumbaFilterRule;
import dev.columba.planner.rules.ColumbaHashJoinRule;
import dev.columba.planner.rules.ColumbaMergeJoinRule;
import dev.columba.planner.rules.ColumbaIndexNestedLoopJoinRule;
import dev.columba.planner.rules.ColumbaNestedLoopJoinRule;
import dev.columba.planner.rules.ColumbaProjectRule;
import dev.columba.planner.rules.ColumbaSortRule;
import dev.columba.planner.rules.ColumbaTableFunctionScanRule;
import dev.columba.planner.rules.ColumbaTableModifyRule;
import dev.columba.planner.rules.ColumbaTableScanRule;
import dev.columba.planner.rules.ColumbaUnionRule;
import dev.columba.planner.rules.ColumbaValuesRule;
import dev.columba.planner.rules.ColumbaWindowRule;
import dev.columba.planner.rules.ColumnstoreFilterRule;
import dev.columba.planner.rules.CorrelatedExistsRule;
import dev.columba.planner.rules.JoinSideExpressionsRule;
import dev.columba.planner.rules.NotInAntiJoinRule;
import dev.columba.planner.rules.ExtremeOverOuterRowsRule;
import dev.columba.planner.rules.TotalFromGroupsRule;
import dev.columba.planner.rules.ValuesReduceRules;
import dev.columba.planner.rules.WindowOverNoColumnRule;
import dev.columba.planner.rules.GroupingSetsRule;
import dev.columba.planner.rules.IndexSeekRule;
import dev.columba.planner.rules.JoinOrdering;
import dev.columba.planner.rules.OrFactoringRule;
import dev.columba.planner.rules.PlanHints;
import dev.columba.planner.rules.ProjectFilterIntoScanRule;
import dev.columba.planner.rules.ProjectIntoScanRule;
import dev.columba.planner.rules.RowstoreKeyRangeRule;
import dev.columba.planner.schema.ColumbaTable;
import dev.columba.planner.schema.GeneratedColumns;
import dev.columba.planner.schema.TableConstraints;
import dev.columba.planner.schema.SqlTypes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.util.CancelFlag;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.ChainedRelMetadataProvider;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ReflectiveRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinProjectTransposeRule;
import org.apache.calcite.rel.rules.ProjectJoinTransposeRule;
import org.apache.calcite.rel.rules.PruneEmptyRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import dev.columba.planner.parser.SqlMergeStatement;
import dev.columba.planner.parser.SqlDataChangeOutput;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlBasicAggFunction;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.util.Optionality;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.tools.RelBuilder;

/**
 * Plans queries and DML with Calcite used as a library, into Columba's physical convention:
 *
 * <ol>
 *   <li>validate the parsed statement against the catalog (names case-insensitive, SQL Server's
 *       conformance, Columba's types and functions);</li>
 *   <li>convert to relational algebra; rewrite sub-queries (IN, EXISTS, scalar) into joins and
 *       semi-joins and decorrelate them; trim unused columns;</li>
 *   <li>rewrite logically (push filters down and into joins, fold constants with core's own
 *       evaluator, remove aggregates on unique keys, semi-joins, set operations);</li>
 *   <li>optimize with Calcite's Volcano planner using Columba's rules and a cost model fed by the
 *       tables' statistics, honouring {@code OPTION (LOOP JOIN | HASH JOIN | FORCE ORDER)};</li>
 *   <li>instantiate the physical plan once to check every expression and operator, which fixes
 *       the result's columns and the EXPLAIN text.</li>
 * </ol>
 *
 * <p>What the session does around it: it holds the locks {@link PreparedStatementPlan#objectIds()}
 * names, shared, while the statement runs (and the writer its own exclusive ones at commit); it
 * begins a write transaction for a plan that {@link PreparedStatementPlan#modifies()}; it gives
 * each execution a {@link StatementEnvironment} whose {@code QueryContext} collects the statistics
 * it reports. {@code MAXDOP n} (else the {@code max_dop} setting) is the degree of the parallel
 * fragments {@link Parallelizer} adds to the best serial plan; a plan is kept and reused by the
 * session's plan cache unless {@code RECOMPILE} says otherwise (the planner itself keeps nothing). A planner is cheap: make one per statement.
 */
public final class QueryPlanner {
    private static final SqlOperatorTable OPERATORS = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SqlLibraryOperatorTableFactory.INSTANCE
                    .getOperatorTable(EnumSet.of(SqlLibrary.POSTGRESQL, SqlLibrary.MSSQL)).getOperatorList().stream()
                    .filter(operator -> operator != SqlLibraryOperators.STRING_AGG).toList()),
            SqlOperatorTables.of(GenerateSeries.INSTANCE, stringAgg()));

    /**
     * STRING_AGG(value, separator) as SQL Server writes it, with an optional WITHIN GROUP (ORDER
     * BY ...) (Calcite's, PostgreSQL's, forbids WITHIN GROUP and types its result as its argument,
     * so a VARCHAR(12) column would aggregate into a VARCHAR(12)): a VARCHAR without a declared
     * length, NULL over no values. Its kind is LISTAGG, whose meaning it has: Calcite's converter
     * turns a call of kind STRING_AGG into its own LISTAGG, typed as the argument again.
     */
    private static SqlAggFunction stringAgg() {
        return SqlBasicAggFunction.create("STRING_AGG", SqlKind.LISTAGG,
                        ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.FORCE_NULLABLE),
                        OperandTypes.STRING.or(OperandTypes.STRING_STRING))
                .withFunctionType(SqlFunctionCategory.SYSTEM)
                .withSyntax(SqlSyntax.ORDERED_FUNCTION)
                .withGroupOrder(Optionality.OPTIONAL);
    }

    /**
     * The settings whose values the planner reads (join hints' prefetch): a plan made under other
     * values of these is another plan.
     */
    public static final List<dev.columba.core.settings.Setting<?>> PLAN_SETTINGS =
            List.of(StandardSettings.PREFETCH, StandardSettings.PREFETCH_THRESHOLD_ROWS, StandardSettings.TRIVIAL_PLANS,
                    StandardSettings.BITMAP_FILTERS,
                    StandardSettings.MAX_DOP, StandardSettings.PARALLELISM_THRESHOLD_ROWS);

    /** Calcite's metadata with Columba's handlers in front; built once, so the dispatch tables are built once. */
    static final RelMetadataProvider METADATA = ChainedRelMetadataProvider.of(List.of(
            ReflectiveRelMetadataProvider.reflectiveSource(ColumbaSelectivity.INSTANCE,
                    BuiltInMetadata.Selectivity.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(ColumbaRowCount.INSTANCE,
                    BuiltInMetadata.RowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(ColumbaDistinctRowCount.INSTANCE,
                    BuiltInMetadata.DistinctRowCount.Handler.class),
            ReflectiveRelMetadataProvider.reflectiveSource(ColumbaColumnOrigins.INSTANCE,
                    BuiltInMetadata.ColumnOrigin.Handler.class),
            DefaultRelMetadataProvider.INSTANCE));

    /**
     * Metadata for the heuristic (Hep) phases: answered afresh on every call. Hep replaces the rel
     * inside a vertex without telling the metadata cache, so cached answers go stale there (a
     * cached predicate made the transitive-predicate rule re-add a filter forever).
     */
    private static final Supplier<RelMetadataQuery> UNCACHED_METADATA;

    /**
     * Metadata for the cost-based (Volcano) phase: memoized per query object, through reflection
     * until a background thread has compiled Janino's dispatch for that kind of metadata
     * ({@link SwitchingMetadataHandlers}: a fresh JVM's first statement does not wait for Janino,
     * a warm one gets its direct calls). Volcano clears a subset's entries when its best plan
     * changes; every other rel is immutable once registered, so the answers stay right.
     */
    private static final Supplier<RelMetadataQuery> CACHED_METADATA;

    static {
        // Hep makes a new query after every transformation: its handlers are made once (UnmemoizedMetadataHandlers).
        UnmemoizedMetadataHandlers unmemoized = new UnmemoizedMetadataHandlers(METADATA);
        UNCACHED_METADATA = () -> new RelMetadataQuery(unmemoized);
        SwitchingMetadataHandlers handlers = new SwitchingMetadataHandlers(METADATA);
        CACHED_METADATA = () -> new RelMetadataQuery(handlers);
    }

    /** EXPLAIN's first line for a trivial plan (SQL Server's StatementOptmLevel="TRIVIAL"); a fully optimized plan has none. */
    public static final String TRIVIAL_PLAN_LINE = "Optimization level: TRIVIAL (no cost-based optimization)";

    private final PlannerCatalog catalog;
    private final SettingValues settings;
    private final CancelFlag cancel;
    /** The cost-based phase's metadata: {@link #CACHED_METADATA}, or a test's handlers. */
    private final Supplier<RelMetadataQuery> costBasedMetadata;

    /** A planner nobody cancels. */
    public QueryPlanner(PlannerCatalog catalog, SettingValues settings) {
        this(catalog, settings, new CancelFlag(new AtomicBoolean()));
    }

    /**
     * A planner that stops with QUERY_CANCELLED once {@code cancel} is set: between its phases, and
     * within cost-based optimization, whose search Calcite stops when the flag is set.
     */
    public QueryPlanner(PlannerCatalog catalog, SettingValues settings, CancelFlag cancel) {
        this(catalog, settings, cancel, CACHED_METADATA);
    }

    /** A planner whose cost-based phase asks {@code costBasedHandlers} for metadata (tests of those handlers). */
    QueryPlanner(PlannerCatalog catalog, SettingValues settings, CancelFlag cancel, MetadataHandlerProvider costBasedHandlers) {
        this(catalog, settings, cancel, () -> new RelMetadataQuery(costBasedHandlers));
    }

    private QueryPlanner(PlannerCatalog catalog, SettingValues settings, CancelFlag cancel,
                         Supplier<RelMetadataQuery> costBasedMetadata) {
        this.catalog = catalog;
        this.settings = settings;
        this.cancel = cancel;
        this.costBasedMetadata = costBasedMetadata;
    }

    /**
     * A table's CHECK constraints, defaults and computed columns compiled to expressions over its
     * row, for a writer that does not go through a plan (COPY): the checks in the order of
     * {@code TableConstraints.checks()}, the defaults and the computed columns by column (in column
     * order), each cast to its column's type.
     */
    public record CompiledConstraints(List<TableModifyOperator.Check> checks, Map<Integer, Expr> defaults,
                                      Map<Integer, Expr> computed) {
        public CompiledConstraints {
            checks = List.copyOf(checks);
            defaults = Map.copyOf(defaults);
            computed = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(computed));
        }
    }

    /** Compiles table {@code name}'s CHECK constraints, defaults and computed columns (see {@link CompiledConstraints}). */
    public CompiledConstraints compileConstraints(String name) {
        ColumbaTable table = catalog.table(name).orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND,
                "table " + name + " does not exist"));
        return compileConstraints(name, table.constraints());
    }

    /** Compiles {@code constraints} (not yet the table's: ALTER TABLE ... ADD CHECK) over table {@code name}'s row. */
    public CompiledConstraints compileConstraints(String name, TableConstraints constraints) {
        ColumbaTable table = catalog.table(name).orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND,
                "table " + name + " does not exist"));
        GeneratedColumns generated = table.generated();
        if (!constraints.any() && generated.computed().isEmpty()) {
            return new CompiledConstraints(List.of(), Map.of(), Map.of());
        }
        RowCompiler compiler = rowCompiler(table);
        RowExpressions row = compiler.row();
        ExpressionTranslator translator = compiler.translator();
        List<TableModifyOperator.Check> checks = new ArrayList<>();
        for (Map.Entry<String, String> check : constraints.checks().entrySet()) {
            SqlNode expression = TableConstraints.expression(check.getValue(), "CHECK constraint " + check.getKey(),
                    table.name());
            checks.add(new TableModifyOperator.Check(check.getKey(), check.getValue(), translator.translate(row.convert(expression))));
        }
        Map<Integer, Expr> defaults = new LinkedHashMap<>();
        for (Map.Entry<Integer, String> value : constraints.defaults().entrySet()) {
            SqlNode expression = TableConstraints.expression(value.getValue(), "DEFAULT of column "
                    + table.schema().column(value.getKey()).name(), table.name());
            defaults.put(value.getKey(), translator.translate(row.convertAs(expression, value.getKey())));
        }
        Map<Integer, Expr> computed = new LinkedHashMap<>();
        for (int column : generated.computed().keySet()) {
            computed.put(column, translator.translate(row.convertAs(generated.expression(column, table.name()), column)));
        }
        return new CompiledConstraints(checks, defaults, computed);
    }

    /**
     * Compiles {@code sql}, one expression, over table {@code name}'s row: the DEFAULT of a column
     * ALTER TABLE ... ADD COLUMN adds, evaluated once for the rows the table already has.
     */
    public Expr compileExpression(String name, String sql, String what) {
        ColumbaTable table = catalog.table(name).orElseThrow(() -> new ColumbaException(ErrorCode.OBJECT_NOT_FOUND,
                "table " + name + " does not exist"));
        RowCompiler compiler = rowCompiler(table);
        return compiler.translator().translate(compiler.row().convert(TableConstraints.expression(sql, what, name)));
    }

    /** Converts SQL expressions over one table's row to Calcite's and then to Columba's expressions. */
    private record RowCompiler(RowExpressions row, ExpressionTranslator translator) {
    }

    private RowCompiler rowCompiler(ColumbaTable table) {
        JavaTypeFactoryImpl typeFactory = new ColumbaTypeFactory();
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CalciteCatalogReader catalogReader = new CalciteCatalogReader(CatalogSchema.build(catalog), List.of(), typeFactory,
                new CalciteConnectionConfigImpl(properties));
        SqlValidator validator = newValidator(catalogReader, typeFactory);
        VolcanoPlanner planner = new VolcanoPlanner(ColumbaCost.FACTORY, Contexts.empty());
        RexBuilder rexBuilder = new RexBuilder(typeFactory);
        RelOptCluster cluster = RelOptCluster.create(planner, rexBuilder);
        SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalogReader, cluster,
                ColumbaConvertlets.INSTANCE, CONVERTER_CONFIG);
        return new RowCompiler(RowExpressions.of(table.getRowType(typeFactory), converter, rexBuilder),
                Execution.planning(rexBuilder).translator(table.schema()));
    }

    /**
     * Plans one statement: a query (SELECT, VALUES, WITH, set operations, ORDER BY / OFFSET /
     * FETCH), optionally with {@code OPTION (...)}, INSERT, UPDATE or DELETE, or EXPLAIN of one
     * (whose rows are the plan's lines). For {@code CREATE TABLE t AS query} (and SELECT ... INTO
     * t, which parses to it) it plans the query, and the plan's schema is the new table's columns
     * (see {@link NewTableColumns}); the session creates the table and loads the rows.
     *
     * @throws ColumbaException with a position in the SQL where Calcite gives one: OBJECT_NOT_FOUND,
     *         UNDEFINED_COLUMN, WRONG_TYPE, INVALID_STATEMENT, FEATURE_NOT_SUPPORTED
     */
    public PreparedStatementPlan plan(SqlNode statement) {
        if (statement instanceof SqlCreateTable create) {
            SqlNode query = create.query().orElseThrow(() -> new ColumbaException(ErrorCode.INTERNAL,
                    "CREATE TABLE " + create.name() + " without AS query is not planned"));
            String table = create.name().names.getLast();
            Set<String> aliases = NewTableColumns.aliasesWritten(query);
            PlannedStatement planned = (PlannedStatement) plan(query);
            return planned.withSchema(NewTableColumns.of(planned.schema(), aliases, table));
        }
        if (statement instanceof SqlCreateView create) {
            String view = create.name.names.getLast();
            PlannedStatement planned = (PlannedStatement) plan(create.query);
            if (!planned.parameterTypes().isEmpty()) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "the query of view " + view + " has parameters");
            }
            if (create.columnList == null) {
                return planned.withSchema(NewTableColumns.of(planned.schema(), NewTableColumns.aliasesWritten(create.query),
                        view));
            }
            return planned.withSchema(NewTableColumns.renamed(planned.schema(), create.columnList, view));
        }
        boolean explain = false;
        SqlNode node = statement;
        if (node instanceof SqlExplain sqlExplain) {
            explain = true;
            node = sqlExplain.getExplicandum();
        }
        SqlDataChangeOutput output = null;
        if (node instanceof SqlDataChangeOutput clause) {
            output = clause;
            node = clause.statement();
        }
        PlanHints hints = hints(node);
        int degree = degree(node);
        if (node instanceof SqlQueryOption option) {
            node = option.query();
        }
        ColumbaTable mergeTarget = null;
        if (node instanceof SqlMergeStatement merge) {
            MergeRewrite.Rewritten rewritten = MergeRewrite.apply(merge, catalog);
            node = rewritten.query();
            mergeTarget = rewritten.table();
        }
        ClauseChecks.check(node);
        GeneratedColumnRewrite.apply(node, catalog);
        UpdateDefaultRewrite.apply(node, catalog);
        PlannedStatement planned;
        try {
            SqlNode query = node;
            ColumbaTable merged = mergeTarget;
            SqlDataChangeOutput clause = output;
            planned = cancellable(() -> planStatement(query, hints, degree, merged, clause));
        } catch (CalciteContextException e) {
            throw validationError(e, node);
        } catch (RelOptPlanner.CannotPlanException e) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "Columba cannot run this statement yet: "
                    + "no physical plan exists for it (" + firstLine(e.getMessage()) + ")", e);
        } catch (ColumbaException e) {
            throw e;
        } catch (RuntimeException e) {
            if (e.getCause() instanceof CalciteContextException context) {
                throw validationError(context, node);
            }
            // Calcite wraps what a convertlet throws ("while converting ..."), at times more than once.
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof ColumbaException columba) {
                    throw columba;
                }
            }
            if (e instanceof CalciteException calcite) {
                // Calcite's own errors without a position (CalciteResource): about the statement, not Columba.
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, calcite.getMessage(), calcite);
            }
            throw new ColumbaException(ErrorCode.INTERNAL, "planning failed: " + e, e);
        }
        return explain ? explainPlan(planned) : planned;
    }

    /**
     * Runs a phase of planning; a failure after a cancel was asked for is the cancellation (Calcite
     * stops its search with its own "preparation aborted" exception).
     */
    private <T> T cancellable(Supplier<T> phase) {
        try {
            return phase.get();
        } catch (RuntimeException e) {
            if (cancel.isCancelRequested()) {
                throw e instanceof ColumbaException columba && columba.errorCode() == ErrorCode.QUERY_CANCELLED
                        ? columba : new ColumbaException(ErrorCode.QUERY_CANCELLED,
                                "the statement was cancelled while it was planned", e);
            }
            throw e;
        }
    }

    /** Between planning phases: stops here if the statement was cancelled. */
    private void checkCancelled() {
        if (cancel.isCancelRequested()) {
            throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "the statement was cancelled while it was planned");
        }
    }

    private PlanHints hints(SqlNode node) {
        PlanHints.JoinHint join = PlanHints.JoinHint.NONE;
        boolean forceOrder = false;
        if (node instanceof SqlQueryOption option) {
            boolean loop = option.has(SqlQueryHint.Kind.LOOP_JOIN);
            boolean hash = option.has(SqlQueryHint.Kind.HASH_JOIN);
            boolean merge = option.has(SqlQueryHint.Kind.MERGE_JOIN);
            // One algorithm named forces it; several leave the choice to the cost model.
            join = loop && !hash && !merge ? PlanHints.JoinHint.LOOP : hash && !loop && !merge ? PlanHints.JoinHint.HASH
                    : merge && !loop && !hash ? PlanHints.JoinHint.MERGE : PlanHints.JoinHint.NONE;
            forceOrder = option.has(SqlQueryHint.Kind.FORCE_ORDER);
        }
        return new PlanHints(join, forceOrder, settings.get(StandardSettings.PREFETCH),
                settings.get(StandardSettings.PREFETCH_THRESHOLD_ROWS));
    }

    /**
     * The workers parallel fragments of this statement get: {@code OPTION (MAXDOP n)}, else the
     * {@code max_dop} setting; 0 means one per available processor.
     */
    private int degree(SqlNode node) {
        int degree = settings.get(StandardSettings.MAX_DOP);
        if (node instanceof SqlQueryOption option && option.maxDegreeOfParallelism().isPresent()) {
            degree = option.maxDegreeOfParallelism().getAsInt();
        }
        return degree == 0 ? Runtime.getRuntime().availableProcessors() : degree;
    }

    private static SqlValidator newValidator(CalciteCatalogReader catalogReader, JavaTypeFactoryImpl typeFactory) {
        return SqlValidatorUtil.newValidator(OPERATORS, catalogReader, typeFactory,
                SqlValidator.Config.DEFAULT
                        .withConformance(ColumbaSqlParser.conformance())
                        .withIdentifierExpansion(true)
                        .withTypeCoercionFactory(ColumbaTypeCoercion::new)
                        .withDefaultNullCollation(NullCollation.HIGH));
    }

    /**
     * The validated statement. Calcite's validator fails with an IndexOutOfBoundsException while
     * it builds the message for an UPDATE whose SET value cannot be assigned to its column (it
     * looks the value up by the column's position in the table): that is the type error it meant;
     * and for an INSERT without a column list whose source is wider than the table.
     */
    private static SqlNode validate(SqlValidator validator, SqlNode node) {
        try {
            return validator.validate(node);
        } catch (IndexOutOfBoundsException e) {
            if (node instanceof org.apache.calcite.sql.SqlInsert insert && insert.getTargetColumnList() == null) {
                // Calcite cuts the table's row type to the source's width before it compares them.
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "the INSERT supplies more values than table "
                        + insert.getTargetTable() + " has columns (Column name or number of supplied values does not"
                        + " match table definition)", e);
            }
            if (!(node instanceof SqlUpdate update)) {
                throw e;
            }
            throw new ColumbaException(ErrorCode.WRONG_TYPE, unassignable(validator, update), e);
        }
    }

    private static String unassignable(SqlValidator validator, SqlUpdate update) {
        SqlValidatorTable table = validator.getNamespace(update.getTargetTable()) == null ? null
                : validator.getNamespace(update.getTargetTable()).getTable();
        for (int assignment = 0; assignment < update.getTargetColumnList().size(); assignment++) {
            SqlNode column = update.getTargetColumnList().get(assignment);
            SqlNode value = update.getSourceExpressionList().get(assignment);
            RelDataType valueType = validator.getValidatedNodeTypeIfKnown(value);
            RelDataTypeField field = table == null || !(column instanceof SqlIdentifier name) ? null
                    : table.getRowType().getField(name.names.getLast(), false, false);
            if (valueType != null && field != null && !SqlTypeUtil.canAssignFrom(field.getType(), valueType)) {
                SqlParserPos position = value.getParserPosition();
                return "Cannot assign to column '" + field.getName() + "' of type " + field.getType()
                        + " a value of type " + valueType + " at line " + position.getLineNum() + ", column "
                        + position.getColumnNum();
            }
        }
        return "a SET value of this UPDATE cannot be assigned to its column's type";
    }

    /**
     * @param mergeTarget for a MERGE, the table it writes: {@code node} is then its query
     *                    ({@link MergeRewrite}), planned under a TableModify of operation MERGE
     * @param output      the statement's OUTPUT or RETURNING clause ({@code node} is its statement), or null
     */
    private PlannedStatement planStatement(SqlNode node, PlanHints hints, int degree, ColumbaTable mergeTarget,
                                           SqlDataChangeOutput output) {
        JavaTypeFactoryImpl typeFactory = new ColumbaTypeFactory();
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
        CalciteCatalogReader catalogReader = new CalciteCatalogReader(CatalogSchema.build(catalog), List.of(), typeFactory,
                new CalciteConnectionConfigImpl(properties));
        SqlValidator validator = newValidator(catalogReader, typeFactory);
        ColumnLabels labels = ColumnLabels.before(node);
        SqlNode validated = validate(validator, node);
        checkCancelled();
        List<SqlType> parameterTypes = new ArrayList<>();
        if (mergeTarget != null) {
            // Calcite lists parameters in the order it meets them in the tree, which in MERGE's
            // query is not the statement's: each keeps the index the parser gave it.
            for (RelDataType type : parameterTypesByIndex(validator, validated)) {
                parameterTypes.add(SqlTypes.fromRelType(type));
            }
        } else {
            for (RelDataTypeField field : validator.getParameterRowType(validated).getFieldList()) {
                parameterTypes.add(SqlTypes.fromRelType(field.getType()));
            }
        }

        VolcanoPlanner planner = new VolcanoPlanner(ColumbaCost.FACTORY, Contexts.of(cancel));
        planner.addRelTraitDef(ConventionTraitDef.INSTANCE);
        planner.setExecutor(new ColumbaRexExecutor());
        RexBuilder rexBuilder = new RexBuilder(typeFactory);
        RelOptCluster cluster = RelOptCluster.create(planner, rexBuilder);
        cluster.setMetadataProvider(METADATA);
        cluster.setMetadataQuerySupplier(UNCACHED_METADATA);

        SqlToRelConverter converter = new StoreAssignmentConverter(new ViewExpansion(catalogReader, typeFactory, cluster),
                validator, catalogReader, cluster, ColumbaConvertlets.INSTANCE, CONVERTER_CONFIG);
        RelRoot root = converter.convertQuery(validated, false, true);
        if (mergeTarget != null) {
            RelOptTable table = catalogReader.getTable(List.of(mergeTarget.name()));
            if (table == null) {
                throw new ColumbaException(ErrorCode.INTERNAL, "the MERGE target " + mergeTarget.name()
                        + " is not in the planner's catalog");
            }
            root = RelRoot.of(LogicalTableModify.create(table, catalogReader, root.project(),
                    org.apache.calcite.rel.core.TableModify.Operation.MERGE, List.of(), null, false), SqlKind.MERGE);
        }
        checkCancelled();
        RelNode logical = rewrite(root.rel, cluster, catalogReader, converter);
        checkCancelled();
        if (!hints.forceOrder()) {
            logical = orderJoins(logical, converter);
            checkCancelled();
        }
        // After the join order: pulling projections up to flatten the inner joins would undo it.
        if (innerJoins(logical) > 0) {
            logical = hep(JOIN_SIDE_EXPRESSIONS, logical);
        }
        logical = root.withRel(logical).project();
        checkSupported(logical);

        Optional<RelNode> trivial = settings.get(StandardSettings.TRIVIAL_PLANS)
                ? TrivialPlan.physical(logical) : Optional.empty();
        RelNode best;
        if (trivial.isPresent()) {
            best = trivial.get();
        } else {
            for (RelOptRule rule : rules(hints)) {
                planner.addRule(rule);
            }
            cluster.setMetadataQuerySupplier(costBasedMetadata);
            cluster.invalidateMetadataQuery();
            planner.setRoot(planner.changeTraits(logical, logical.getTraitSet().replace(ColumbaRel.CONVENTION)));
            best = planner.findBestExp();
        }
        if (best instanceof ColumbaTableModify modify) {
            best = modify.withComputed(computedColumns(modify, converter, rexBuilder));
            best = ((ColumbaTableModify) best).withChecks(checkConditions(modify, converter, rexBuilder));
        }
        List<String> outputLabels = null;
        boolean outputInto = false;
        if (output != null) {
            if (!(best instanceof ColumbaTableModify modify)) {
                throw new ColumbaException(ErrorCode.INTERNAL, output.style() + " of a plan that modifies nothing: " + best);
            }
            OutputItems.Resolved resolved = OutputItems.resolve(output, modify.getTable().getRowType(), validator,
                    converter);
            ColumbaTableModify into = null;
            List<SqlType> intoParameterTypes = List.of();
            if (output.into() != null) {
                PlannedStatement intoPlan = planOutputInto(output, resolved.rowType());
                into = (ColumbaTableModify) intoPlan.root();
                intoParameterTypes = intoPlan.parameterTypes();
                outputInto = true;
            } else {
                outputLabels = resolved.labels();
            }
            best = modify.withOutput(new ColumbaTableModify.Output(resolved.expressions(), resolved.rowType(), into,
                    intoParameterTypes));
        }
        best = dev.columba.planner.rel.PartitionElimination.apply(best, rexBuilder);
        best = Parallelizer.apply(best, degree, settings.get(StandardSettings.PARALLELISM_THRESHOLD_ROWS));
        if (settings.get(StandardSettings.BITMAP_FILTERS)) {
            best = BitmapFilters.apply(best);
        }

        Execution check = Execution.planning(rexBuilder);
        Operator operator = check.instantiate(best);
        boolean modifies = best instanceof ColumbaTableModify;
        TableSchema schema = modifies ? operator.schema() : named(operator.schema(), root.validatedRowType);
        List<String> explainLines = new ArrayList<>(ExplainPlan.lines(best, check));
        if (trivial.isPresent()) {
            explainLines.addFirst(TRIVIAL_PLAN_LINE);
        }
        String explain = String.join("\n", explainLines);
        List<String> columnLabels = outputLabels != null ? outputLabels : modifies || labels == null
                ? PreparedStatementPlan.names(schema) : labels.after(validator, root.validatedRowType);
        // A plan with OUTPUT ... INTO also writes the INTO table, which its lock ids do not name: planned afresh each time.
        return new PlannedStatement(best, rexBuilder, schema, columnLabels, modifies, lockIds(best), parameterTypes,
                explain, !readsSystemView(best) && !outputInto);
    }

    /**
     * The INSERT of {@code OUTPUT ... INTO table [(columns)]}: {@code INSERT INTO table [(columns)]
     * VALUES (CAST(? AS type), ...)}, a parameter per output column typed as the column, so that each
     * output row is one parameter set and stored as an INSERT stores a value of that type.
     */
    private PlannedStatement planOutputInto(SqlDataChangeOutput output, RelDataType rowType) {
        SqlParserPos position = output.into().getParserPosition();
        List<SqlNode> values = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            values.add(SqlStdOperatorTable.CAST.createCall(position, new org.apache.calcite.sql.SqlDynamicParam(
                    field.getIndex(), position), SqlTypeUtil.convertTypeToSpec(field.getType())));
        }
        SqlNode row = SqlStdOperatorTable.ROW.createCall(position, values);
        SqlNode source = SqlStdOperatorTable.VALUES.createCall(position, row);
        org.apache.calcite.sql.SqlInsert insert = new org.apache.calcite.sql.SqlInsert(position,
                org.apache.calcite.sql.SqlNodeList.EMPTY, output.into(), source, output.intoColumns());
        PlannedStatement planned = (PlannedStatement) plan(insert);
        if (!(planned.root() instanceof ColumbaTableModify modify) || !modify.insertsOneRow()) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "OUTPUT ... INTO " + output.into()
                    + " cannot be planned as an INSERT of one row of values");
        }
        return planned;
    }

    /** The types of a validated statement's parameters, in the order of their indexes (their order in the text). */
    private static List<RelDataType> parameterTypesByIndex(SqlValidator validator, SqlNode validated) {
        java.util.SortedMap<Integer, RelDataType> types = new java.util.TreeMap<>();
        validated.accept(new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlDynamicParam param) {
                types.putIfAbsent(param.getIndex(), validator.getValidatedNodeType(param));
                return param;
            }
        });
        if (!types.isEmpty() && types.lastKey() != types.size() - 1) {
            throw new ColumbaException(ErrorCode.INTERNAL, "parameters " + types.keySet() + " are not numbered 0.."
                    + (types.size() - 1));
        }
        return new ArrayList<>(types.values());
    }

    /**
     * The computed columns of a modified table as expressions over its row ({@code $0} is its first
     * column), in column order: validated against the table's row type, converted with the
     * statement's converter. The insert operator evaluates them on each finished row.
     */
    private static List<RexNode> computedColumns(ColumbaTableModify modify, SqlToRelConverter converter,
                                                 RexBuilder rexBuilder) {
        ColumbaTable table = modify.getTable().unwrap(ColumbaTable.class);
        GeneratedColumns generated = table.generated();
        if (generated.computed().isEmpty()) {
            return List.of();
        }
        RowExpressions row = RowExpressions.of(modify.getTable().getRowType(), converter, rexBuilder);
        List<RexNode> computed = new ArrayList<>();
        for (int column : generated.computed().keySet()) {
            computed.add(row.convertAs(generated.expression(column, table.name()), column));
        }
        return computed;
    }

    /**
     * The CHECK conditions of a modified table as expressions over its row, in the order of
     * {@code TableConstraints.checks()}, validated and converted as {@link #computedColumns} are.
     */
    private static List<RexNode> checkConditions(ColumbaTableModify modify, SqlToRelConverter converter,
                                                 RexBuilder rexBuilder) {
        ColumbaTable table = modify.getTable().unwrap(ColumbaTable.class);
        Map<String, String> checks = table.constraints().checks();
        if (checks.isEmpty() || modify.getOperation() == org.apache.calcite.rel.core.TableModify.Operation.DELETE) {
            return List.of();
        }
        RowExpressions row = RowExpressions.of(modify.getTable().getRowType(), converter, rexBuilder);
        List<RexNode> conditions = new ArrayList<>();
        for (Map.Entry<String, String> check : checks.entrySet()) {
            conditions.add(row.convert(TableConstraints.expression(check.getValue(), "CHECK constraint " + check.getKey(),
                    table.name())));
        }
        return conditions;
    }

    /**
     * Expressions over a table's row ({@code $0} its first column), as computed columns, CHECK
     * constraints and defaults are written: validated against the row type and converted with a
     * statement's converter.
     */
    private record RowExpressions(RelDataType rowType, Map<String, RexNode> columns, SqlToRelConverter converter,
                                  RexBuilder rexBuilder) {
        static RowExpressions of(RelDataType rowType, SqlToRelConverter converter, RexBuilder rexBuilder) {
            Map<String, RexNode> columns = new HashMap<>();
            for (RelDataTypeField field : rowType.getFieldList()) {
                columns.put(field.getName(), rexBuilder.makeInputRef(field.getType(), field.getIndex()));
            }
            return new RowExpressions(rowType, columns, converter, rexBuilder);
        }

        RexNode convert(SqlNode expression) {
            SqlNode validated = SqlValidatorUtil.validateExprWithRowType(false, OPERATORS, rexBuilder.getTypeFactory(),
                    rowType, expression).left;
            return converter.convertExpression(validated, columns);
        }

        /** {@link #convert}, cast to the type of the row's {@code column} where it differs. */
        RexNode convertAs(SqlNode expression, int column) {
            RexNode value = convert(expression);
            RelDataType type = rowType.getFieldList().get(column).getType();
            return value.getType().equals(type) ? value : rexBuilder.makeCast(type, value, true, false);
        }
    }

    /** The result's columns named as the query names them (operators may have renamed duplicates). */
    private static TableSchema named(TableSchema schema, RelDataType validated) {
        List<String> names = validated.getFieldNames();
        if (names.size() != schema.size()) {
            return schema;
        }
        List<String> unique = Execution.uniqueNames(names);
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < schema.size(); index++) {
            Column column = schema.column(index);
            columns.add(new Column(unique.get(index), column.type(), column.nullable()));
        }
        return new TableSchema(columns);
    }

    private static int[] lockIds(RelNode best) {
        TreeSet<Integer> ids = new TreeSet<>();
        for (RelOptTable table : PlanTables.all(best)) {
            ColumbaTable columba = table.unwrap(ColumbaTable.class);
            if (columba != null) {
                for (int id : columba.lockObjectIds()) {
                    ids.add(id);
                }
            }
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Whether the plan scans a system view, whose rows come from the catalog the planner was given. */
    private static boolean readsSystemView(RelNode best) {
        for (RelOptTable table : PlanTables.all(best)) {
            if (table.unwrap(dev.columba.planner.schema.SystemView.class) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Conditions implied by a disjunction, per join input, added to the filter or join condition
     * that holds it, so that the logical rewrites push them into the inputs: TPC-H Q19's three
     * (brand, container, size, quantity) branches give part a filter of its own and lineitem a
     * quantity range; Q7's two nation pairs give each nation {@code n_name IN ('FRANCE',
     * 'GERMANY')}. The disjunction itself stays where it was. A phase of its own: next to the push
     * rules, deriving and pushing would chase each other (a pushed condition leaves the join, so it
     * is derived again).
     */
    private static final HepProgram DISJUNCTIONS = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(List.of(CoreRules.EXPAND_FILTER_DISJUNCTION_LOCAL, CoreRules.EXPAND_JOIN_DISJUNCTION_LOCAL))
            .build();

    /**
     * OVER calls' literal partition and order keys dropped (they partition and order nothing), then
     * the calls moved out of projections into window nodes (a projection, a window, a projection),
     * and a window over a projection of no column made to read that projection's input.
     */
    private static final HepProgram WINDOWS = new HepProgramBuilder()
            .addRuleInstance(ConstantWindowKeysRule.create())
            .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
            .addRuleInstance(WindowOverNoColumnRule.create())
            .build();

    /** Aggregates over several grouping sets expanded into a union of plain aggregates. */
    private static final HepProgram GROUPING_SETS = new HepProgramBuilder()
            .addRuleInstance(GroupingSetsRule.create())
            .build();

    private static final HepProgram TOTALS_FROM_GROUPS = new HepProgramBuilder()
            .addRuleInstance(TotalFromGroupsRule.create())
            .build();
    /** Expressions of one input's columns in a nested-loop join's condition computed below the join. */
    private static final HepProgram JOIN_SIDE_EXPRESSIONS = new HepProgramBuilder()
            .addRuleInstance(JoinSideExpressionsRule.create())
            .build();
    /**
     * EXISTS and NOT EXISTS correlated through one filter as SEMI and ANTI joins, and NOT IN over
     * NOT NULL values as ANTI joins, and a MIN or MAX of the outer query's own rows as a window
     * over them, before the general path.
     */
    private static final HepProgram CORRELATED_EXISTS = new HepProgramBuilder()
            .addRuleInstance(CorrelatedExistsRule.create())
            .addRuleInstance(NotInAntiJoinRule.create())
            .addRuleInstance(ExtremeOverOuterRowsRule.create())
            .build();

    /**
     * After the fields no longer needed were trimmed: filters back below the projections the
     * trimming put over scans, projections merged and removed (the shapes the rewrites left).
     */
    private static final HepProgram TIDY = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(List.of(CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
            .addMatchOrder(HepMatchOrder.TOP_DOWN)
            .addRuleCollection(List.of(projectJoinTranspose(), CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
            .build();

    /**
     * Calcite's ProjectJoinTransposeRule for inner and left joins: the columns a projection above a
     * join does not use are dropped below the join, on each input. The trimmer leaves them in when
     * a filter on an input needed them for its condition (TPC-H Q9's {@code p_name LIKE '%green%'}
     * below its join to lineitem), and the join would copy them into every output row.
     */
    private static RelOptRule projectJoinTranspose() {
        return ProjectJoinTransposeRule.Config.DEFAULT
                // Only column references go down: an expression stays where the join has dropped rows.
                .withPreserveExprCondition(expression -> false)
                .withOperandSupplier(b0 -> b0.operand(org.apache.calcite.rel.logical.LogicalProject.class)
                        .oneInput(b1 -> b1.operand(LogicalJoin.class)
                                .predicate(join -> join.getJoinType() == JoinRelType.INNER
                                        || join.getJoinType() == JoinRelType.LEFT)
                                .anyInputs()))
                .as(ProjectJoinTransposeRule.Config.class).toRule();
    }

    /**
     * Sub-queries to joins, decorrelation, trimming, the logical rewrites, then trimming again: a
     * condition the rewrites pushed from a join into its input leaves a column the join no longer
     * needs (TPC-H Q13's {@code o_comment NOT LIKE ...} from the outer join's ON clause), which
     * would otherwise be carried into the join's build and copied there.
     */
    private static RelNode rewrite(RelNode rel, RelOptCluster cluster, CalciteCatalogReader catalogReader,
                                   SqlToRelConverter converter) {
        HepProgram subQueries = new HepProgramBuilder()
                .addRuleCollection(List.of(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE, CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
                        CoreRules.JOIN_SUB_QUERY_TO_CORRELATE))
                .build();
        RelNode result = hep(subQueries, hep(CORRELATED_EXISTS, rel));
        RelBuilder relBuilder = RelFactories.LOGICAL_BUILDER.create(cluster, catalogReader);
        result = decorrelate(result, relBuilder);
        // Before the first trimming, while the two copies of a sub-query's rows are still alike.
        result = hep(TOTALS_FROM_GROUPS, result);
        result = hep(WINDOWS, result);
        result = hep(GROUPING_SETS, result);
        result = trim(converter, result);
        RelOptRule rightToLeft = JoinCommuteRule.Config.DEFAULT.withSwapOuter(true)
                .withOperandSupplier(b -> b.operand(LogicalJoin.class)
                        .predicate(join -> join.getJoinType() == JoinRelType.RIGHT).anyInputs())
                .as(JoinCommuteRule.Config.class).toRule();
        HepProgram logical = new HepProgramBuilder()
                .addMatchOrder(HepMatchOrder.BOTTOM_UP)
                .addRuleCollection(List.of(
                        CoreRules.UNION_TO_DISTINCT, CoreRules.INTERSECT_TO_DISTINCT, CoreRules.MINUS_TO_DISTINCT,
                        rightToLeft, OrFactoringRule.create(),
                        CoreRules.FILTER_REDUCE_EXPRESSIONS, CoreRules.PROJECT_REDUCE_EXPRESSIONS,
                        CoreRules.JOIN_REDUCE_EXPRESSIONS,
                        CoreRules.FILTER_MERGE, CoreRules.FILTER_PROJECT_TRANSPOSE, CoreRules.FILTER_INTO_JOIN,
                        CoreRules.JOIN_CONDITION_PUSH, CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                        CoreRules.JOIN_PUSH_EXPRESSIONS, CoreRules.JOIN_PUSH_TRANSITIVE_PREDICATES,
                        CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE,
                        CoreRules.AGGREGATE_REMOVE, CoreRules.PROJECT_TO_SEMI_JOIN, CoreRules.JOIN_TO_SEMI_JOIN,
                        AntiJoinRule.create(),
                        PruneEmptyRules.FILTER_INSTANCE, PruneEmptyRules.PROJECT_INSTANCE,
                        PruneEmptyRules.JOIN_LEFT_INSTANCE, PruneEmptyRules.JOIN_RIGHT_INSTANCE,
                        PruneEmptyRules.AGGREGATE_INSTANCE, PruneEmptyRules.SORT_INSTANCE, PruneEmptyRules.UNION_INSTANCE,
                        ValuesReduceRules.filter(), ValuesReduceRules.project()))
                .build();
        result = hep(DISJUNCTIONS, result);
        result = hep(logical, result);
        return hep(TIDY, trim(converter, result));
    }

    /**
     * Calcite's decorrelator, whose failures on shapes it does not handle become 0A000: a correlated
     * {@code IN} under {@code OR} whose sub-query has no column of its own to correlate on (the SQL
     * fuzzing campaign's {@code WHERE i IN (SELECT i FROM c WHERE r.id < 10) OR s IS NULL}) ends in a
     * NullPointerException inside its value generator. Such a query is valid SQL that Columba cannot
     * plan, not an internal error.
     */
    private static RelNode decorrelate(RelNode rel, RelBuilder relBuilder) {
        try {
            return RelDecorrelator.decorrelateQuery(rel, relBuilder);
        } catch (NullPointerException e) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "Columba cannot run a correlated sub-query of"
                    + " this shape yet (a correlated IN or EXISTS under OR whose sub-query is correlated only through"
                    + " the outer query's columns); rewrite it as a join or a UNION of the two conditions", e);
        }
    }

    /**
     * Drops the columns no operator above uses. Calcite's trimmer rejects a window over an input of
     * which no column is used ("Expected identity mapping", an AssertionError where Calcite runs with
     * assertions enabled); the untrimmed plan of that shape has a relation of no column, which
     * Columba cannot run either. A statement error (0A000) rather than an internal one. The shape the
     * SQL fuzzing campaign found, {@code SELECT ROW_NUMBER() OVER (ORDER BY 'x') FROM r}, no longer
     * comes here: {@link ConstantWindowKeysRule} drops the literal key first.
     */
    private static RelNode trim(SqlToRelConverter converter, RelNode rel) {
        try {
            return converter.trimUnusedFields(true, rel);
        } catch (IllegalArgumentException | AssertionError e) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "Columba cannot plan this statement yet:"
                    + " removing the columns it does not use failed (a window function that uses no column of its"
                    + " input is such a statement): "
                    + e.getMessage(), e);
        }
    }

    /**
     * The join-order phase ({@link JoinOrdering}): projections between inner joins pulled up so that
     * each tree of inner joins is one region, the regions reordered by their estimates, then the
     * fields no longer needed trimmed again (pulling projections up widened the joins' inputs).
     */
    private static RelNode orderJoins(RelNode rel, SqlToRelConverter converter) {
        if (innerJoins(rel) < 2) {
            // A region of three factors or more takes two inner joins: with fewer, JoinOrdering would leave
            // the flattened tree as it is and this phase would return rel itself, so neither is done.
            return rel;
        }
        RelNode flat = hep(FLATTEN_JOINS, rel);
        RelNode ordered = JoinOrdering.reorder(flat);
        if (ordered == flat) {
            return rel;
        }
        return hep(TIDY, converter.trimUnusedFields(true, ordered));
    }

    /** Projections between inner joins pulled up, so that each tree of inner joins is one region for JoinOrdering. */
    private static final HepProgram FLATTEN_JOINS = new HepProgramBuilder()
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleCollection(List.of(innerJoinProjectTranspose(true), innerJoinProjectTranspose(false),
                    CoreRules.PROJECT_MERGE, CoreRules.PROJECT_REMOVE))
            .build();

    /** How many inner joins {@code rel}'s tree has (JoinOrdering reorders regions of inner LogicalJoins only). */
    private static int innerJoins(RelNode rel) {
        int[] count = {0};
        new org.apache.calcite.rel.RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER) {
                    count[0]++;
                }
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return count[0];
    }

    /** Calcite's JoinProjectTransposeRule for one input, restricted to inner joins. */
    private static RelOptRule innerJoinProjectTranspose(boolean left) {
        JoinProjectTransposeRule.Config config = left ? JoinProjectTransposeRule.Config.LEFT
                : JoinProjectTransposeRule.Config.RIGHT;
        return config.withOperandSupplier(b0 -> b0.operand(LogicalJoin.class)
                        .predicate(join -> join.getJoinType() == JoinRelType.INNER)
                        .inputs(left ? new org.apache.calcite.plan.RelRule.OperandTransform[] {
                                b1 -> b1.operand(org.apache.calcite.rel.logical.LogicalProject.class).anyInputs()}
                                : new org.apache.calcite.plan.RelRule.OperandTransform[] {
                                b1 -> b1.operand(RelNode.class).anyInputs(),
                                b2 -> b2.operand(org.apache.calcite.rel.logical.LogicalProject.class).anyInputs()}))
                .as(JoinProjectTransposeRule.Config.class).toRule();
    }

    private static RelNode hep(HepProgram program, RelNode rel) {
        HepPlanner planner = new HepPlanner(program, null, true, null, org.apache.calcite.plan.RelOptCostImpl.FACTORY);
        planner.setExecutor(new ColumbaRexExecutor());
        planner.setRoot(rel);
        return planner.findBestExp();
    }

    private static List<RelOptRule> rules(PlanHints hints) {
        List<RelOptRule> rules = new ArrayList<>(List.of(
                ColumbaTableScanRule.CONFIG.toRule(), ColumbaFilterRule.CONFIG.toRule(), ColumbaProjectRule.CONFIG.toRule(),
                ColumbaAggregateRule.CONFIG.toRule(), ColumbaSortRule.CONFIG.toRule(), ColumbaUnionRule.CONFIG.toRule(),
                ColumbaValuesRule.CONFIG.toRule(), ColumbaTableModifyRule.CONFIG.toRule(),
                ColumbaTableFunctionScanRule.CONFIG.toRule(), ColumbaWindowRule.CONFIG.toRule(),
                ColumbaHashJoinRule.create(hints), ColumbaMergeJoinRule.create(hints), ColumbaNestedLoopJoinRule.create(hints),
                ColumbaIndexNestedLoopJoinRule.create(hints),
                RowstoreKeyRangeRule.create(), IndexSeekRule.create(), ColumnstoreFilterRule.create(),
                ProjectIntoScanRule.create(), ProjectFilterIntoScanRule.create(), CountIntoScanRule.create()));
        if (!hints.forceOrder()) {
            // Commuting offers each side as build side or outer side; the projection it adds to restore
            // the column order merges into the projection above, or disappears.
            rules.add(CoreRules.JOIN_COMMUTE);
            rules.add(CoreRules.PROJECT_MERGE);
            rules.add(CoreRules.PROJECT_REMOVE);
        }
        return rules;
    }

    /** Names what Columba cannot run, before the optimizer fails on it with a less helpful message. */
    private static void checkSupported(RelNode logical) {
        logical.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(RelNode other) {
                switch (other) {
                    case Correlate ignored -> throw unsupported("a correlated sub-query that cannot be decorrelated");
                    case TableFunctionScan scan when !ColumbaTableFunctionScan.runs(scan) ->
                            throw unsupported("the table function " + scan.getCall());
                    case Aggregate aggregate when aggregate.getGroupType() != Aggregate.Group.SIMPLE ->
                            throw unsupported("GROUP_ID() with GROUPING SETS, ROLLUP or CUBE");
                    case Aggregate aggregate when !dev.columba.planner.rel.ColumbaAggregate.supported(aggregate) ->
                            throw unsupported(dev.columba.planner.rel.ColumbaAggregate.unsupportedPart(aggregate));
                    case LogicalProject project when RexOver.containsOver(project.getProjects(), null) ->
                            throw unsupported("window functions (OVER) here");
                    case org.apache.calcite.rel.core.Window window when !dev.columba.planner.rel.ColumbaWindow.supported(window) ->
                            throw unsupported("the window functions " + window.groups);
                    default -> {
                    }
                }
                return super.visit(other);
            }

            @Override
            public RelNode visit(LogicalJoin join) {
                return visit((RelNode) join);
            }

            @Override
            public RelNode visit(LogicalProject project) {
                return visit((RelNode) project);
            }

            @Override
            public RelNode visit(org.apache.calcite.rel.logical.LogicalAggregate aggregate) {
                return visit((RelNode) aggregate);
            }

            @Override
            public RelNode visit(org.apache.calcite.rel.logical.LogicalCorrelate correlate) {
                return visit((RelNode) correlate);
            }

            @Override
            public RelNode visit(TableFunctionScan scan) {
                return visit((RelNode) scan);
            }
        });
    }

    private static ColumbaException unsupported(String what) {
        return new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "Columba cannot run " + what + " yet");
    }

    private static PreparedStatementPlan explainPlan(PlannedStatement planned) {
        TableSchema schema = TableSchema.of(Column.notNull("PLAN", SqlType.varchar(4000)));
        List<Object[]> rows = new ArrayList<>();
        for (String line : planned.explain().split("\n")) {
            rows.add(new Object[] {line.length() > 4000 ? line.substring(0, 4000) : line});
        }
        return new PreparedStatementPlan() {
            @Override
            public TableSchema schema() {
                return schema;
            }

            @Override
            public boolean modifies() {
                return false;
            }

            @Override
            public int[] objectIds() {
                return new int[0];
            }

            @Override
            public List<SqlType> parameterTypes() {
                return planned.parameterTypes();
            }

            @Override
            public String explain() {
                return planned.explain();
            }

            @Override
            public boolean reusable() {
                return false;
            }

            @Override
            public Operator instantiate(StatementEnvironment environment, List<Object> parameters) {
                return new ValuesOperator(schema, rows);
            }

            @Override
            public boolean insertsOneRowPerParameterSet() {
                return false;
            }

            @Override
            public Operator instantiateBatch(StatementEnvironment environment, List<List<Object>> parameterSets) {
                throw new ColumbaException(ErrorCode.INTERNAL, "EXPLAIN is not run in batches");
            }
        };
    }

    /** Calcite's message when an INSERT gives a NOT NULL column no value, or a NULL literal. */
    private static final java.util.regex.Pattern NOT_NULLABLE =
            java.util.regex.Pattern.compile("Column '(.*)' has no default value and does not allow NULLs");

    private static final SqlToRelConverter.Config CONVERTER_CONFIG = SqlToRelConverter.config().withTrimUnusedFields(true)
            .withExpand(false).withInSubQueryThreshold(Integer.MAX_VALUE);

    /**
     * Expands a view where a statement names it ({@code ViewTable.toRel}): its text parsed,
     * validated and converted against the statement's own catalog, so a view over views expands
     * all the way down. A view met again inside its own expansion (a cycle made by CREATE OR ALTER)
     * fails with 42000 naming the chain; errors inside a view's query name the view.
     */
    private static final class ViewExpansion implements RelOptTable.ViewExpander {
        private final CalciteCatalogReader catalogReader;
        private final JavaTypeFactoryImpl typeFactory;
        private final RelOptCluster cluster;
        private final java.util.Deque<String> expanding = new java.util.ArrayDeque<>();

        ViewExpansion(CalciteCatalogReader catalogReader, JavaTypeFactoryImpl typeFactory, RelOptCluster cluster) {
            this.catalogReader = catalogReader;
            this.typeFactory = typeFactory;
            this.cluster = cluster;
        }

        @Override
        public RelRoot expandView(RelDataType rowType, String queryString, List<String> schemaPath,
                                  List<String> viewPath) {
            String view = viewPath == null || viewPath.isEmpty() ? "(unnamed)" : viewPath.getLast();
            if (expanding.stream().anyMatch(view::equalsIgnoreCase)) {
                List<String> chain = new ArrayList<>(expanding.reversed());
                chain.add(view);
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "view " + view + " refers to itself: "
                        + String.join(" -> ", chain));
            }
            expanding.push(view);
            SqlNode parsed = ColumbaSqlParser.parse(queryString);
            try {
                SqlValidator validator = newValidator(catalogReader, typeFactory);
                SqlNode validated = validator.validate(parsed);
                SqlToRelConverter converter = new SqlToRelConverter(this, validator, catalogReader, cluster,
                        ColumbaConvertlets.INSTANCE, CONVERTER_CONFIG);
                return converter.convertQuery(validated, false, false);
            } catch (CalciteContextException e) {
                ColumbaException error = validationError(e, parsed);
                throw new ColumbaException(error.errorCode(), "view " + view + ": " + error.getMessage(), e);
            } finally {
                expanding.pop();
            }
        }
    }

    private static ColumbaException validationError(CalciteContextException e, SqlNode statement) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        String message = cause.getMessage() == null ? e.getMessage() : cause.getMessage();
        ErrorCode code;
        java.util.regex.Matcher notNullable = NOT_NULLABLE.matcher(message);
        if (notNullable.matches() && statement instanceof org.apache.calcite.sql.SqlInsert insert
                && insert.getTargetTable() instanceof org.apache.calcite.sql.SqlIdentifier table) {
            // SQL Server's Msg 515, as the insert operator reports a NULL that arrives at run time.
            code = ErrorCode.NULL_NOT_ALLOWED;
            message = "Cannot insert the value NULL into column '" + notNullable.group(1) + "', table '"
                    + table.names.getLast() + "'; column does not allow nulls. INSERT fails.";
        } else if (message.startsWith("Column '") && message.contains("not found")) {
            code = ErrorCode.UNDEFINED_COLUMN;
        } else if ((message.startsWith("Object '") || message.startsWith("Table '")) && message.contains("not found")) {
            code = ErrorCode.OBJECT_NOT_FOUND;
        } else if (message.startsWith("Cannot apply") || message.contains("Cannot assign")
                || message.startsWith("Illegal mixing of types") // CASE or COALESCE results without a common type
                || message.contains("type")
                && (message.contains("cannot") || message.contains("Cannot") || message.contains("incompatible"))) {
            code = ErrorCode.WRONG_TYPE;
        } else {
            code = ErrorCode.INVALID_STATEMENT;
        }
        String position = e.getPosLine() > 0 ? " at line " + e.getPosLine() + ", column " + e.getPosColumn() : "";
        return new ColumbaException(code, message + position, e);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** The SQL kinds {@link #plan} accepts, for the session's dispatch. */
    public static boolean plans(SqlNode statement) {
        SqlNode node = statement instanceof SqlExplain explain ? explain.getExplicandum() : statement;
        if (node instanceof SqlQueryOption option) {
            node = option.query();
        }
        return node.getKind().belongsTo(SqlKind.QUERY) || node instanceof SqlDataChangeOutput || node.getKind() == SqlKind.INSERT
                || node.getKind() == SqlKind.UPDATE || node.getKind() == SqlKind.DELETE;
    }
}
