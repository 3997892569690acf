package dev.columba.jdbc;

import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.ScalarFunction;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import dev.columba.planner.parser.ColumbaSqlParser;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a SQL tool asks a database about itself. Tables, columns, keys and indexes come from the
 * catalog as last committed ({@link CatalogRows}); types from {@link JdbcTypes}; the rest states
 * what Columba's SQL does. Objects Columba does not have (procedures, foreign keys, privileges,
 * user-defined types) are empty result sets with JDBC's columns.
 *
 * <p>Names: identifiers keep the case they were written in and match ignoring case, whether
 * quoted or not; they are quoted with double quotes (the parser also reads SQL Server's brackets).
 * User tables have no schema and no catalog.
 */
final class EmbeddedDatabaseMetaData implements DatabaseMetaData {
    private final EmbeddedConnection connection;

    EmbeddedDatabaseMetaData(EmbeddedConnection connection) {
        this.connection = connection;
    }

    private ResultSet rows(TableSchema schema, List<Object[]> rows) throws SQLException {
        connection.checkOpen();
        return EmbeddedResultSet.ofRows(null, schema, rows);
    }

    private ResultSet catalogRows(TableSchema schema, Function<CatalogRows, List<Object[]>> query)
            throws SQLException {
        connection.checkOpen();
        List<Object[]> rows;
        try {
            rows = query.apply(CatalogRows.read(connection.engine()));
        } catch (RuntimeException | Error e) {
            throw Errors.translate(e);
        }
        return EmbeddedResultSet.ofRows(null, schema, rows);
    }

    private ResultSet none(TableSchema schema) throws SQLException {
        return rows(schema, List.of());
    }

    // ---- the catalog ----------------------------------------------------------------------------

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
            throws SQLException {
        return catalogRows(CatalogRows.TABLES, rows -> rows.tables(catalog, schemaPattern, tableNamePattern, types));
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return catalogRows(CatalogRows.COLUMNS, rows -> rows.columns(catalog, schemaPattern, tableNamePattern,
                columnNamePattern));
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return catalogRows(CatalogRows.PRIMARY_KEYS, rows -> rows.primaryKeys(catalog, schema, table));
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        return catalogRows(CatalogRows.INDEX_INFO, rows -> rows.indexInfo(catalog, schema, table, unique));
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return getSchemas(null, null);
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        // User tables have no schema (null), which JDBC does not list; the system views are the schema sys.
        boolean listed = (catalog == null || catalog.isEmpty())
                && (schemaPattern == null || NamePattern.of(schemaPattern).matches(CatalogRows.SYSTEM_SCHEMA));
        return rows(MetadataSchemas.SCHEMAS, listed ? List.<Object[]>of(new Object[] {CatalogRows.SYSTEM_SCHEMA, null})
                : List.of());
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return none(MetadataSchemas.CATALOGS);
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        return rows(MetadataSchemas.TABLE_TYPES, List.<Object[]>of(new Object[] {CatalogRows.SYSTEM_VIEW_TYPE},
                new Object[] {CatalogRows.TABLE_TYPE}, new Object[] {CatalogRows.VIEW_TYPE}));
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (SqlType type : JdbcTypes.ALL) {
            String quote = switch (type) {
                case SqlType.VarcharType ignored -> "'";
                case SqlType.CharType ignored -> "'";
                case SqlType.DateType ignored -> "DATE '";
                case SqlType.TimestampType ignored -> "TIMESTAMP '";
                case SqlType.VarbinaryType ignored -> "X'";
                case SqlType.BinaryType ignored -> "X'";
                case SqlType.UuidType ignored -> "UUID '";
                case SqlType.BooleanType ignored -> null;
                case SqlType.IntegerType ignored -> null;
                case SqlType.BigintType ignored -> null;
                case SqlType.DoubleType ignored -> null;
                case SqlType.DecimalType ignored -> null;
            };
            String createParameters = switch (type) {
                case SqlType.VarcharType ignored -> "length";
                case SqlType.CharType ignored -> "length";
                case SqlType.VarbinaryType ignored -> "length";
                case SqlType.BinaryType ignored -> "length";
                case SqlType.UuidType ignored -> null;
                case SqlType.DecimalType ignored -> "precision,scale";
                case SqlType.BooleanType ignored -> null;
                case SqlType.IntegerType ignored -> null;
                case SqlType.BigintType ignored -> null;
                case SqlType.DoubleType ignored -> null;
                case SqlType.DateType ignored -> null;
                case SqlType.TimestampType ignored -> null;
            };
            boolean integer = type instanceof SqlType.IntegerType || type instanceof SqlType.BigintType;
            int maximumScale = type instanceof SqlType.DecimalType ? SqlType.DecimalType.MAX_PRECISION
                    : type instanceof SqlType.TimestampType ? JdbcTypes.TIMESTAMP_SCALE : 0;
            rows.add(new Object[] {JdbcTypes.typeName(type), JdbcTypes.jdbcType(type), JdbcTypes.precision(type), quote,
                    quote == null ? null : "'", createParameters, typeNullable, JdbcTypes.isCharacter(type), typeSearchable,
                    !JdbcTypes.isNumeric(type), false, integer, JdbcTypes.typeName(type), 0, maximumScale, null, null,
                    CatalogRows.radix(type)});
        }
        rows.sort(Comparator.comparing(row -> (Integer) row[1]));
        return rows(MetadataSchemas.TYPE_INFO, rows);
    }

    @Override
    public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern) throws SQLException {
        return none(MetadataSchemas.PROCEDURES);
    }

    @Override
    public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern,
                                         String columnNamePattern) throws SQLException {
        return none(MetadataSchemas.PROCEDURE_COLUMNS);
    }

    @Override
    public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) throws SQLException {
        return none(MetadataSchemas.FUNCTIONS);
    }

    @Override
    public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern,
                                        String columnNamePattern) throws SQLException {
        return none(MetadataSchemas.FUNCTION_COLUMNS);
    }

    @Override
    public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
        return none(MetadataSchemas.KEYS);
    }

    @Override
    public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
        return none(MetadataSchemas.KEYS);
    }

    @Override
    public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable,
                                       String foreignCatalog, String foreignSchema, String foreignTable)
            throws SQLException {
        return none(MetadataSchemas.KEYS);
    }

    @Override
    public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern)
            throws SQLException {
        return none(MetadataSchemas.COLUMN_PRIVILEGES);
    }

    @Override
    public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern)
            throws SQLException {
        return none(MetadataSchemas.TABLE_PRIVILEGES);
    }

    /** Columba does not promise a row identifier beyond the primary key, which getPrimaryKeys gives. */
    @Override
    public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable)
            throws SQLException {
        return none(MetadataSchemas.BEST_ROW_IDENTIFIER);
    }

    @Override
    public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
        return none(MetadataSchemas.VERSION_COLUMNS);
    }

    @Override
    public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) throws SQLException {
        return none(MetadataSchemas.UDTS);
    }

    @Override
    public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
        return none(MetadataSchemas.SUPER_TYPES);
    }

    @Override
    public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
        return none(MetadataSchemas.SUPER_TABLES);
    }

    @Override
    public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern,
                                   String attributeNamePattern) throws SQLException {
        return none(MetadataSchemas.ATTRIBUTES);
    }

    @Override
    public ResultSet getClientInfoProperties() throws SQLException {
        return none(MetadataSchemas.CLIENT_INFO_PROPERTIES);
    }

    @Override
    public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern,
                                      String columnNamePattern) throws SQLException {
        return none(MetadataSchemas.PSEUDO_COLUMNS);
    }

    // ---- the product ----------------------------------------------------------------------------

    @Override
    public String getDatabaseProductName() {
        return "Columba";
    }

    @Override
    public String getDatabaseProductVersion() {
        return Version.CURRENT.text();
    }

    @Override
    public int getDatabaseMajorVersion() {
        return Version.CURRENT.major();
    }

    @Override
    public int getDatabaseMinorVersion() {
        return Version.CURRENT.minor();
    }

    @Override
    public String getDriverName() {
        return ColumbaDriver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return Version.CURRENT.text();
    }

    @Override
    public int getDriverMajorVersion() {
        return Version.CURRENT.major();
    }

    @Override
    public int getDriverMinorVersion() {
        return Version.CURRENT.minor();
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 3;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    /** Columba has no users. */
    @Override
    public String getUserName() {
        return "";
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public boolean isReadOnly() {
        return false;
    }

    @Override
    public boolean usesLocalFiles() {
        return true;
    }

    @Override
    public boolean usesLocalFilePerTable() {
        return false;
    }

    // ---- names and SQL text ---------------------------------------------------------------------

    @Override
    public String getIdentifierQuoteString() {
        return "\"";
    }

    @Override
    public String getSearchStringEscape() {
        return NamePattern.ESCAPE;
    }

    @Override
    public String getExtraNameCharacters() {
        return "";
    }

    /** Columba's words beyond SQL:2003's: its DDL and session commands. */
    @Override
    public String getSQLKeywords() {
        return "CHECKPOINT,CLUSTERED,COLUMNSTORE,DBCC,IDENTITY,NONCLUSTERED,PERSISTED,PRINT,REBUILD,REORGANIZE,STATISTICS";
    }

    @Override
    public String getNumericFunctions() {
        return functions(FunctionKind.NUMERIC);
    }

    @Override
    public String getStringFunctions() {
        return functions(FunctionKind.STRING);
    }

    @Override
    public String getSystemFunctions() {
        return "";
    }

    @Override
    public String getTimeDateFunctions() {
        return "CURRENT_DATE,CURRENT_TIMESTAMP,DATEADD,EXTRACT," + functions(FunctionKind.TIME_DATE);
    }

    private enum FunctionKind { NUMERIC, STRING, TIME_DATE }

    /** The built-in scalar functions of one kind, by name. */
    private static String functions(FunctionKind kind) {
        return Stream.of(ScalarFunction.values()).filter(function -> kind(function) == kind)
                .map(function -> function == ScalarFunction.CHAR_LENGTH ? "CHAR_LENGTH,LENGTH" : function.name())
                .collect(Collectors.joining(","));
    }

    private static FunctionKind kind(ScalarFunction function) {
        return switch (function) {
            case ABS, ROUND, FLOOR, CEIL, POWER, SQRT -> FunctionKind.NUMERIC;
            case CHAR_LENGTH, UPPER, LOWER, SUBSTRING, TRIM, LTRIM, RTRIM, REPLACE, REPEAT, POSITION, CONCAT -> FunctionKind.STRING;
            case DATEDIFF -> FunctionKind.TIME_DATE;
        };
    }

    @Override
    public String getSchemaTerm() {
        return "schema";
    }

    @Override
    public String getProcedureTerm() {
        return "procedure";
    }

    @Override
    public String getCatalogTerm() {
        return "catalog";
    }

    @Override
    public boolean isCatalogAtStart() {
        return true;
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    // ---- limits (0: none known) -----------------------------------------------------------------

    @Override
    public int getMaxBinaryLiteralLength() {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() {
        return SqlType.VarcharType.MAX_LENGTH;
    }

    @Override
    public int getMaxColumnNameLength() {
        return ColumbaSqlParser.IDENTIFIER_MAX_LENGTH;
    }

    @Override
    public int getMaxColumnsInGroupBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() {
        return 0;
    }

    @Override
    public int getMaxConnections() {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() {
        return 0;
    }

    @Override
    public int getMaxIndexLength() {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() {
        return ColumbaSqlParser.IDENTIFIER_MAX_LENGTH;
    }

    @Override
    public int getMaxProcedureNameLength() {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() {
        return 0;
    }

    @Override
    public int getMaxRowSize() {
        return 0;
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() {
        return false;
    }

    @Override
    public int getMaxStatementLength() {
        return 0;
    }

    @Override
    public int getMaxStatements() {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() {
        return ColumbaSqlParser.IDENTIFIER_MAX_LENGTH;
    }

    @Override
    public int getMaxTablesInSelect() {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() {
        return 0;
    }

    // ---- SQL ------------------------------------------------------------------------------------

    /** NULL sorts as larger than any value (core's SortKey): last ascending, first descending. */
    @Override
    public boolean nullsAreSortedHigh() {
        return true;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtStart() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() {
        return false;
    }

    @Override
    public boolean nullPlusNonNullIsNull() {
        return true;
    }

    @Override
    public boolean allProceduresAreCallable() {
        return true;
    }

    @Override
    public boolean allTablesAreSelectable() {
        return true;
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() {
        return false;
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() {
        return false;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean supportsConvert(int fromType, int toType) {
        return false;
    }

    @Override
    public boolean supportsTableCorrelationNames() {
        return true;
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() {
        return false;
    }

    @Override
    public boolean supportsExpressionsInOrderBy() {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupBy() {
        return true;
    }

    @Override
    public boolean supportsGroupByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsGroupByBeyondSelect() {
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() {
        return true;
    }

    @Override
    public boolean supportsMultipleResultSets() {
        return false;
    }

    @Override
    public boolean supportsMultipleTransactions() {
        return true;
    }

    @Override
    public boolean supportsNonNullableColumns() {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() {
        return true;
    }

    @Override
    public boolean supportsCoreSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsExtendedSQLGrammar() {
        return false;
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() {
        return false;
    }

    @Override
    public boolean supportsANSI92FullSQL() {
        return false;
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() {
        return false;
    }

    @Override
    public boolean supportsOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsFullOuterJoins() {
        return false;
    }

    /** LEFT (and so RIGHT) outer joins, not FULL. */
    @Override
    public boolean supportsLimitedOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsSchemasInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() {
        return false;
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() {
        return false;
    }

    @Override
    public boolean supportsPositionedDelete() {
        return false;
    }

    @Override
    public boolean supportsPositionedUpdate() {
        return false;
    }

    @Override
    public boolean supportsSelectForUpdate() {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() {
        return false;
    }

    /** Scalar sub-queries that need a single-row check do not plan yet (docs/design/planner.md, "Limits"). */
    @Override
    public boolean supportsSubqueriesInComparisons() {
        return false;
    }

    @Override
    public boolean supportsSubqueriesInExists() {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInIns() {
        return true;
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() {
        return false;
    }

    /** Only those Calcite can decorrelate: not a promise a tool can rely on. */
    @Override
    public boolean supportsCorrelatedSubqueries() {
        return false;
    }

    @Override
    public boolean supportsUnion() {
        return true;
    }

    @Override
    public boolean supportsUnionAll() {
        return true;
    }

    // ---- transactions and results ----------------------------------------------------------------

    /** Results are buffered on the heap before a commit (see {@link EmbeddedConnection}), so they stay open. */
    @Override
    public boolean supportsOpenCursorsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() {
        return true;
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() {
        return true;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_READ_COMMITTED;
    }

    @Override
    public boolean supportsTransactions() {
        return true;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_READ_COMMITTED;
    }

    /** DDL runs in the transaction and rolls back with it. */
    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return true;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return false;
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return false;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() {
        return false;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean ownUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean ownInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersUpdatesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersDeletesAreVisible(int type) {
        return false;
    }

    @Override
    public boolean othersInsertsAreVisible(int type) {
        return false;
    }

    @Override
    public boolean updatesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean deletesAreDetected(int type) {
        return false;
    }

    @Override
    public boolean insertsAreDetected(int type) {
        return false;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsSavepoints() {
        return false;
    }

    @Override
    public boolean supportsNamedParameters() {
        return false;
    }

    @Override
    public boolean supportsMultipleOpenResults() {
        return false;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return true;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() {
        return false;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return false;
    }

    @Override
    public boolean supportsStatementPooling() {
        return false;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() {
        return false;
    }

    /** A failed statement in autocommit mode leaves other results open. */
    @Override
    public boolean autoCommitFailureClosesAllResultSets() {
        return false;
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw Errors.of(ErrorCode.INVALID_ARGUMENT, "Columba's database metadata does not wrap a " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }
}
