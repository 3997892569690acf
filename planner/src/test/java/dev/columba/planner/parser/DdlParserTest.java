package dev.columba.planner.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.ddl.SqlTruncateTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** CREATE, DROP, ALTER and TRUNCATE parse to Columba's DDL nodes with the right parts. */
class DdlParserTest {

    @Test
    void serverRoleMembershipInSqlServersAndPostgresqlsWords() {
        SqlServerRoleMember add = RoundTrip.parse("ALTER SERVER ROLE sysadmin ADD MEMBER alice", SqlServerRoleMember.class);
        assertEquals("sysadmin", add.role());
        assertTrue(add.add());
        assertEquals("alice", add.member());
        assertFalse(RoundTrip.parse("alter server role SYSADMIN drop member bob", SqlServerRoleMember.class).add());

        SqlLogin superuser = RoundTrip.parse("CREATE USER carol WITH SUPERUSER PASSWORD 'c'", SqlLogin.class);
        assertEquals(Optional.of(true), superuser.superuser());
        assertEquals(Optional.of("c"), superuser.password());
        assertEquals("CREATE USER [carol] WITH SUPERUSER PASSWORD '***'", RoundTrip.written(
                "CREATE USER carol SUPERUSER PASSWORD 'c'"));
        SqlLogin demoted = RoundTrip.parse("ALTER USER carol NOSUPERUSER", SqlLogin.class);
        assertEquals(Optional.of(false), demoted.superuser());
        assertEquals(Optional.empty(), demoted.password());
        assertEquals(Optional.empty(), RoundTrip.parse("CREATE LOGIN d WITH PASSWORD = 'x'", SqlLogin.class).superuser());

        ColumbaParseException unknown = assertThrows(ColumbaParseException.class,
                () -> ColumbaSqlParser.parse("CREATE USER e WITH CREATEDB PASSWORD 'x'"));
        assertTrue(unknown.getMessage().contains("take SUPERUSER, NOSUPERUSER and PASSWORD 'password', not CREATEDB"),
                unknown.getMessage());
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("CREATE USER e WITH SUPERUSER"));
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("DROP USER e SUPERUSER"));
    }

    @Test
    void uniqueAndCheckConstraintsAtColumnAndTableLevel() {
        SqlCreateTable create = RoundTrip.parse("""
                CREATE TABLE t (
                    id INT NOT NULL PRIMARY KEY,
                    z INTEGER UNIQUE,
                    c INT CONSTRAINT c_positive CHECK (c > 0) DEFAULT 1,
                    d VARCHAR(10) CONSTRAINT d_default DEFAULT 'x' NOT NULL,
                    CONSTRAINT t_pair UNIQUE NONCLUSTERED (c, d),
                    CHECK (z < c OR z IS NULL)
                )""", SqlCreateTable.class);
        List<SqlTableConstraint> constraints = create.constraints();
        assertEquals(4, constraints.size());
        assertEquals(SqlTableConstraint.Kind.UNIQUE, constraints.get(0).kind());
        assertTrue(constraints.get(0).constraintName().isEmpty());
        assertEquals(List.of("z"), constraints.get(0).columns().stream().map(SqlIdentifier::getSimple).toList());
        assertEquals(SqlTableConstraint.Kind.CHECK, constraints.get(1).kind());
        assertEquals("c_positive", constraints.get(1).constraintName().orElseThrow().getSimple());
        assertEquals("t_pair", constraints.get(2).constraintName().orElseThrow().getSimple());
        assertEquals(List.of("c", "d"), constraints.get(2).columns().stream().map(SqlIdentifier::getSimple).toList());
        assertTrue(constraints.get(3).condition().isPresent());
        assertEquals("1", ((SqlLiteral) create.columns().get(2).defaultValue().orElseThrow()).toValue());
        assertEquals(Nullability.NOT_NULL, create.columns().get(3).nullability());
        assertTrue(create.primaryKey().isPresent());

        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("CREATE TABLE t (z INT UNIQUE CLUSTERED)"));
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("CREATE TABLE t (z INT CONSTRAINT k)"));
        SqlAlterTableConstraint add = RoundTrip.parse("ALTER TABLE t ADD CONSTRAINT k CHECK (z > 1)",
                SqlAlterTableConstraint.class);
        assertEquals(SqlTableConstraint.Kind.CHECK, add.added().orElseThrow().kind());
        SqlAlterTableConstraint drop = RoundTrip.parse("ALTER TABLE t DROP CONSTRAINT IF EXISTS k",
                SqlAlterTableConstraint.class);
        assertTrue(drop.ifExists());
        assertEquals("k", drop.dropped().orElseThrow().getSimple());
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("ALTER TABLE t ADD PRIMARY KEY (z)"));
    }

    @Test
    void createTableWithEveryColumnFeature() {
        SqlCreateTable create = RoundTrip.parse("""
                CREATE TABLE sales.orders (
                    id BIGINT IDENTITY (100, -2) PRIMARY KEY NONCLUSTERED,
                    customer INT NOT NULL DEFAULT 0,
                    note NVARCHAR(200) NULL,
                    total DECIMAL(12, 2),
                    label AS UPPER(note),
                    doubled AS (total * 2) PERSISTED NOT NULL
                )""", SqlCreateTable.class);
        assertEquals(SqlKind.CREATE_TABLE, create.getKind());
        assertEquals(List.of("sales", "orders"), create.name().names);
        assertFalse(create.ifNotExists());
        assertFalse(create.getReplace());
        assertTrue(create.query().isEmpty());

        List<SqlColumnDefinition> columns = create.columns();
        assertEquals(6, columns.size());
        SqlColumnDefinition id = columns.get(0);
        assertEquals(new SqlColumnDefinition.Identity(100, -2), id.identity().orElseThrow());
        assertEquals(Nullability.UNSPECIFIED, id.nullability());

        SqlColumnDefinition customer = columns.get(1);
        assertEquals(Nullability.NOT_NULL, customer.nullability());
        assertEquals("0", ((SqlLiteral) customer.defaultValue().orElseThrow()).toValue());
        assertTrue(customer.identity().isEmpty());

        assertEquals(Nullability.NULLABLE, columns.get(2).nullability());
        assertType(SqlTypeName.VARCHAR, 200, columns.get(2).dataType().orElseThrow());
        SqlBasicTypeNameSpec total = (SqlBasicTypeNameSpec) columns.get(3).dataType().orElseThrow().getTypeNameSpec();
        assertEquals(12, total.getPrecision());
        assertEquals(2, total.getScale());

        SqlColumnDefinition label = columns.get(4);
        assertTrue(label.isComputed());
        assertFalse(label.persisted());
        assertTrue(label.dataType().isEmpty());
        assertEquals("UPPER([note])", ColumbaSqlParser.toSql(label.computedExpression().orElseThrow()));
        SqlColumnDefinition doubled = columns.get(5);
        assertTrue(doubled.persisted());
        assertEquals(Nullability.NOT_NULL, doubled.nullability());

        SqlPrimaryKey key = create.primaryKey().orElseThrow();
        assertEquals(Clustering.NONCLUSTERED, key.clustering());
        assertEquals(List.of("id"), key.columns().stream().map(SqlIdentifier::getSimple).toList());
        assertTrue(key.constraintName().isEmpty());
    }

    private static final String TABLE_WITH_OPTIONS = """
            CREATE TABLE IF NOT EXISTS t (a INT, b INT,
                CONSTRAINT pk_t PRIMARY KEY CLUSTERED (a ASC, b))
            WITH (storage = columnstore, dictionary_overflow = trim, compression = archive,
                  rowgroup_max_rows = 1048576, label = 'x y', enabled = true)""";

    @Test
    void tableConstraintPrimaryKeyAndOptions() {
        SqlCreateTable create = RoundTrip.parse(TABLE_WITH_OPTIONS, SqlCreateTable.class);
        assertTrue(create.ifNotExists());
        SqlPrimaryKey key = create.primaryKey().orElseThrow();
        assertEquals("pk_t", key.constraintName().orElseThrow().getSimple());
        assertEquals(Clustering.CLUSTERED, key.clustering());
        assertEquals(List.of("a", "b"), key.columns().stream().map(SqlIdentifier::getSimple).toList());

        assertEquals(List.of("storage", "dictionary_overflow", "compression", "rowgroup_max_rows",
                "label", "enabled"), create.options().stream().map(SqlOption::name).toList());
        assertEquals(Optional.of("columnstore"), create.option("STORAGE").orElseThrow().valueText());
        assertEquals(Optional.of("trim"), create.option("dictionary_overflow").orElseThrow().valueText());
        assertEquals(Optional.of("archive"), create.option("compression").orElseThrow().valueText());
        assertEquals(Optional.of("1048576"), create.option("rowgroup_max_rows").orElseThrow().valueText());
        assertEquals(Optional.of("x y"), create.option("label").orElseThrow().valueText());
        assertEquals(Optional.of("true"), create.option("enabled").orElseThrow().valueText());
        assertTrue(create.option("missing").isEmpty());

        assertEquals("CREATE TABLE IF NOT EXISTS [t] ([a] INTEGER, [b] INTEGER, CONSTRAINT [pk_t] "
                + "PRIMARY KEY CLUSTERED ([a], [b])) WITH ([storage] = [columnstore], "
                + "[dictionary_overflow] = [trim], [compression] = [archive], "
                + "[rowgroup_max_rows] = 1048576, [label] = 'x y', [enabled] = TRUE)",
                RoundTrip.written(TABLE_WITH_OPTIONS));
    }

    @Test
    void clusteringMayFollowThePrimaryKeyColumns() {
        SqlCreateTable create = RoundTrip.parse("CREATE TABLE t (a INT, PRIMARY KEY (a) NONCLUSTERED)",
                SqlCreateTable.class);
        assertEquals(Clustering.NONCLUSTERED, create.primaryKey().orElseThrow().clustering());
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse(
                "CREATE TABLE t (a INT, PRIMARY KEY CLUSTERED (a) NONCLUSTERED)"));
    }

    @Test
    void sqlServerTypeNamesMapToColumbaTypes() {
        SqlCreateTable create = RoundTrip.parse("""
                CREATE TABLE types (a BIT, b BOOLEAN, c INT, d INTEGER, e BIGINT, f DOUBLE,
                    g FLOAT, h REAL, i DECIMAL(5, 1), j NUMERIC(7, 3), k VARCHAR(10),
                    l NVARCHAR(20), m VARCHAR(MAX), n NVARCHAR(max), o CHAR(3), p NCHAR(4),
                    q DATE, r TIMESTAMP, s DATETIME, t DATETIME2, u DATETIME2(3), v CHAR VARYING(5))""",
                SqlCreateTable.class);
        List<SqlDataTypeSpec> types = create.columns().stream()
                .map(column -> column.dataType().orElseThrow()).toList();
        assertType(SqlTypeName.BOOLEAN, -1, types.get(0));
        assertType(SqlTypeName.BOOLEAN, -1, types.get(1));
        assertType(SqlTypeName.INTEGER, -1, types.get(2));
        assertType(SqlTypeName.INTEGER, -1, types.get(3));
        assertType(SqlTypeName.BIGINT, -1, types.get(4));
        assertType(SqlTypeName.DOUBLE, -1, types.get(5));
        assertType(SqlTypeName.FLOAT, -1, types.get(6));
        assertType(SqlTypeName.REAL, -1, types.get(7));
        assertType(SqlTypeName.DECIMAL, 5, types.get(8));
        assertType(SqlTypeName.DECIMAL, 7, types.get(9));
        assertType(SqlTypeName.VARCHAR, 10, types.get(10));
        assertType(SqlTypeName.VARCHAR, 20, types.get(11));
        assertType(SqlTypeName.VARCHAR, -1, types.get(12));
        assertType(SqlTypeName.VARCHAR, -1, types.get(13));
        assertType(SqlTypeName.CHAR, 3, types.get(14));
        assertType(SqlTypeName.CHAR, 4, types.get(15));
        assertType(SqlTypeName.DATE, -1, types.get(16));
        assertType(SqlTypeName.TIMESTAMP, -1, types.get(17));
        assertType(SqlTypeName.TIMESTAMP, -1, types.get(18));
        assertType(SqlTypeName.TIMESTAMP, -1, types.get(19));
        assertType(SqlTypeName.TIMESTAMP, 3, types.get(20));
        assertType(SqlTypeName.VARCHAR, 5, types.get(21));
    }

    @Test
    void createTableAsQueryWithOptions() {
        SqlCreateTable create = RoundTrip.parse(
                "CREATE TABLE copy WITH (storage = columnstore) AS SELECT a, b FROM t WHERE a > 1",
                SqlCreateTable.class);
        assertTrue(create.columns().isEmpty());
        assertEquals(Optional.of("columnstore"), create.option("storage").orElseThrow().valueText());
        assertEquals("SELECT [a], [b] FROM [t] WHERE [a] > 1",
                ColumbaSqlParser.toSql(create.query().orElseThrow()).replace('\n', ' '));
        assertEquals("CREATE TABLE [copy] WITH ([storage] = [columnstore]) AS SELECT [a], [b] FROM [t] WHERE [a] > 1",
                RoundTrip.written("CREATE TABLE copy WITH (storage = columnstore) AS SELECT a, b FROM t WHERE a > 1"));
    }

    /** SQL Server's SELECT INTO is CREATE TABLE ... AS SELECT, and is written back as that. */
    @Test
    void selectIntoIsCreateTableAsSelect() {
        SqlCreateTable into = RoundTrip.parse("SELECT DISTINCT a, b + 1 AS c INTO dbo.t2 FROM t WHERE a > (SELECT 1) "
                + "GROUP BY a, b HAVING COUNT(*) > 0", SqlCreateTable.class);
        assertEquals("t2", into.name().names.getLast());
        assertTrue(into.columns().isEmpty());
        assertTrue(into.options().isEmpty());
        assertEquals("CREATE TABLE [dbo].[t2] AS SELECT DISTINCT [a], [b] + 1 AS [c] FROM [t] WHERE [a] > (SELECT 1) "
                + "GROUP BY [a], [b] HAVING COUNT(*) > 0", ColumbaSqlParser.toSql(into).replace('\n', ' '));
        assertEquals("CREATE TABLE [Testtable2] AS SELECT * FROM [TestTable] AS [t1]",
                RoundTrip.written("SELECT * INTO Testtable2 FROM TestTable t1"));
        assertEquals("CREATE TABLE [t] AS SELECT 1 AS [x]", RoundTrip.written("SELECT 1 AS x INTO t"));
        // INTO inside parentheses is not this statement's: a sub-query cannot be a SELECT INTO.
        assertThrows(ColumbaParseException.class, () -> ColumbaSqlParser.parse("SELECT (SELECT a INTO x FROM t) AS q FROM u"));
        // Every other SELECT is still a query.
        assertEquals("SELECT [a] FROM [t] WHERE [a] IN (SELECT [b] FROM [u])",
                RoundTrip.written("SELECT a FROM t WHERE a IN (SELECT b FROM u)"));
    }

    @Test
    void createIndexForms() {
        SqlCreateIndex plain = RoundTrip.parse("CREATE INDEX ix ON t (a, b)", SqlCreateIndex.class);
        assertEquals(SqlKind.CREATE_INDEX, plain.getKind());
        assertFalse(plain.unique());
        assertEquals(Clustering.UNSPECIFIED, plain.clustering());
        assertEquals(List.of("a", "b"), plain.columns().stream().map(SqlIdentifier::getSimple).toList());

        SqlCreateIndex nonclustered = RoundTrip.parse(
                "CREATE UNIQUE NONCLUSTERED INDEX ix ON s.t (a ASC) WITH (fillfactor = 90)", SqlCreateIndex.class);
        assertTrue(nonclustered.unique());
        assertEquals(Clustering.NONCLUSTERED, nonclustered.clustering());
        assertEquals(List.of("s", "t"), nonclustered.table().names);
        assertEquals(Optional.of("90"), nonclustered.option("fillfactor").orElseThrow().valueText());
        assertEquals("CREATE UNIQUE NONCLUSTERED INDEX [ix] ON [s].[t] ([a]) WITH ([fillfactor] = 90)",
                RoundTrip.written("CREATE UNIQUE NONCLUSTERED INDEX ix ON s.t (a ASC) WITH (fillfactor = 90)"));
    }

    @Test
    void columnstoreIndexes() {
        SqlCreateColumnstoreIndex clustered = RoundTrip.parse(
                "CREATE CLUSTERED COLUMNSTORE INDEX cci ON TestTable", SqlCreateColumnstoreIndex.class);
        assertTrue(clustered.clustered());
        assertEquals("cci", clustered.name().getSimple());
        assertEquals("TestTable", clustered.table().getSimple());
        assertTrue(clustered.columns().isEmpty());

        SqlCreateColumnstoreIndex implied = RoundTrip.parse(
                "CREATE COLUMNSTORE INDEX cci ON t WITH (compression = archive)", SqlCreateColumnstoreIndex.class);
        assertTrue(implied.clustered());
        assertEquals(Optional.of("archive"), implied.option("compression").orElseThrow().valueText());

        SqlCreateColumnstoreIndex nonclustered = RoundTrip.parse(
                "CREATE NONCLUSTERED COLUMNSTORE INDEX ncci ON t (a, b)", SqlCreateColumnstoreIndex.class);
        assertFalse(nonclustered.clustered());
        assertEquals(List.of("a", "b"), nonclustered.columns().stream().map(SqlIdentifier::getSimple).toList());
        assertEquals("CREATE NONCLUSTERED COLUMNSTORE INDEX [ncci] ON [t] ([a], [b])",
                RoundTrip.written("CREATE NONCLUSTERED COLUMNSTORE INDEX ncci ON t (a, b)"));
    }

    @Test
    void dropTableAndIndex() {
        SqlDropTable dropTable = RoundTrip.parse("DROP TABLE IF EXISTS dbo.t", SqlDropTable.class);
        assertEquals(SqlKind.DROP_TABLE, dropTable.getKind());
        assertTrue(dropTable.ifExists());
        assertEquals(List.of("dbo", "t"), dropTable.name().names);
        assertFalse(RoundTrip.parse("DROP TABLE t", SqlDropTable.class).ifExists());

        SqlDropIndex dropIndex = RoundTrip.parse("DROP INDEX ix ON t", SqlDropIndex.class);
        assertEquals(SqlKind.DROP_INDEX, dropIndex.getKind());
        assertEquals("ix", dropIndex.name().getSimple());
        assertEquals("t", dropIndex.table().orElseThrow().getSimple());
        SqlDropIndex qualified = RoundTrip.parse("DROP INDEX IF EXISTS t.ix", SqlDropIndex.class);
        assertTrue(qualified.ifExists());
        assertEquals(List.of("t", "ix"), qualified.name().names);
        assertTrue(qualified.table().isEmpty());
    }

    @Test
    void alterIndexReorganizeAndRebuild() {
        SqlAlterIndex all = RoundTrip.parse(
                "ALTER INDEX ALL ON t REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)", SqlAlterIndex.class);
        assertEquals(SqlKind.ALTER_INDEX, all.getKind());
        assertTrue(all.allIndexes());
        assertTrue(all.index().isEmpty());
        assertEquals(SqlAlterIndex.Action.REORGANIZE, all.action());
        assertEquals(Optional.of("ON"), all.option("compress_all_row_groups").orElseThrow().valueText());

        SqlAlterIndex one = RoundTrip.parse("ALTER INDEX cci ON dbo.t REBUILD", SqlAlterIndex.class);
        assertEquals("cci", one.index().orElseThrow().getSimple());
        assertEquals(List.of("dbo", "t"), one.table().names);
        assertEquals(SqlAlterIndex.Action.REBUILD, one.action());
        assertTrue(one.options().isEmpty());
        assertEquals("ALTER INDEX [cci] ON [dbo].[t] REBUILD", RoundTrip.written("ALTER INDEX cci ON dbo.t REBUILD"));
    }

    @Test
    void alterTableSetOptionsAndAlterColumn() {
        SqlAlterTableSetOptions set = RoundTrip.parse(
                "ALTER TABLE t SET (dictionary_overflow = fallback, rowgroup_max_rows = 102400)",
                SqlAlterTableSetOptions.class);
        assertEquals(SqlKind.ALTER_TABLE, set.getKind());
        assertEquals("t", set.table().getSimple());
        assertEquals(Optional.of("fallback"), set.option("dictionary_overflow").orElseThrow().valueText());
        assertEquals(Optional.of("102400"), set.option("rowgroup_max_rows").orElseThrow().valueText());

        SqlAlterTableAlterColumn alter = RoundTrip.parse(
                "ALTER TABLE t ALTER COLUMN c NVARCHAR(30) NULL", SqlAlterTableAlterColumn.class);
        assertEquals("c", alter.column().getSimple());
        assertType(SqlTypeName.VARCHAR, 30, alter.dataType());
        assertEquals(Nullability.NULLABLE, alter.nullability());
        assertEquals(Nullability.UNSPECIFIED,
                RoundTrip.parse("ALTER TABLE t ALTER COLUMN c INT", SqlAlterTableAlterColumn.class).nullability());
    }

    @Test
    void truncateTableIsCalcitesNode() {
        SqlTruncateTable truncate = RoundTrip.parse("TRUNCATE TABLE dbo.t", SqlTruncateTable.class);
        assertEquals(List.of("dbo", "t"), truncate.name.names);
        assertFalse(truncate.continueIdentify);
        assertTrue(RoundTrip.parse("TRUNCATE TABLE t CONTINUE IDENTITY", SqlTruncateTable.class).continueIdentify);
    }

    @Test
    void nodesRejectInconsistentParts() {
        assertThrows(IllegalArgumentException.class, () -> new SqlColumnDefinition.Identity(1, 0));
        SqlIdentifier name = new SqlIdentifier("c", SqlParserPos.ZERO);
        assertThrows(IllegalArgumentException.class, () -> new SqlColumnDefinition(
                SqlParserPos.ZERO, name, null, Nullability.UNSPECIFIED,
                null, null, false, null));
    }

    private static void assertType(SqlTypeName expected, int precision, SqlDataTypeSpec type) {
        SqlBasicTypeNameSpec spec = (SqlBasicTypeNameSpec) type.getTypeNameSpec();
        assertEquals(expected.name(), spec.getTypeName().getSimple(), () -> "type of " + type);
        assertEquals(precision, spec.getPrecision(), () -> "precision of " + type);
    }
}
