package dev.columba.planner.session;

import dev.columba.columnstore.build.ColumnstoreOptions;
import dev.columba.columnstore.file.RowgroupMappings;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.settings.StandardSettings;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.settings.Setting;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.planner.parser.Clustering;
import dev.columba.planner.schema.GeneratedColumns;
import dev.columba.planner.parser.ColumbaSqlParser;
import dev.columba.planner.parser.Nullability;
import dev.columba.planner.parser.SqlAlterIndex;
import dev.columba.planner.parser.SqlAlterTable;
import dev.columba.planner.parser.SqlAlterTableAlterColumn;
import dev.columba.planner.parser.SqlAlterTableColumn;
import dev.columba.planner.parser.SqlAlterTableConstraint;
import dev.columba.planner.parser.SqlAlterTableSetOptions;
import dev.columba.planner.parser.SqlColumnDefinition;
import dev.columba.planner.parser.SqlCreateColumnstoreIndex;
import dev.columba.planner.parser.SqlCreateIndex;
import dev.columba.planner.parser.SqlCreateTable;
import dev.columba.planner.parser.SqlDropIndex;
import dev.columba.planner.parser.SqlDropTable;
import dev.columba.planner.parser.SqlOption;
import dev.columba.planner.parser.SqlDropPartitionObject;
import dev.columba.planner.parser.SqlPartitionFunction;
import dev.columba.planner.parser.SqlPartitionScheme;
import dev.columba.planner.schema.PartitionOptions;
import dev.columba.planner.schema.TablePartitions;
import dev.columba.planner.parser.SqlPrimaryKey;
import dev.columba.planner.parser.SqlTableConstraint;
import dev.columba.planner.schema.TableConstraints;
import dev.columba.planner.exec.TableModifyOperator;
import dev.columba.storage.btree.ReadAheadOptions;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.table.TableCursor;
import dev.columba.storage.table.TableScan;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.ddl.SqlTruncateTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Data definition: tables (rowstore heap or clustered B+tree, or columnstore), indexes, the
 * conversions CREATE CLUSTERED INDEX (heap to B+tree) and CREATE CLUSTERED COLUMNSTORE INDEX
 * (rowstore to columnstore), drops, truncation, options, ALTER COLUMN, REORGANIZE and REBUILD.
 * Every statement runs in a write transaction of the session and commits or rolls back as a whole.
 *
 * <p>IDENTITY and computed columns are recorded in the table's options ({@code identity:<column>}
 * = {@code seed,increment}, {@code computed:<column>} = the expression's SQL) for the planner's
 * INSERT to honour.
 */
final class DdlExecutor {
    static final String IDENTITY_OPTION = GeneratedColumns.IDENTITY_OPTION;
    static final String COMPUTED_OPTION = GeneratedColumns.COMPUTED_OPTION;

    private final Session session;

    DdlExecutor(Session session) {
        this.session = session;
    }

    static boolean handles(SqlNode statement) {
        return statement instanceof SqlCreateTable && ((SqlCreateTable) statement).query().isEmpty()
                || statement instanceof SqlCreateIndex || statement instanceof SqlCreateColumnstoreIndex
                || statement instanceof SqlDropTable || statement instanceof SqlDropIndex
                || statement instanceof SqlAlterIndex || statement instanceof SqlAlterTableSetOptions
                || statement instanceof SqlAlterTableAlterColumn || statement instanceof SqlAlterTableConstraint
                || statement instanceof SqlAlterTableColumn
                || statement instanceof SqlTruncateTable
                || statement instanceof SqlCreateView || statement instanceof SqlDropView
                || statement instanceof SqlPartitionFunction || statement instanceof SqlPartitionScheme
                || statement instanceof SqlDropPartitionObject
                || statement instanceof dev.columba.planner.parser.SqlLogin
                || statement instanceof dev.columba.planner.parser.SqlServerRoleMember;
    }

    private Database database() {
        return session.database();
    }

    private LoginDdl logins() {
        return new LoginDdl(database(), session.login());
    }

    private PartitionDdl partitions() {
        return new PartitionDdl(database());
    }

    StatementResult execute(SqlNode statement) {
        Transaction transaction = session.writeTransaction();
        boolean succeeded = false;
        List<Path> deleteAfterCommit = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        try {
            switch (statement) {
                case SqlCreateTable create -> createTable(transaction, create);
                case SqlCreateIndex create -> createIndex(transaction, create);
                case SqlCreateColumnstoreIndex create -> deleteAfterCommit.addAll(createColumnstoreIndex(transaction, create));
                case SqlDropTable drop -> deleteAfterCommit.addAll(dropTable(transaction, drop.name(), drop.ifExists()));
                case SqlDropIndex drop -> dropIndex(transaction, drop);
                case SqlAlterIndex alter -> messages.add(alterIndex(transaction, alter));
                case SqlAlterTableSetOptions alter -> setOptions(transaction, alter);
                case SqlAlterTableAlterColumn alter -> alterColumn(transaction, alter);
                case SqlAlterTableConstraint alter -> alterConstraint(transaction, alter);
                case SqlAlterTableColumn alter -> deleteAfterCommit.addAll(addOrDropColumn(transaction, alter));
                case SqlTruncateTable truncate -> deleteAfterCommit.addAll(truncate(transaction, truncate));
                case SqlCreateView create -> createView(transaction, create);
                case SqlDropView drop -> dropView(transaction, drop);
                case SqlPartitionFunction function -> partitions().createFunction(transaction, function);
                case SqlPartitionScheme scheme -> partitions().createScheme(transaction, scheme);
                case SqlDropPartitionObject drop -> partitions().drop(transaction, drop);
                case dev.columba.planner.parser.SqlLogin login -> logins().execute(transaction, login);
                case dev.columba.planner.parser.SqlServerRoleMember member -> logins().execute(transaction, member);
                default -> throw new ColumbaException(ErrorCode.INTERNAL, "not a DDL statement: " + statement.getKind());
            }
            succeeded = true;
        } finally {
            session.finishDdl(transaction, succeeded);
        }
        if (!session.inTransaction()) {
            deleteDirectories(deleteAfterCommit);
        }
        rewrittenTable(statement).ifPresent(name -> session.engine().gatherStatistics(session.reader(), simpleName(name)));
        return new StatementResult.Command(messages, StatementStatistics.NONE);
    }

    /**
     * The table a statement (re)built, whose statistics (a clustered table's key bounds, a
     * columnstore table's rowgroup figures) must be gathered again: the planner
     * reads no pages, so it only knows what is gathered when data is written (see StatisticsStore).
     */
    private static Optional<SqlIdentifier> rewrittenTable(SqlNode statement) {
        return switch (statement) {
            case SqlCreateTable create -> Optional.of(create.name());
            case SqlCreateIndex create -> Optional.of(create.table());
            case SqlCreateColumnstoreIndex create -> Optional.of(create.table());
            case SqlAlterIndex alter -> Optional.of(alter.table());
            case SqlAlterTable alter -> Optional.of(alter.table());
            case SqlTruncateTable truncate -> Optional.of((SqlIdentifier) truncate.getOperandList().get(0));
            default -> Optional.empty();
        };
    }

    // ---- views ---------------------------------------------------------------------------------

    /**
     * CREATE [OR ALTER | OR REPLACE] VIEW: plans the query now (its tables and columns must exist, and
     * every column needs a name), and keeps its text, as Columba's parser reads it back, and its
     * columns. OR ALTER / OR REPLACE replaces a view of that name and keeps its object id; any
     * other object of that name is SQL Server's Msg 2714.
     */
    private void createView(Transaction transaction, SqlCreateView create) {
        String name = simpleName(create.name);
        IoCounters counters = transaction.systemCounters();
        Optional<CatalogEntry> existing = database().catalog().byName(transaction.writes(), name, counters);
        if (existing.isPresent() && !(existing.get() instanceof CatalogEntry.View && create.getReplace())) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "There is already an object named '" + name
                    + "' in the database");
        }
        // The text as written, before planning: validation rewrites the tree in place (expanded *,
        // qualified names, implicit casts that do not read back).
        String definition = create.query.toSqlString(ColumbaSqlParser.dialect()).getSql();
        TableSchema columns = session.engine().planner().plan(new SessionCatalog(session), session.settings(), create,
                session.compiling())
                .schema();
        int objectId = existing.isPresent() ? existing.get().objectId()
                : database().catalog().allocateObjectId(transaction.writes(), counters);
        database().catalog().put(transaction.writes(), database().allocator(),
                new CatalogEntry.View(objectId, name, definition, columns), counters);
    }

    private void dropView(Transaction transaction, SqlDropView drop) {
        String name = simpleName(drop.name);
        IoCounters counters = transaction.systemCounters();
        Optional<CatalogEntry> existing = database().catalog().byName(transaction.writes(), name, counters);
        if (existing.isEmpty() || !(existing.get() instanceof CatalogEntry.View view)) {
            if (existing.isPresent()) {
                // SQL Server's Msg 3705.
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "Cannot use DROP VIEW with '" + name
                        + "' because '" + name + "' is not a view");
            }
            if (drop.ifExists) {
                return;
            }
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "view " + name + " does not exist");
        }
        database().catalog().remove(transaction.writes(), database().allocator(), view.objectId(), counters);
    }

    // ---- tables --------------------------------------------------------------------------------

    private void createTable(Transaction transaction, SqlCreateTable create) {
        String name = simpleName(create.name());
        if (create.ifNotExists() && find(transaction, name).isPresent()) {
            return;
        }
        List<Column> columns = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        for (SqlColumnDefinition definition : create.columns()) {
            String column = definition.name().getSimple();
            SqlType type;
            if (definition.isComputed()) {
                SqlNode expression = definition.computedExpression().orElseThrow();
                type = definition.dataType().map(DdlExecutor::typeOf).orElseGet(() -> computedType(expression));
                options.put(COMPUTED_OPTION + column, ColumbaSqlParser.toSql(expression));
            } else {
                type = typeOf(definition.dataType().orElseThrow(() -> new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                        "column " + column + " needs a type")));
            }
            definition.identity().ifPresent(identity -> options.put(IDENTITY_OPTION + column,
                    identity.seed() + "," + identity.increment()));
            if (definition.defaultValue().isPresent()) {
                if (definition.identity().isPresent()) {
                    throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "column " + column
                            + " is an IDENTITY column and cannot also have a DEFAULT");
                }
                checkDefaultNamesNoColumn(column, definition.defaultValue().get());
                options.put(TableConstraints.DEFAULT_OPTION + column,
                        ColumbaSqlParser.toSql(definition.defaultValue().get()));
            }
            boolean nullable = definition.nullability() != Nullability.NOT_NULL && definition.identity().isEmpty()
                    && !isPrimaryKeyColumn(create, column);
            columns.add(new Column(column, type, nullable));
        }
        TableSchema schema = new TableSchema(columns);
        for (SqlOption option : create.options()) {
            options.put(option.name(), option.valueText().orElse("on"));
        }
        Map<String, List<Integer>> uniques = constraintOptions(create, name, schema, options);
        if (!uniques.isEmpty()) {
            boolean columnstore = "columnstore".equalsIgnoreCase(options.getOrDefault("storage", "rowstore"));
            if (columnstore || options.containsKey(PartitionDdl.SCHEME_OPTION) || options.containsKey(PartitionDdl.HASH_OPTION)) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "UNIQUE constraint "
                        + uniques.keySet().iterator().next() + ": a " + (columnstore ? "columnstore" : "partitioned")
                        + " table cannot have UNIQUE constraints yet (they are unique secondary B+tree indexes,"
                        + " which only unpartitioned rowstore tables have); use a rowstore table");
            }
        }
        createStorage(transaction, name, schema, options, create.primaryKey());
        Tables tables = new Tables(database());
        for (Map.Entry<String, List<Integer>> unique : uniques.entrySet()) {
            tables.createIndex(transaction, name, unique.getKey(), unique.getValue(), true);
        }
    }

    /** Fails a DEFAULT that names a column (SQL Server's Msg 128: a default is evaluated without a row). */
    private static void checkDefaultNamesNoColumn(String column, SqlNode defaultValue) {
        defaultValue.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                if (niladicFunction(identifier)) {
                    return null;
                }
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "the DEFAULT of column " + column
                        + " names " + identifier + "; a DEFAULT is a constant expression and cannot name columns");
            }
        });
    }

    /**
     * Records the CHECK and UNIQUE constraints of {@code create} in {@code options}
     * ({@link TableConstraints}), naming those without a name as PostgreSQL does
     * ({@code <table>_<column>_check}, {@code <table>_<columns>_key}, a number added on a clash).
     *
     * @return the UNIQUE constraints' names and key columns, for their indexes
     */
    private Map<String, List<Integer>> constraintOptions(SqlCreateTable create, String table, TableSchema schema,
                                                         Map<String, String> options) {
        Map<String, List<Integer>> uniques = new LinkedHashMap<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        create.primaryKey().flatMap(SqlPrimaryKey::constraintName)
                .ifPresent(pk -> names.add(pk.getSimple().toLowerCase(Locale.ROOT)));
        for (SqlTableConstraint constraint : create.constraints()) {
            String name = constraintName(constraint, table, schema, names);
            switch (constraint.kind()) {
                case CHECK -> {
                    checkNamesColumns(constraint.condition().orElseThrow(), name, table, schema);
                    options.put(TableConstraints.CHECK_OPTION + name,
                            ColumbaSqlParser.toSql(constraint.condition().orElseThrow()));
                }
                case UNIQUE -> {
                    List<Integer> key = uniqueKey(constraint, name, schema);
                    uniques.put(name, key);
                    Map.Entry<String, String> option = TableConstraints.uniqueOption(name,
                            key.stream().map(index -> schema.column(index).name()).toList());
                    options.put(option.getKey(), option.getValue());
                }
            }
        }
        return uniques;
    }

    /**
     * The name of {@code constraint}: the one written, else PostgreSQL's ({@code <table>_<columns>_key},
     * {@code <table>_<column>_check}, a number added to avoid {@code taken}). Adds it to
     * {@code taken} (lower case).
     *
     * @throws ColumbaException OBJECT_ALREADY_EXISTS for a written name already taken
     */
    private static String constraintName(SqlTableConstraint constraint, String table, TableSchema schema,
                                         java.util.Set<String> taken) {
        if (constraint.constraintName().isPresent()) {
            String name = constraint.constraintName().get().getSimple();
            if (!taken.add(name.toLowerCase(Locale.ROOT))) {
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table " + table + " already has a constraint"
                        + " named " + name);
            }
            return name;
        }
        String stem = constraint.kind() == SqlTableConstraint.Kind.UNIQUE
                ? table + "_" + String.join("_", constraint.columns().stream().map(SqlIdentifier::getSimple).toList())
                        + "_key"
                : table + checkedColumn(constraint, schema).map(column -> "_" + column).orElse("") + "_check";
        String name = stem;
        for (int number = 1; !taken.add(name.toLowerCase(Locale.ROOT)); number++) {
            name = stem + number;
        }
        return name;
    }

    /** The UNIQUE constraint's key columns, each named once. */
    private static List<Integer> uniqueKey(SqlTableConstraint constraint, String name, TableSchema schema) {
        List<Integer> key = new ArrayList<>();
        for (SqlIdentifier column : constraint.columns()) {
            int index = columnIndex(schema, column);
            if (key.contains(index)) {
                throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "UNIQUE constraint " + name
                        + " names column " + column.getSimple() + " twice");
            }
            key.add(index);
        }
        return key;
    }

    /**
     * {@code ALTER TABLE t ADD [CONSTRAINT c] UNIQUE (...) | CHECK (...)} and {@code DROP CONSTRAINT c}.
     * A new UNIQUE constraint builds its index from the table's rows (a duplicate fails it with
     * 23505); a new CHECK constraint is checked against every row first (23514 naming the first
     * that fails), as SQL Server's default WITH CHECK does.
     */
    private void alterConstraint(Transaction transaction, SqlAlterTableConstraint alter) {
        CatalogEntry.Table table = table(transaction, alter.table());
        Map<String, String> options = new LinkedHashMap<>(table.options());
        TableConstraints existing = TableConstraints.of(table.schema(), options);
        Tables tables = new Tables(database());
        if (alter.dropped().isPresent()) {
            String wanted = alter.dropped().get().getSimple();
            Optional<String> check = existing.checks().keySet().stream().filter(wanted::equalsIgnoreCase).findFirst();
            Optional<String> unique = existing.uniques().keySet().stream().filter(wanted::equalsIgnoreCase).findFirst();
            if (check.isPresent()) {
                options.remove(TableConstraints.CHECK_OPTION + check.get());
            } else if (unique.isPresent()) {
                options.remove(TableConstraints.UNIQUE_OPTION + unique.get());
                tables.dropIndex(transaction, unique.get());
            } else if (alter.ifExists()) {
                return;
            } else {
                throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + table.name() + " has no constraint named "
                        + wanted);
            }
            tables.setOptions(transaction, table, options);
            return;
        }
        SqlTableConstraint constraint = alter.added().orElseThrow();
        java.util.Set<String> taken = new java.util.HashSet<>();
        existing.checks().keySet().forEach(name -> taken.add(name.toLowerCase(Locale.ROOT)));
        existing.uniques().keySet().forEach(name -> taken.add(name.toLowerCase(Locale.ROOT)));
        String name = constraintName(constraint, table.name(), table.schema(), taken);
        switch (constraint.kind()) {
            case UNIQUE -> {
                if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
                    throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "UNIQUE constraint " + name + ": table "
                            + table.name() + " is a columnstore table, which cannot have UNIQUE constraints yet");
                }
                List<Integer> key = uniqueKey(constraint, name, table.schema());
                tables.createIndex(transaction, table.name(), name, key, true);
                Map.Entry<String, String> option = TableConstraints.uniqueOption(name,
                        key.stream().map(index -> table.schema().column(index).name()).toList());
                options.put(option.getKey(), option.getValue());
            }
            case CHECK -> {
                String condition = ColumbaSqlParser.toSql(constraint.condition().orElseThrow());
                TableModifyOperator.Check check = new dev.columba.planner.plan.QueryPlanner(new SessionCatalog(session),
                        session.settings()).compileConstraints(table.name(),
                                new TableConstraints(Map.of(), Map.of(name, condition), Map.of())).checks().getFirst();
                checkExistingRows(transaction, table, check);
                options.put(TableConstraints.CHECK_OPTION + name, condition);
            }
        }
        tables.setOptions(transaction, table, options);
    }

    /** Fails with 23514 at the first row of {@code table} (as the transaction sees it) that {@code check} rejects. */
    private void checkExistingRows(Transaction transaction, CatalogEntry.Table table, TableModifyOperator.Check check) {
        dev.columba.core.expr.EvaluationContext evaluation =
                dev.columba.core.expr.EvaluationContext.startingNow(java.time.Clock.systemUTC());
        IoCounters counters = transaction.systemCounters();
        if (table.organization() != CatalogEntry.Organization.COLUMNSTORE) {
            TableStore store = new TableStore(table, database().catalog().indexesOf(transaction.writes(), table.objectId(),
                    counters));
            try (TableCursor rows = store.scan(transaction.writes(), TableScan.allocationOrder(ReadAheadOptions.OFF),
                    counters)) {
                while (rows.next()) {
                    check.enforce(rows.row(), evaluation, "ALTER TABLE", table.name());
                }
            }
            return;
        }
        forEachColumnstoreRow(transaction, table, "ADD CONSTRAINT",
                row -> check.enforce(row, evaluation, "ALTER TABLE", table.name()));
    }

    /**
     * Fails CREATE TABLE when CHECK constraint {@code name} names a column the table lacks. (The
     * condition is compiled where rows are written; this catches the usual mistake when it is made.)
     */
    private static void checkNamesColumns(SqlNode condition, String name, String table, TableSchema schema) {
        condition.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                if (schema.indexOf(identifier.names.getLast()) < 0 && !niladicFunction(identifier)) {
                    throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "CHECK constraint " + name + " names column "
                            + identifier + ", which table " + table + " does not have");
                }
                return null;
            }
        });
    }

    /** Names of functions called without parentheses (CURRENT_DATE, LOCALTIMESTAMP, ...), which parse as identifiers. */
    private static final java.util.Set<String> NILADIC_FUNCTIONS = org.apache.calcite.sql.fun.SqlStdOperatorTable.instance()
            .getOperatorList().stream().filter(operator -> operator.getSyntax() == org.apache.calcite.sql.SqlSyntax.FUNCTION_ID)
            .map(operator -> operator.getName().toUpperCase(Locale.ROOT)).collect(java.util.stream.Collectors.toSet());

    private static boolean niladicFunction(SqlIdentifier identifier) {
        return identifier.isSimple() && NILADIC_FUNCTIONS.contains(identifier.getSimple().toUpperCase(Locale.ROOT));
    }

    /** The one column a CHECK condition names, if it names exactly one (for its generated name). */
    private static Optional<String> checkedColumn(SqlTableConstraint check, TableSchema schema) {
        java.util.Set<String> named = new java.util.LinkedHashSet<>();
        check.condition().orElseThrow().accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                int index = schema.indexOf(identifier.names.getLast());
                if (index >= 0) {
                    named.add(schema.column(index).name());
                }
                return null;
            }
        });
        return named.size() == 1 ? Optional.of(named.iterator().next()) : Optional.empty();
    }

    /**
     * Creates table {@code name} in the transaction: a columnstore table when {@code options} say
     * {@code storage = columnstore}, else a rowstore table, clustered on the primary key or a heap.
     * Options whose names hold a colon are the SQL layer's column options, kept for both stores.
     *
     * @return the new table, as an insert writes it
     */
    TableModifyOperator.Target createStorage(Transaction transaction, String name, TableSchema schema,
                                             Map<String, String> tableOptions, Optional<SqlPrimaryKey> primaryKey) {
        Map<String, String> options = new LinkedHashMap<>(tableOptions);
        boolean columnstore = "columnstore".equalsIgnoreCase(options.getOrDefault("storage", "rowstore"));
        if (columnstore) {
            if (options.keySet().stream().anyMatch(key -> key.equals(Tables.FILEGROUP_OPTION) || key.startsWith("partition_"))) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a columnstore table keeps its rowgroups in"
                        + " files of its own under columnstore/; placing it on a filegroup or partitioning it is not supported");
            }
            Map<String, String> columnstoreOptions = new LinkedHashMap<>();
            Map<String, String> columnOptions = new LinkedHashMap<>();
            options.forEach((key, value) -> (key.contains(":") ? columnOptions : columnstoreOptions).put(key, value));
            ColumnstoreOptions parsed = ColumnstoreOptions.parse(columnstoreOptions);
            Map<String, String> stored = new LinkedHashMap<>(parsed.toMap());
            stored.putAll(columnOptions);
            return new TableModifyOperator.ColumnstoreTarget(
                    ColumnstoreTable.create(database(), transaction, name, schema, stored));
        }
        options.remove("storage");
        if (options.containsKey(PartitionDdl.SCHEME_OPTION) || options.containsKey(PartitionDdl.HASH_OPTION)) {
            if (primaryKey.isPresent() && primaryKey.get().clustering() == Clustering.NONCLUSTERED) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "a partitioned table cannot have secondary"
                        + " indexes yet: make its primary key CLUSTERED");
            }
            List<Integer> key = new ArrayList<>();
            primaryKey.ifPresent(pk -> pk.columns().forEach(column -> key.add(columnIndex(schema, column))));
            TablePartitions partitions = partitions().createTable(transaction, name, schema, key, options);
            TableStore parent = new Tables(database()).table(transaction.writes(), name, transaction.systemCounters());
            return new TableModifyOperator.RowstoreTarget(parent, session.engine().statistics(), partitions);
        }
        for (String key : options.keySet()) {
            if (key.startsWith("partition_")) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "option " + key + " is written by ON scheme (column)"
                        + " or PARTITION BY HASH (column) PARTITIONS n, not by hand");
            }
            if (!key.contains(":") && !key.equals(Tables.FILEGROUP_OPTION) && !key.equals(Tables.COMPRESSION_OPTION)) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "unknown table option '" + key
                        + "' for a rowstore table (columnstore tables take storage = columnstore and its options)");
            }
        }
        List<Integer> key = new ArrayList<>();
        primaryKey.ifPresent(pk -> pk.columns().forEach(column -> key.add(columnIndex(schema, column))));
        Tables tables = new Tables(database());
        boolean clustered = primaryKey.isPresent() && primaryKey.get().clustering() != Clustering.NONCLUSTERED;
        TableStore created = tables.createTable(transaction, name, schema, clustered ? key : List.of(), true, options);
        if (primaryKey.isPresent() && !clustered) {
            tables.createIndex(transaction, name, dev.columba.planner.schema.PrimaryKey.nonclusteredIndexName(name), key, true);
            created = tables.table(transaction.writes(), name, transaction.systemCounters());
        }
        return new TableModifyOperator.RowstoreTarget(created, session.engine().statistics(), null);
    }

    private static boolean isPrimaryKeyColumn(SqlCreateTable create, String column) {
        return create.primaryKey().map(pk -> pk.columns().stream().anyMatch(id -> id.getSimple().equalsIgnoreCase(column)))
                .orElse(false);
    }

    /** A computed column's type when none is written: what the expression's SQL says, else VARCHAR. */
    private static SqlType computedType(SqlNode expression) {
        if (expression instanceof org.apache.calcite.sql.SqlBasicCall call
                && call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.CAST
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
            return typeOf(spec);
        }
        throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "give computed column " + expression
                + " a type: write AS CAST(... AS type)");
    }

    static SqlType typeOf(SqlDataTypeSpec spec) {
        if (!(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic)) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "type " + spec + " is not supported");
        }
        SqlTypeName typeName = SqlTypeName.get(basic.getTypeName().getSimple().toUpperCase(Locale.ROOT));
        if (typeName == null) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "type " + spec + " is not supported");
        }
        int precision = basic.getPrecision();
        int scale = basic.getScale();
        if (scale != RelDataType.SCALE_NOT_SPECIFIED && scale < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "type " + spec + ": DECIMAL scale must be 0 or more, was "
                    + scale);
        }
        try {
            return basicType(typeName, precision, scale);
        } catch (IllegalArgumentException e) {
            // SqlType's bounds (lengths 1..8000, precision 1..38, scale up to the precision): the user's type.
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "type " + spec + ": " + e.getMessage());
        }
    }

    private static SqlType basicType(SqlTypeName typeName, int precision, int scale) {
        return switch (typeName) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> SqlType.INT;
            case BIGINT -> SqlType.BIGINT;
            case FLOAT, REAL, DOUBLE -> SqlType.DOUBLE;
            case DECIMAL -> SqlType.decimal(precision < 0 ? 18 : precision, Math.max(0, scale));
            case VARCHAR -> SqlType.varchar(precision < 0 ? SqlType.VarcharType.MAX_LENGTH : precision);
            case CHAR -> SqlType.character(precision < 0 ? 1 : precision);
            case DATE -> SqlType.DATE;
            case TIMESTAMP -> SqlType.TIMESTAMP;
            case VARBINARY -> SqlType.varbinary(precision < 0 ? SqlType.VarbinaryType.MAX_LENGTH : precision);
            case BINARY -> SqlType.binary(precision < 0 ? 1 : precision);
            case UUID -> SqlType.UUID;
            default -> throw new ColumbaException(ErrorCode.WRONG_TYPE, "type " + typeName + " is not supported by Columba");
        };
    }

    private static String simpleName(SqlIdentifier identifier) {
        return identifier.names.get(identifier.names.size() - 1);
    }

    private static int columnIndex(TableSchema schema, SqlIdentifier column) {
        int index = schema.indexOf(column.getSimple());
        if (index < 0) {
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "column " + column.getSimple() + " does not exist");
        }
        return index;
    }

    /** The table called {@code name}; a partition of a partitioned table has no name of its own to SQL. */
    private Optional<CatalogEntry.Table> find(Transaction transaction, String name) {
        return database().catalog().byName(transaction.writes(), name, transaction.systemCounters())
                .filter(entry -> entry instanceof CatalogEntry.Table).map(entry -> (CatalogEntry.Table) entry)
                .filter(table -> !PartitionOptions.partition(table));
    }

    /** The table a statement that changes its definition or storage names; not a partitioned one (not built). */
    private CatalogEntry.Table table(Transaction transaction, SqlIdentifier name) {
        CatalogEntry.Table table = find(transaction, simpleName(name)).orElseThrow(() -> new ColumbaException(
                ErrorCode.OBJECT_NOT_FOUND, "table " + simpleName(name) + " does not exist"));
        if (PartitionOptions.partitioned(table)) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "table " + table.name() + " is partitioned;"
                    + " indexes, truncation, rebuilds and changes of its columns or options are not supported for it yet");
        }
        return table;
    }

    private List<Path> dropTable(Transaction transaction, SqlIdentifier name, boolean ifExists) {
        Optional<CatalogEntry.Table> table = find(transaction, simpleName(name));
        if (table.isEmpty()) {
            if (ifExists) {
                return List.of();
            }
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "table " + simpleName(name) + " does not exist");
        }
        return drop(transaction, table.get());
    }

    private List<Path> drop(Transaction transaction, CatalogEntry.Table table) {
        if (PartitionOptions.partitioned(table)) {
            partitions().dropPartitions(transaction, table);
        }
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            ColumnstoreTable columnstore = ColumnstoreTable.open(database(), table);
            columnstore.drop(transaction);
            return List.of(columnstore.fileDirectory());
        }
        new Tables(database()).dropTable(transaction, table.name());
        return List.of();
    }

    private List<Path> truncate(Transaction transaction, SqlTruncateTable truncate) {
        CatalogEntry.Table table = table(transaction, (SqlIdentifier) truncate.getOperandList().get(0));
        List<CatalogEntry.Index> indexes = database().catalog().indexesOf(transaction.writes(), table.objectId(),
                transaction.systemCounters());
        List<Path> files = drop(transaction, table);
        Tables tables = new Tables(database());
        // TRUNCATE reseeds an identity column, as in SQL Server.
        Map<String, String> options = new LinkedHashMap<>(table.options());
        options.keySet().removeIf(key -> key.startsWith(GeneratedColumns.IDENTITY_LAST_OPTION));
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            ColumnstoreTable.create(database(), transaction, table.name(), table.schema(), options);
        } else {
            tables.createTable(transaction, table.name(), table.schema(), table.keyColumns(), table.uniqueKey(),
                    options);
            for (CatalogEntry.Index index : indexes) {
                tables.createIndex(transaction, table.name(), index.name(), index.keyColumns(), index.descending(),
                    index.unique());
            }
        }
        return files;
    }

    // ---- indexes and conversions -----------------------------------------------------------------

    private void createIndex(Transaction transaction, SqlCreateIndex create) {
        CatalogEntry.Table table = table(transaction, create.table());
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "table " + table.name()
                    + " is a columnstore table; rowstore indexes on it are not supported");
        }
        List<Integer> key = create.columns().stream().map(column -> columnIndex(table.schema(), column)).toList();
        String indexName = simpleName(create.name());
        if (create.clustering() == Clustering.CLUSTERED) {
            if (create.descending().contains(true)) {
                throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "clustered index " + indexName + " has a DESC"
                        + " key column; a table's clustered key is ascending in Columba (a NONCLUSTERED index takes DESC)");
            }
            if (table.organization() == CatalogEntry.Organization.CLUSTERED) {
                throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table " + table.name()
                        + " already has a clustered index; drop and recreate the table to cluster it differently");
            }
            rebuildRowstore(transaction, table, key, create.unique());
            return;
        }
        if (session.settings().get(StandardSettings.MINIMAL_LOGGING)) {
            // Every page of a new index is new: written once, to the data file, not logged.
            transaction.logNewPagesMinimally();
        }
        new Tables(database()).createIndex(transaction, table.name(), indexName, key, create.descending(),
                create.unique());
    }

    /**
     * Rebuilds a rowstore table as a clustered B+tree on {@code key} (or a heap for an empty key):
     * a new table receives every row, gets the old one's secondary indexes, and takes its name.
     */
    private void rebuildRowstore(Transaction transaction, CatalogEntry.Table table, List<Integer> key, boolean unique) {
        rebuildRowstore(transaction, table, key, unique, table.options());
    }

    /** As above, the new table taking {@code options} (a REBUILD WITH (DATA_COMPRESSION = ...)). */
    private void rebuildRowstore(Transaction transaction, CatalogEntry.Table table, List<Integer> key, boolean unique,
                                 Map<String, String> options) {
        Tables tables = new Tables(database());
        IoCounters counters = transaction.systemCounters();
        List<CatalogEntry.Index> indexes = database().catalog().indexesOf(transaction.writes(), table.objectId(), counters);
        String temporary = table.name() + "$rebuild$" + transaction.id();
        TableStore target = tables.createTable(transaction, temporary, table.schema(), key, unique, options);
        TableStore source = new TableStore(table, indexes);
        try (TableCursor rows = source.scan(transaction.writes(), TableScan.allocationOrder(ReadAheadOptions.OFF), counters)) {
            while (rows.next()) {
                target.insert(transaction, rows.row().clone(), counters);
            }
        }
        tables.dropTable(transaction, table.name());
        CatalogEntry renamedFrom = database().catalog().byName(transaction.writes(), temporary, counters).orElseThrow();
        tables.rename(transaction, renamedFrom, table.name());
        for (CatalogEntry.Index index : indexes) {
            tables.createIndex(transaction, table.name(), index.name(), index.keyColumns(), index.descending(),
                    index.unique());
        }
    }

    private List<Path> createColumnstoreIndex(Transaction transaction, SqlCreateColumnstoreIndex create) {
        if (!create.clustered()) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    "nonclustered columnstore indexes are not supported; create a CLUSTERED COLUMNSTORE INDEX");
        }
        CatalogEntry.Table table = table(transaction, create.table());
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table " + table.name() + " is already a columnstore table");
        }
        if (!TableConstraints.of(table.schema(), table.options()).uniques().isEmpty()) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "table " + table.name() + " has UNIQUE constraints "
                    + TableConstraints.of(table.schema(), table.options()).uniques().keySet()
                    + ", which a columnstore table cannot enforce yet");
        }
        IoCounters counters = transaction.systemCounters();
        Map<String, String> options = new LinkedHashMap<>();
        for (SqlOption option : create.options()) {
            options.put(option.name(), option.valueText().orElse("on"));
        }
        Map<String, String> stored = new LinkedHashMap<>(ColumnstoreOptions.parse(options).toMap());
        table.options().forEach((key, value) -> {
            if (key.contains(":")) {
                stored.put(key, value);
            }
        });
        String temporary = table.name() + "$columnstore$" + transaction.id();
        ColumnstoreTable target = ColumnstoreTable.create(database(), transaction, temporary, table.schema(), stored);
        List<CatalogEntry.Index> indexes = database().catalog().indexesOf(transaction.writes(), table.objectId(), counters);
        TableStore source = new TableStore(table, indexes);
        try (TableCursor rows = source.scan(transaction.writes(), TableScan.allocationOrder(ReadAheadOptions.OFF), counters)) {
            target.bulkInsert(transaction, new java.util.Iterator<>() {
                private Boolean pending;

                @Override
                public boolean hasNext() {
                    if (pending == null) {
                        pending = rows.next();
                    }
                    return pending;
                }

                @Override
                public Object[] next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException();
                    }
                    pending = null;
                    return rows.row().clone();
                }
            });
        }
        new Tables(database()).dropTable(transaction, table.name());
        CatalogEntry renamedFrom = database().catalog().byName(transaction.writes(), temporary, counters).orElseThrow();
        new Tables(database()).rename(transaction, renamedFrom, table.name());
        return List.of();
    }

    private void dropIndex(Transaction transaction, SqlDropIndex drop) {
        String name = simpleName(drop.name());
        Optional<CatalogEntry> entry = database().catalog().byName(transaction.writes(), name, transaction.systemCounters());
        if (entry.isEmpty() || !(entry.get() instanceof CatalogEntry.Index)) {
            if (drop.ifExists()) {
                return;
            }
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "index " + name + " does not exist"
                    + (entry.isPresent() ? " (" + name + " is a table; a clustered index goes with its table)" : ""));
        }
        CatalogEntry.Index index = (CatalogEntry.Index) entry.get();
        database().catalog().byId(transaction.writes(), index.tableId(), transaction.systemCounters())
                .filter(owner -> owner instanceof CatalogEntry.Table).map(owner -> (CatalogEntry.Table) owner)
                .filter(owner -> owner.options().containsKey(TableConstraints.UNIQUE_OPTION + index.name()))
                .ifPresent(owner -> {
                    // SQL Server's Msg 3723.
                    throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "An explicit DROP INDEX is not allowed on"
                            + " index '" + owner.name() + "." + index.name() + "'. It is being used for UNIQUE KEY"
                            + " constraint enforcement.");
                });
        new Tables(database()).dropIndex(transaction, name);
    }

    private String alterIndex(Transaction transaction, SqlAlterIndex alter) {
        CatalogEntry.Table table = table(transaction, alter.table());
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            ColumnstoreTable columnstore = ColumnstoreTable.open(database(), table);
            ColumnstoreTable.Maintenance done = switch (alter.action()) {
                case REORGANIZE -> columnstore.reorganize(transaction, alter.option("compress_all_row_groups")
                        .flatMap(SqlOption::valueText).map(value -> value.equalsIgnoreCase("on")).orElse(false));
                case REBUILD -> columnstore.rebuild(transaction);
            };
            return String.format(Locale.ROOT, "%s: %d delta rowgroups compressed, %d rowgroups rewritten into %d, %d rows.",
                    alter.action(), done.deltasCompressed(), done.rowgroupsMerged(), done.rowgroupsWritten(),
                    done.rowsRewritten());
        }
        if (alter.action() == SqlAlterIndex.Action.REORGANIZE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "REORGANIZE applies to columnstore tables; "
                    + "use ALTER INDEX ... REBUILD to rebuild rowstore table " + table.name());
        }
        Map<String, String> options = new LinkedHashMap<>(table.options());
        for (SqlOption option : alter.options()) {
            if (!option.name().equals(Tables.COMPRESSION_OPTION)) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "REBUILD of rowstore table " + table.name()
                        + " takes the option " + Tables.COMPRESSION_OPTION + " only, not '" + option.name() + "'");
            }
            String value = option.valueText().orElse("");
            // Checked here, before any row is copied.
            options.put(Tables.COMPRESSION_OPTION, dev.columba.storage.heap.DataCompression.parse(value).name());
        }
        rebuildRowstore(transaction, table, table.keyColumns(), table.uniqueKey(), options);
        return "REBUILD: table " + table.name() + " rebuilt" + (options.containsKey(Tables.COMPRESSION_OPTION)
                ? " with DATA_COMPRESSION = " + Tables.compression(options) : "") + ".";
    }

    private void setOptions(Transaction transaction, SqlAlterTableSetOptions alter) {
        CatalogEntry.Table table = table(transaction, (SqlIdentifier) alter.getOperandList().get(0));
        Map<String, String> options = new LinkedHashMap<>(table.options());
        for (SqlOption option : alter.options()) {
            options.put(option.name(), option.valueText().orElse("on"));
        }
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            Map<String, String> columnstoreOptions = new LinkedHashMap<>();
            Map<String, String> columnOptions = new LinkedHashMap<>();
            options.forEach((key, value) -> (key.contains(":") ? columnOptions : columnstoreOptions).put(key, value));
            Map<String, String> stored = new LinkedHashMap<>(ColumnstoreOptions.parse(columnstoreOptions).toMap());
            stored.putAll(columnOptions);
            options = stored;
        } else {
            for (String key : options.keySet()) {
                if (!key.contains(":")) {
                    throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "unknown option '" + key + "' for rowstore table "
                            + table.name());
                }
            }
        }
        new Tables(database()).setOptions(transaction, table, options);
    }

    /**
     * {@code ALTER TABLE t ALTER COLUMN c type [NOT] NULL}: a change of nullability, or of type among
     * the integer types, checked against every row, by rebuilding the table.
     */
    private void alterColumn(Transaction transaction, SqlAlterTableAlterColumn alter) {
        CatalogEntry.Table table = table(transaction, (SqlIdentifier) alter.getOperandList().get(0));
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "ALTER COLUMN on columnstore table " + table.name()
                    + " is not supported");
        }
        int column = columnIndex(table.schema(), alter.column());
        Column old = table.schema().column(column);
        SqlType type = typeOf(alter.dataType());
        boolean nullable = alter.nullability() != Nullability.NOT_NULL;
        boolean integers = (old.type() instanceof SqlType.IntegerType || old.type() instanceof SqlType.BigintType)
                && (type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType);
        if (!old.type().equals(type) && !integers) {
            throw new ColumbaException(ErrorCode.WRONG_TYPE, "ALTER COLUMN can change nullability, or switch between INT "
                    + "and BIGINT; " + old.type().sqlName() + " to " + type.sqlName() + " is not supported");
        }
        List<Column> columns = new ArrayList<>(table.schema().columns());
        columns.set(column, new Column(old.name(), type, nullable));
        try {
            rewrite(transaction, table, new TableSchema(columns), table.keyColumns(), table.options(), index -> index,
                    row -> {
                        Object value = row[column];
                        if (value instanceof Long number && type instanceof SqlType.IntegerType) {
                            row[column] = Math.toIntExact(number);
                        } else if (value instanceof Integer number && type instanceof SqlType.BigintType) {
                            row[column] = number.longValue();
                        }
                        return row;
                    });
        } catch (ArithmeticException e) {
            throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "a value of column " + old.name()
                    + " does not fit " + type.sqlName());
        }
    }

    // ---- ADD COLUMN and DROP COLUMN ------------------------------------------------------------

    /**
     * {@code ALTER TABLE t ADD [COLUMN] c type [NULL | NOT NULL] [DEFAULT x]} and
     * {@code ALTER TABLE t DROP [COLUMN] [IF EXISTS] c}, on both storage kinds, by rewriting the
     * table: a new table of the new schema receives every row and takes the old one's name, its
     * secondary indexes and its options (docs/design/planner.md, "ADD COLUMN and DROP COLUMN").
     * The rows a table already has take the new column's DEFAULT, evaluated once, or NULL without
     * one, as in PostgreSQL and DuckDB.
     *
     * @return the dropped columnstore table's file directory, to delete once the transaction commits
     */
    private List<Path> addOrDropColumn(Transaction transaction, SqlAlterTableColumn alter) {
        CatalogEntry.Table table = table(transaction, alter.table());
        if (alter.added().isPresent()) {
            return addColumn(transaction, table, alter.added().get());
        }
        String wanted = alter.dropped().orElseThrow().getSimple();
        int column = table.schema().indexOf(wanted);
        if (column < 0) {
            if (alter.ifExists()) {
                return List.of();
            }
            throw new ColumbaException(ErrorCode.UNDEFINED_COLUMN, "table " + table.name() + " has no column " + wanted);
        }
        return dropColumn(transaction, table, column);
    }

    private List<Path> addColumn(Transaction transaction, CatalogEntry.Table table, SqlColumnDefinition definition) {
        String column = definition.name().getSimple();
        if (table.schema().indexOf(column) >= 0) {
            throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "table " + table.name() + " already has a column"
                    + " named " + column);
        }
        if (definition.isComputed() || definition.identity().isPresent()) {
            throw new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "ALTER TABLE " + table.name() + " ADD COLUMN "
                    + column + ": a computed or IDENTITY column can only be given when the table is created");
        }
        SqlType type = typeOf(definition.dataType().orElseThrow());
        boolean nullable = definition.nullability() != Nullability.NOT_NULL;
        Map<String, String> options = new LinkedHashMap<>(table.options());
        Object filled = null;
        if (definition.defaultValue().isPresent()) {
            checkDefaultNamesNoColumn(column, definition.defaultValue().get());
            String sql = ColumbaSqlParser.toSql(definition.defaultValue().get());
            options.put(TableConstraints.DEFAULT_OPTION + column, sql);
            dev.columba.core.expr.Expr expression = new dev.columba.planner.plan.QueryPlanner(new SessionCatalog(session),
                    session.settings()).compileExpression(table.name(), sql, "DEFAULT of column " + column);
            Object value = dev.columba.core.expr.Evaluator.evaluate(expression, new Object[table.schema().size()],
                    dev.columba.core.expr.EvaluationContext.startingNow(java.time.Clock.systemUTC()));
            Column target = new Column(column, type, nullable);
            filled = value == null || expression.type().equals(type) ? value
                    : dev.columba.planner.exec.StoreAssignment.convert(value, expression.type(), target, table.name());
        }
        if (filled == null && !nullable && hasRows(transaction, table)) {
            // PostgreSQL's 23502 (SQL Server's Msg 4901): the rows already there would hold NULL.
            throw new ColumbaException(ErrorCode.NULL_NOT_ALLOWED, "ALTER TABLE " + table.name() + " ADD COLUMN " + column
                    + ": column " + column + " is NOT NULL without a DEFAULT, and the table has rows; give it a DEFAULT"
                    + " or allow NULL");
        }
        List<Column> columns = new ArrayList<>(table.schema().columns());
        columns.add(new Column(column, type, nullable));
        Object value = filled;
        int width = columns.size();
        return rewrite(transaction, table, new TableSchema(columns), table.keyColumns(), options, index -> index,
                row -> {
                    Object[] widened = java.util.Arrays.copyOf(row, width);
                    widened[width - 1] = value;
                    return widened;
                });
    }

    private List<Path> dropColumn(Transaction transaction, CatalogEntry.Table table, int column) {
        String name = table.schema().column(column).name();
        if (table.schema().size() == 1) {
            throw new ColumbaException(ErrorCode.INVALID_STATEMENT, "ALTER TABLE " + table.name() + " DROP COLUMN " + name
                    + ": it is the table's only column (drop the table instead)");
        }
        IoCounters counters = transaction.systemCounters();
        if (table.keyColumns().contains(column)) {
            throw dependsOn(table, name, "the table's clustered key (its primary key)");
        }
        for (CatalogEntry.Index index : database().catalog().indexesOf(transaction.writes(), table.objectId(), counters)) {
            if (index.keyColumns().contains(column)) {
                throw dependsOn(table, name, "index " + index.name());
            }
        }
        TableConstraints constraints = TableConstraints.of(table.schema(), table.options());
        for (Map.Entry<String, String> check : constraints.checks().entrySet()) {
            if (namesColumn(TableConstraints.expression(check.getValue(), "CHECK constraint " + check.getKey(),
                    table.name()), name)) {
                throw dependsOn(table, name, "CHECK constraint " + check.getKey());
            }
        }
        GeneratedColumns generated = GeneratedColumns.of(table.schema(), table.options());
        for (int computed : generated.computed().keySet()) {
            if (namesColumn(generated.expression(computed, table.name()), name)) {
                throw dependsOn(table, name, "computed column " + table.schema().column(computed).name());
            }
        }
        Map<String, String> options = new LinkedHashMap<>(table.options());
        // Options of one column are keyed "<kind>:<column>".
        options.keySet().removeIf(key -> key.contains(":") && key.substring(key.indexOf(':') + 1).equalsIgnoreCase(name));
        List<Column> columns = new ArrayList<>(table.schema().columns());
        columns.remove(column);
        java.util.function.IntUnaryOperator moved = index -> index < column ? index : index - 1;
        List<Integer> key = table.keyColumns().stream().map(moved::applyAsInt).toList();
        return rewrite(transaction, table, new TableSchema(columns), key, options, moved, row -> {
            Object[] narrowed = new Object[row.length - 1];
            System.arraycopy(row, 0, narrowed, 0, column);
            System.arraycopy(row, column + 1, narrowed, column, row.length - column - 1);
            return narrowed;
        });
    }

    private static ColumbaException dependsOn(CatalogEntry.Table table, String column, String dependent) {
        // SQL Server's Msg 5074; PostgreSQL would drop the dependent object with CASCADE only.
        return new ColumbaException(ErrorCode.INVALID_STATEMENT, "ALTER TABLE " + table.name() + " DROP COLUMN " + column
                + " failed: " + dependent + " depends on column " + column + "; drop it first");
    }

    private static boolean namesColumn(SqlNode expression, String column) {
        boolean[] found = {false};
        expression.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier identifier) {
                found[0] |= identifier.names.getLast().equalsIgnoreCase(column);
                return null;
            }
        });
        return found[0];
    }

    private boolean hasRows(Transaction transaction, CatalogEntry.Table table) {
        IoCounters counters = transaction.systemCounters();
        if (table.organization() != CatalogEntry.Organization.COLUMNSTORE) {
            TableStore store = new TableStore(table, database().catalog().indexesOf(transaction.writes(), table.objectId(),
                    counters));
            try (TableCursor rows = store.scan(transaction.writes(), TableScan.allocationOrder(ReadAheadOptions.OFF),
                    counters)) {
                return rows.next();
            }
        }
        try (ColumnstoreRows rows = new ColumnstoreRows(transaction, table, "ADD COLUMN")) {
            return rows.hasNext();
        }
    }

    /**
     * Replaces {@code table} by a table of {@code schema}, clustered on {@code key}, with
     * {@code options}, holding each of its rows through {@code reshape}; its secondary indexes are
     * built again on the columns {@code moved} gives.
     */
    private List<Path> rewrite(Transaction transaction, CatalogEntry.Table table, TableSchema schema, List<Integer> key,
                               Map<String, String> options, java.util.function.IntUnaryOperator moved,
                               java.util.function.UnaryOperator<Object[]> reshape) {
        IoCounters counters = transaction.systemCounters();
        Tables tables = new Tables(database());
        String temporary = table.name() + "$alter$" + transaction.id();
        if (table.organization() == CatalogEntry.Organization.COLUMNSTORE) {
            ColumnstoreTable target = ColumnstoreTable.create(database(), transaction, temporary, schema, options);
            try (ColumnstoreRows rows = new ColumnstoreRows(transaction, table, "ALTER TABLE")) {
                target.bulkInsert(transaction, new java.util.Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return rows.hasNext();
                    }

                    @Override
                    public Object[] next() {
                        return reshape.apply(rows.next());
                    }
                });
            }
            List<Path> files = drop(transaction, table);
            tables.rename(transaction, database().catalog().byName(transaction.writes(), temporary, counters).orElseThrow(),
                    table.name());
            return files;
        }
        List<CatalogEntry.Index> indexes = database().catalog().indexesOf(transaction.writes(), table.objectId(), counters);
        TableStore target = tables.createTable(transaction, temporary, schema, key, table.uniqueKey(), options);
        try (TableCursor rows = new TableStore(table, indexes).scan(transaction.writes(),
                TableScan.allocationOrder(ReadAheadOptions.OFF), counters)) {
            while (rows.next()) {
                target.insert(transaction, reshape.apply(rows.row().clone()), counters);
            }
        }
        tables.dropTable(transaction, table.name());
        tables.rename(transaction, database().catalog().byName(transaction.writes(), temporary, counters).orElseThrow(),
                table.name());
        for (CatalogEntry.Index index : indexes) {
            tables.createIndex(transaction, table.name(), index.name(),
                    index.keyColumns().stream().map(moved::applyAsInt).toList(), index.descending(), index.unique());
        }
        return List.of();
    }

    /** Calls {@code visitor} with each row of columnstore table {@code table} as the transaction sees it. */
    private void forEachColumnstoreRow(Transaction transaction, CatalogEntry.Table table, String statement,
                                       java.util.function.Consumer<Object[]> visitor) {
        try (ColumnstoreRows rows = new ColumnstoreRows(transaction, table, statement)) {
            while (rows.hasNext()) {
                visitor.accept(rows.next());
            }
        }
    }

    /**
     * The rows of a columnstore table as the transaction sees them, one array each, for the
     * statements that rewrite or check a table row by row.
     */
    private final class ColumnstoreRows implements java.util.Iterator<Object[]>, AutoCloseable {
        private final TableSchema schema;
        private final org.apache.arrow.memory.BufferAllocator allocator;
        private final dev.columba.columnstore.scan.ColumnstoreScan scan;
        private dev.columba.core.batch.Batch batch;
        private int rowInBatch;

        ColumnstoreRows(Transaction transaction, CatalogEntry.Table table, String statement) {
            this.schema = table.schema();
            this.allocator = session.engine().memory().child(statement + " " + table.name(), Long.MAX_VALUE);
            try {
                this.scan = new dev.columba.columnstore.scan.ColumnstoreScan(ColumnstoreTable.open(database(), table),
                        transaction.writes(), dev.columba.columnstore.scan.ScanOptions.all(schema.size()),
                        transaction.systemCounters(), allocator);
            } catch (RuntimeException e) {
                allocator.close();
                throw e;
            }
        }

        @Override
        public boolean hasNext() {
            while (batch == null || rowInBatch == batch.selectedCount()) {
                // The scan's batch is valid until its next call; every row is copied out before it.
                batch = scan.next();
                rowInBatch = 0;
                if (batch == null) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            int position = batch.selectedRow(rowInBatch++);
            Object[] row = new Object[schema.size()];
            for (int column = 0; column < row.length; column++) {
                row[column] = dev.columba.core.batch.VectorValues.get(batch.column(column), position,
                        schema.column(column).type());
            }
            return row;
        }

        @Override
        public void close() {
            try {
                scan.close();
            } finally {
                allocator.close();
            }
        }
    }

    // ---- files and settings ---------------------------------------------------------------------

    private void deleteDirectories(List<Path> directories) {
        for (Path directory : directories) {
            // A kept mapping would hold a deleted file's space until it was unmapped.
            RowgroupMappings.of(database()).forgetUnder(directory);
            if (!Files.exists(directory)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(directory)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (IOException e) {
                throw new ColumbaException(ErrorCode.IO_ERROR, "dropped table's files in " + directory
                        + " could not be deleted: " + e.getMessage(), e);
            }
        }
    }

    /** Writes an ALTER SYSTEM SET value into the database's stored settings. */
    static void persistGlobalSettings(Database database, Setting<?> setting, String value) {
        database.persistSetting(setting.name(), value);
    }
}
