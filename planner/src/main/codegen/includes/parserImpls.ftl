<#--
  Columba's productions, included into Calcite's Parser.jj by FMPP (config.fmpp lists which
  hook calls each one). They are JavaCC grammar: the Java inside the braces is read by
  JavaCC 4.0, so it keeps to Java 5 (no diamond, no lambdas, no var).

  The statements are SQL Server's where Columba follows SQL Server (CREATE TABLE with
  IDENTITY and computed columns, CLUSTERED indexes, DBCC, SET STATISTICS, OPTION (...)),
  and PostgreSQL's COPY for loading files.
-->

/** A parse error at {@code pos} with a message of Columba's own. */
JAVACODE CalciteContextException columbaError(SqlParserPos pos, String message)
{
    return new CalciteContextException(message, new CalciteException(message, null),
        pos.getLineNum(), pos.getColumnNum(), pos.getEndLineNum(), pos.getEndColumnNum());
}

boolean ColumbaIfNotExists() :
{
}
{
    LOOKAHEAD(3) <IF> <NOT> <EXISTS> { return true; }
|
    { return false; }
}

boolean ColumbaIfExists() :
{
}
{
    LOOKAHEAD(2) <IF> <EXISTS> { return true; }
|
    { return false; }
}

/** [ CLUSTERED | NONCLUSTERED ] */
Clustering ColumbaClustering() :
{
}
{
    <CLUSTERED> { return Clustering.CLUSTERED; }
|
    <NONCLUSTERED> { return Clustering.NONCLUSTERED; }
|
    { return Clustering.UNSPECIFIED; }
}

/** ( key [ [=] value ], ... ): table, index, COPY and ALTER TABLE SET options. */
SqlNodeList ColumbaOptionList() :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    ColumbaOption(list)
    ( <COMMA> ColumbaOption(list) )*
    <RPAREN> {
        columbaCheckDistinctOptions(list);
        return new SqlNodeList(list, s.end(this));
    }
}

/** Option names are case-insensitive; each may be given once. */
JAVACODE void columbaCheckDistinctOptions(List<SqlNode> optionList)
{
    final Set<String> seen = new HashSet<String>();
    for (SqlNode node : optionList) {
        final SqlOption option = (SqlOption) node;
        if (!seen.add(option.name())) {
            throw columbaError(option.getParserPosition(),
                "Option " + option.nameIdentifier() + " is given twice");
        }
    }
}

void ColumbaOption(List<SqlNode> list) :
{
    final SqlIdentifier name;
    SqlNode value = null;
}
{
    (
        name = SimpleIdentifier()
    |
        // COPY's NULL 'text' and ESCAPE 'c' are PostgreSQL's option names but reserved words here.
        ( <NULL> | <ESCAPE> ) { name = new SqlIdentifier(unquotedIdentifier(), getPos()); }
    )
    [
        [ <EQ> ]
        value = ColumbaOptionValue()
    ]
    {
        list.add(new SqlOption(Span.of(name).end(this), name, value));
    }
}

/**
 * A literal or a name. ON, TRIM, ROW and NONE are reserved words, so not names, but they are option
 * values ({@code COMPRESS_ALL_ROW_GROUPS = ON}, {@code dictionary_overflow = trim},
 * {@code DATA_COMPRESSION = ROW | NONE}); they become names.
 */
SqlNode ColumbaOptionValue() :
{
    final SqlNode value;
}
{
    (
        value = Literal()
    |
        value = SimpleIdentifier()
    |
        ( <ON> | <TRIM> | <ROW> | <NONE> ) { value = new SqlIdentifier(unquotedIdentifier(), getPos()); }
    )
    { return value; }
}

/** A signed integer that may need 64 bits (IDENTITY seed and increment). */
long ColumbaSignedLong() :
{
    final Span s;
    boolean negative = false;
    final Token t;
}
{
    { s = span(); }
    [ <PLUS> | <MINUS> { negative = true; } ]
    t = <UNSIGNED_INTEGER_LITERAL>
    {
        final String digits = negative ? "-" + t.image : t.image;
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw columbaError(s.end(this),
                "Integer " + digits + " does not fit in 64 bits");
        }
    }
}

/**
 * The type names of SQL Server, PostgreSQL and DuckDB that Calcite does not know, and
 * (N)VARCHAR(MAX): TEXT, NTEXT and STRING are VARCHAR without a length; BOOL is BOOLEAN; FLOAT4,
 * FLOAT8 and FLOAT(n) are floating point (Columba has one, DOUBLE); INT2, INT4 and INT8 are
 * SMALLINT, INTEGER and BIGINT; BYTEA (PostgreSQL) and VARBINARY(MAX) (SQL Server) are VARBINARY
 * without a length; UNIQUEIDENTIFIER (SQL Server) is UUID.
 */
SqlTypeNameSpec ColumbaTypeName() :
{
    final Span s;
    final SqlTypeName typeName;
    int precision = -1;
}
{
    (
        <BIT> { s = span(); typeName = SqlTypeName.BOOLEAN; }
    |
        <BOOL> { s = span(); typeName = SqlTypeName.BOOLEAN; }
    |
        ( <TEXT> | <NTEXT> | <STRING> ) { s = span(); typeName = SqlTypeName.VARCHAR; }
    |
        <FLOAT> { s = span(); typeName = SqlTypeName.FLOAT; }
        [ <LPAREN> ColumbaFloatPrecision() <RPAREN> ]
    |
        <FLOAT4> { s = span(); typeName = SqlTypeName.REAL; }
    |
        <FLOAT8> { s = span(); typeName = SqlTypeName.DOUBLE; }
    |
        <INT2> { s = span(); typeName = SqlTypeName.SMALLINT; }
    |
        <INT4> { s = span(); typeName = SqlTypeName.INTEGER; }
    |
        <INT8> { s = span(); typeName = SqlTypeName.BIGINT; }
    |
        ( <VARCHAR> | <NVARCHAR> ) { s = span(); typeName = SqlTypeName.VARCHAR; }
        precision = ColumbaLength()
    |
        ( <CHAR> | <NCHAR> ) { s = span(); }
        (
            <VARYING> { typeName = SqlTypeName.VARCHAR; }
        |
            { typeName = SqlTypeName.CHAR; }
        )
        precision = ColumbaLength()
    |
        ( <VARBINARY> { s = span(); } | <BINARY> { s = span(); } <VARYING> ) { typeName = SqlTypeName.VARBINARY; }
        precision = ColumbaLength()
    |
        <BYTEA> { s = span(); typeName = SqlTypeName.VARBINARY; }
    |
        <UNIQUEIDENTIFIER> { s = span(); typeName = SqlTypeName.UUID; }
    |
        <DATETIME> { s = span(); typeName = SqlTypeName.TIMESTAMP; }
    |
        <DATETIME2> { s = span(); typeName = SqlTypeName.TIMESTAMP; }
        precision = PrecisionOpt()
    )
    {
        return new SqlBasicTypeNameSpec(typeName, precision, s.end(this));
    }
}

/**
 * SQL Server's binary literal {@code 0x0A1B}, the bytes X'0A1B' writes; an odd number of digits
 * has a leading zero, as in SQL Server ({@code 0x123} is {@code 0x0123}).
 */
SqlNode ColumbaHexLiteral() :
{
}
{
    <COLUMBA_HEX_LITERAL>
    {
        String digits = token.image.substring(2);
        return SqlLiteral.createBinaryString(digits.length() % 2 == 0 ? digits : "0" + digits, getPos());
    }
}

/** FLOAT(n)'s mantissa bits, 1 to 53 as in SQL Server and PostgreSQL; every n is Columba's DOUBLE. */
void ColumbaFloatPrecision() :
{
    final Span s;
    final int bits;
}
{
    { s = span(); }
    bits = UnsignedIntLiteral()
    {
        if (bits < 1 || bits > 53) {
            throw columbaError(s.end(this), "FLOAT precision must be from 1 to 53, was " + bits);
        }
    }
}

/** [ ( length | MAX ) ]; MAX and no length at all are both "no declared length" (-1). */
int ColumbaLength() :
{
    int length = -1;
}
{
    [
        <LPAREN>
        (
            length = UnsignedIntLiteral()
        |
            <MAX>
        )
        <RPAREN>
    ]
    { return length; }
}

/**
 * Where a table's pages go, as table options (docs/design/storage.md, "Files, filegroups and
 * partitions"): ON filegroup (option filegroup), ON scheme ( column ) (partition_scheme and
 * partition_column), or PARTITION BY HASH ( column ) PARTITIONS n [ ON ( filegroup, ... ) ]
 * (partition_hash, partition_column, partition_filegroups).
 */
void ColumbaTablePlacement(List<SqlNode> placementOptions) :
{
    final Span s;
    SqlIdentifier target;
    SqlIdentifier column = null;
    final Token count;
    final List<String> filegroups = new ArrayList<String>();
}
{
    <ON> { s = span(); }
    target = ColumbaFilegroupName()
    [ <LPAREN> column = SimpleIdentifier() <RPAREN> ]
    {
        if (column == null) {
            placementOptions.add(columbaOption("filegroup", target.getSimple(), s.end(this)));
        } else {
            placementOptions.add(columbaOption("partition_scheme", target.getSimple(), s.end(this)));
            placementOptions.add(columbaOption("partition_column", column.getSimple(), s.end(this)));
        }
    }
|
    <PARTITION> { s = span(); } <BY> <HASH> <LPAREN> column = SimpleIdentifier() <RPAREN>
    <PARTITIONS> count = <UNSIGNED_INTEGER_LITERAL>
    [
        <ON> <LPAREN> target = ColumbaFilegroupName() { filegroups.add(target.getSimple()); }
        ( <COMMA> target = ColumbaFilegroupName() { filegroups.add(target.getSimple()); } )*
        <RPAREN>
    ]
    {
        placementOptions.add(columbaOption("partition_hash", count.image, s.end(this)));
        placementOptions.add(columbaOption("partition_column", column.getSimple(), s.end(this)));
        if (!filegroups.isEmpty()) {
            placementOptions.add(columbaOption("partition_filegroups", String.join(",", filegroups), s.end(this)));
        }
    }
}

/** A table option made by the parser from other syntax: name = 'text'. */
JAVACODE SqlOption columbaOption(String name, String value, SqlParserPos pos)
{
    return new SqlOption(pos, new SqlIdentifier(name, pos), SqlLiteral.createCharString(value, pos));
}

/** A filegroup's name; PRIMARY is a reserved word but also the primary filegroup's name. */
SqlIdentifier ColumbaFilegroupName() :
{
    final SqlIdentifier name;
}
{
    (
        name = SimpleIdentifier()
    |
        <PRIMARY> { name = new SqlIdentifier("PRIMARY", getPos()); }
    )
    { return name; }
}

/**
 * ALTER DATABASE { name | CURRENT } ADD FILEGROUP fg
 * ALTER DATABASE { name | CURRENT } ADD FILE ( option, ... ) [, ( option, ... ) ]* [ TO FILEGROUP fg ]
 * ALTER DATABASE { name | CURRENT } REMOVE FILEGROUP fg
 */
SqlNode ColumbaAlterDatabase() :
{
    final Span s;
    SqlIdentifier filegroup = null;
    SqlNodeList file;
    final List<SqlNode> files = new ArrayList<SqlNode>();
    final SqlAlterDatabase.Action action;
}
{
    <ALTER> { s = span(); } <DATABASE>
    ( <CURRENT> | SimpleIdentifier() )
    (
        LOOKAHEAD(2) <ADD> <FILEGROUP> filegroup = ColumbaFilegroupName() { action = SqlAlterDatabase.Action.ADD_FILEGROUP; }
    |
        <ADD> <FILE> file = ColumbaOptionList() { files.add(file); }
        ( <COMMA> file = ColumbaOptionList() { files.add(file); } )*
        [ <TO> <FILEGROUP> filegroup = ColumbaFilegroupName() ]
        { action = SqlAlterDatabase.Action.ADD_FILE; }
    |
        <REMOVE> <FILEGROUP> filegroup = ColumbaFilegroupName() { action = SqlAlterDatabase.Action.REMOVE_FILEGROUP; }
    )
    {
        return new SqlAlterDatabase(s.end(this), action, filegroup, new SqlNodeList(files, s.end(this)));
    }
}

/**
 * CREATE PARTITION FUNCTION name ( type ) AS RANGE [ LEFT | RIGHT ] FOR VALUES ( value, ... )
 * CREATE PARTITION SCHEME name AS PARTITION function [ ALL ] TO ( filegroup, ... )
 */
SqlNode ColumbaCreatePartition() :
{
    final Span s;
    final SqlIdentifier name;
    final SqlDataTypeSpec type;
    boolean right = false;
    final List<SqlNode> values = new ArrayList<SqlNode>();
    SqlNode value;
    final SqlIdentifier function;
    boolean all = false;
    SqlIdentifier filegroup;
    final List<SqlNode> filegroups = new ArrayList<SqlNode>();
}
{
    <CREATE> { s = span(); } <PARTITION>
    (
        <FUNCTION> name = SimpleIdentifier() <LPAREN> type = DataType() <RPAREN>
        <AS> <RANGE> [ <LEFT> | <RIGHT> { right = true; } ]
        <FOR> <VALUES> <LPAREN>
        [
            value = Expression(ExprContext.ACCEPT_NON_QUERY) { values.add(value); }
            ( <COMMA> value = Expression(ExprContext.ACCEPT_NON_QUERY) { values.add(value); } )*
        ]
        <RPAREN>
        {
            return new SqlPartitionFunction(s.end(this), name, type, right, new SqlNodeList(values, s.end(this)));
        }
    |
        <SCHEME> name = SimpleIdentifier() <AS> <PARTITION> function = SimpleIdentifier()
        [ <ALL> { all = true; } ]
        <TO> <LPAREN> filegroup = ColumbaFilegroupName() { filegroups.add(filegroup); }
        ( <COMMA> filegroup = ColumbaFilegroupName() { filegroups.add(filegroup); } )*
        <RPAREN>
        {
            return new SqlPartitionScheme(s.end(this), name, function, all, new SqlNodeList(filegroups, s.end(this)));
        }
    )
}

/** DROP PARTITION { FUNCTION | SCHEME } name */
SqlNode ColumbaDropPartition() :
{
    final Span s;
    final SqlIdentifier name;
    boolean scheme = false;
}
{
    <DROP> { s = span(); } <PARTITION>
    ( <FUNCTION> | <SCHEME> { scheme = true; } )
    name = SimpleIdentifier()
    {
        return new SqlDropPartitionObject(s.end(this), name, scheme);
    }
}

/**
 * CREATE TABLE name ( column | constraint, ... ) [ WITH ( option, ... ) ]
 * CREATE TABLE name [ WITH ( option, ... ) ] AS query
 */
SqlCreate ColumbaCreateTable(Span s, boolean replace) :
{
    final boolean ifNotExists;
    final SqlIdentifier name;
    final Span elementSpan;
    final List<SqlNode> columns = new ArrayList<SqlNode>();
    final List<SqlPrimaryKey> keys = new ArrayList<SqlPrimaryKey>();
    final List<SqlTableConstraint> constraints = new ArrayList<SqlTableConstraint>();
    SqlNodeList columnList = SqlNodeList.EMPTY;
    SqlNodeList optionList = SqlNodeList.EMPTY;
    SqlNode query = null;
    final List<SqlNode> placement = new ArrayList<SqlNode>();
}
{
    <TABLE> ifNotExists = ColumbaIfNotExists() name = CompoundIdentifier()
    (
        <LPAREN> { elementSpan = span(); }
        ColumbaTableElement(columns, keys, constraints)
        ( <COMMA> ColumbaTableElement(columns, keys, constraints) )*
        <RPAREN> { columnList = new SqlNodeList(columns, elementSpan.end(this)); }
        [ ColumbaTablePlacement(placement) ]
        [ <WITH> optionList = ColumbaOptionList() ]
        {
            if (!placement.isEmpty()) {
                final List<SqlNode> merged = new ArrayList<SqlNode>(placement);
                merged.addAll(optionList.getList());
                columbaCheckDistinctOptions(merged);
                optionList = new SqlNodeList(merged, optionList.getParserPosition());
            }
        }
    |
        [ <WITH> optionList = ColumbaOptionList() ]
        <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    )
    {
        if (keys.size() > 1) {
            throw columbaError(keys.get(1).getParserPosition(),
                "Table " + name + " has more than one PRIMARY KEY");
        }
        return new SqlCreateTable(s.end(this), replace, ifNotExists, name, columnList,
            keys.isEmpty() ? null : keys.get(0), constraints, optionList, query);
    }
}

void ColumbaTableElement(List<SqlNode> columns, List<SqlPrimaryKey> keys,
    List<SqlTableConstraint> constraints) :
{
    final SqlNode column;
}
{
    ColumbaTableConstraint(keys, constraints)
|
    column = ColumbaColumnDefinition(keys, constraints) { columns.add(column); }
}

/**
 * [ CONSTRAINT name ] PRIMARY KEY [ CLUSTERED | NONCLUSTERED ] ( column [ASC], ... )
 *     [ CLUSTERED | NONCLUSTERED ]
 * [ CONSTRAINT name ] UNIQUE [ NONCLUSTERED ] ( column [ASC], ... )
 * [ CONSTRAINT name ] CHECK ( condition )
 *
 * SQL Server puts CLUSTERED before the columns; after them is accepted too, once. A UNIQUE
 * constraint is a unique secondary index, so it cannot be CLUSTERED.
 */
void ColumbaTableConstraint(List<SqlPrimaryKey> keys, List<SqlTableConstraint> constraints) :
{
    final Span s;
    SqlIdentifier constraintName = null;
    Clustering clustering;
    final SqlNodeList columns;
    final Clustering trailing;
    final SqlNode condition;
}
{
    { s = Span.of(); }
    [ <CONSTRAINT> { s.add(this); } constraintName = SimpleIdentifier() ]
    (
        <PRIMARY> { s.add(this); } <KEY>
        clustering = ColumbaClustering()
        columns = ColumbaKeyColumnList(false)
        trailing = ColumbaClustering() {
            if (trailing != Clustering.UNSPECIFIED) {
                if (clustering != Clustering.UNSPECIFIED) {
                    throw columbaError(getPos(), "PRIMARY KEY says " + clustering + " and " + trailing);
                }
                clustering = trailing;
            }
            keys.add(new SqlPrimaryKey(s.end(this), constraintName, clustering, columns));
        }
    |
        <UNIQUE> { s.add(this); }
        clustering = ColumbaClustering()
        columns = ColumbaKeyColumnList(false) {
            columbaCheckUniqueClustering(clustering, s.end(this));
            constraints.add(new SqlTableConstraint(s.end(this), SqlTableConstraint.Kind.UNIQUE, constraintName,
                columns, null));
        }
    |
        <CHECK> { s.add(this); }
        <LPAREN> condition = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN> {
            constraints.add(new SqlTableConstraint(s.end(this), SqlTableConstraint.Kind.CHECK, constraintName,
                null, condition));
        }
    )
}

/** A UNIQUE constraint is a nonclustered index: the table's clustered key is its primary key. */
JAVACODE void columbaCheckUniqueClustering(Clustering clustering, SqlParserPos pos)
{
    if (clustering == Clustering.CLUSTERED) {
        throw columbaError(pos, "A UNIQUE constraint cannot be CLUSTERED in Columba: it is a unique"
            + " nonclustered index (cluster the table on a PRIMARY KEY instead)");
    }
}

/**
 * ALTER TABLE ... ADD COLUMN: a column definition without PRIMARY KEY, UNIQUE or CHECK (add those
 * with ALTER TABLE ... ADD CONSTRAINT once the column exists).
 */
JAVACODE SqlAlterTableColumn columbaAddColumn(SqlParserPos pos, SqlIdentifier table, SqlColumnDefinition definition,
    List<SqlPrimaryKey> keys, List<SqlTableConstraint> constraints)
{
    if (!keys.isEmpty() || !constraints.isEmpty()) {
        throw columbaError(pos, "ALTER TABLE " + table + " ADD COLUMN " + definition.name()
            + ": a new column takes no PRIMARY KEY, UNIQUE or CHECK; add a constraint with ALTER TABLE "
            + table + " ADD CONSTRAINT after the column");
    }
    return new SqlAlterTableColumn(pos, table, definition, null, false);
}

/** ( column [ASC | DESC], ... ): key columns of a primary key, a UNIQUE constraint or an index. */
SqlNodeList ColumbaKeyColumnList(boolean descendingAllowed) :
{
    final Span s;
    final List<SqlNode> list = new ArrayList<SqlNode>();
}
{
    <LPAREN> { s = span(); }
    ColumbaKeyColumn(list, descendingAllowed)
    ( <COMMA> ColumbaKeyColumn(list, descendingAllowed) )*
    <RPAREN> {
        return new SqlNodeList(list, s.end(this));
    }
}

/** column [ASC | DESC]: a DESC column is a DESC call on the identifier (CREATE INDEX only). */
void ColumbaKeyColumn(List<SqlNode> list, boolean descendingAllowed) :
{
    final SqlIdentifier column;
}
{
    column = SimpleIdentifier()
    (
        <ASC> { list.add(column); }
    |
        <DESC> {
            if (!descendingAllowed) {
                throw columbaError(getPos(), "Key column " + column + " is DESC; a PRIMARY KEY's and a UNIQUE"
                    + " constraint's keys are ascending in Columba (CREATE INDEX takes DESC key columns)");
            }
            list.add(SqlStdOperatorTable.DESC.createCall(getPos(), column));
        }
    |
        { list.add(column); }
    )
}

/**
 * name type [ NULL | NOT NULL | IDENTITY [ ( seed, increment ) ] | [ CONSTRAINT name ] DEFAULT expr
 *           | [ CONSTRAINT name ] PRIMARY KEY [ CLUSTERED | NONCLUSTERED ]
 *           | [ CONSTRAINT name ] UNIQUE [ NONCLUSTERED ] | [ CONSTRAINT name ] CHECK ( condition ) ]...
 * name AS expr [ PERSISTED ] [ NULL | NOT NULL ]...
 *
 * A column's PRIMARY KEY becomes a table constraint, added to {@code keys}; its UNIQUE and CHECK
 * constraints are added to {@code constraints} (UNIQUE on the column alone).
 */
SqlColumnDefinition ColumbaColumnDefinition(List<SqlPrimaryKey> keys,
    List<SqlTableConstraint> constraints) :
{
    final SqlIdentifier name;
    SqlDataTypeSpec type = null;
    SqlNode computed = null;
    boolean persisted = false;
    Nullability nullability = Nullability.UNSPECIFIED;
    SqlColumnDefinition.Identity identity = null;
    SqlNode defaultValue = null;
    long seed;
    long increment;
    Span keySpan;
    Clustering clustering;
    SqlIdentifier constraintName = null;
    SqlNode condition;
}
{
    name = SimpleIdentifier()
    (
        <AS> computed = Expression(ExprContext.ACCEPT_NON_QUERY)
        [ <PERSISTED> { persisted = true; } ]
    |
        type = DataType()
    )
    (
        <NULL> { nullability = Nullability.NULLABLE; }
    |
        <NOT> <NULL> { nullability = Nullability.NOT_NULL; }
    |
        <IDENTITY> { seed = 1; increment = 1; }
        [
            <LPAREN> seed = ColumbaSignedLong() <COMMA> increment = ColumbaSignedLong() {
                if (increment == 0) {
                    throw columbaError(getPos(), "IDENTITY increment of column " + name + " is 0");
                }
            }
            <RPAREN>
        ]
        { identity = new SqlColumnDefinition.Identity(seed, increment); }
    |
        <DEFAULT_> defaultValue = Expression3(ExprContext.ACCEPT_NON_QUERY) { constraintName = null; }
    |
        // Names the constraint that follows (a DEFAULT's name is not kept).
        <CONSTRAINT> constraintName = SimpleIdentifier()
    |
        <PRIMARY> { keySpan = span(); } <KEY> clustering = ColumbaClustering() {
            keys.add(new SqlPrimaryKey(keySpan.end(this), constraintName, clustering,
                new SqlNodeList(Collections.singletonList((SqlNode) name), name.getParserPosition())));
            constraintName = null;
        }
    |
        <UNIQUE> { keySpan = span(); } clustering = ColumbaClustering() {
            columbaCheckUniqueClustering(clustering, keySpan.end(this));
            constraints.add(new SqlTableConstraint(keySpan.end(this), SqlTableConstraint.Kind.UNIQUE, constraintName,
                new SqlNodeList(Collections.singletonList((SqlNode) name), name.getParserPosition()), null));
            constraintName = null;
        }
    |
        <CHECK> { keySpan = span(); }
        <LPAREN> condition = Expression(ExprContext.ACCEPT_NON_QUERY) <RPAREN> {
            constraints.add(new SqlTableConstraint(keySpan.end(this), SqlTableConstraint.Kind.CHECK, constraintName,
                null, condition));
            constraintName = null;
        }
    )*
    {
        if (constraintName != null) {
            throw columbaError(constraintName.getParserPosition(), "CONSTRAINT " + constraintName
                + " of column " + name + " names no PRIMARY KEY, UNIQUE, CHECK or DEFAULT");
        }
        return new SqlColumnDefinition(Span.of(name).end(this), name, type, nullability,
            identity, computed, persisted, defaultValue);
    }
}

/**
 * CREATE [UNIQUE] [CLUSTERED | NONCLUSTERED] INDEX name ON table ( column, ... ) [ WITH (...) ]
 * CREATE [CLUSTERED | NONCLUSTERED] COLUMNSTORE INDEX name ON table [ ( column, ... ) ] [ WITH (...) ]
 */
SqlCreate ColumbaCreateIndex(Span s, boolean replace) :
{
    boolean unique = false;
    final Clustering clustering;
    final SqlIdentifier name;
    final SqlIdentifier table;
    SqlNodeList columns = SqlNodeList.EMPTY;
    SqlNodeList optionList = SqlNodeList.EMPTY;
}
{
    [ <UNIQUE> { unique = true; } ]
    clustering = ColumbaClustering()
    (
        <COLUMNSTORE> {
            if (unique) {
                throw columbaError(s.end(this), "A columnstore index cannot be UNIQUE");
            }
        }
        <INDEX> name = SimpleIdentifier() <ON> table = CompoundIdentifier()
        [ columns = ParenthesizedSimpleIdentifierList() ]
        [ <WITH> optionList = ColumbaOptionList() ]
        {
            return new SqlCreateColumnstoreIndex(s.end(this), replace,
                clustering != Clustering.NONCLUSTERED, name, table, columns, optionList);
        }
    |
        <INDEX> name = SimpleIdentifier() <ON> table = CompoundIdentifier()
        columns = ColumbaKeyColumnList(true)
        [ <WITH> optionList = ColumbaOptionList() ]
        {
            return new SqlCreateIndex(s.end(this), replace, unique, clustering, name, table,
                columns, optionList);
        }
    )
}

/** DROP TABLE [ IF EXISTS ] name */
SqlDrop ColumbaDropTable(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <TABLE> ifExists = ColumbaIfExists() name = CompoundIdentifier() {
        return new SqlDropTable(s.end(this), ifExists, name);
    }
}

/** DROP INDEX [ IF EXISTS ] name [ ON table ] */
SqlDrop ColumbaDropIndex(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
    SqlIdentifier table = null;
}
{
    <INDEX> ifExists = ColumbaIfExists() name = CompoundIdentifier()
    [ <ON> table = CompoundIdentifier() ]
    {
        return new SqlDropIndex(s.end(this), ifExists, name, table);
    }
}

/** TRUNCATE TABLE name [ CONTINUE IDENTITY | RESTART IDENTITY ] */
SqlTruncate ColumbaTruncateTable(Span s) :
{
    final SqlIdentifier name;
    boolean continueIdentity = false;
}
{
    <TABLE> name = CompoundIdentifier()
    [
        <CONTINUE> <IDENTITY> { continueIdentity = true; }
    |
        <RESTART> <IDENTITY>
    ]
    {
        return new SqlTruncateTable(s.end(this), name, continueIdentity);
    }
}

/**
 * ALTER TABLE name SET ( option, ... )
 * ALTER TABLE name ALTER COLUMN column type [ NULL | NOT NULL ]
 * ALTER TABLE name REBUILD [ WITH ( option, ... ) ]   (ALTER INDEX ALL ON name REBUILD)
 * ALTER TABLE name ADD [ CONSTRAINT c ] { UNIQUE ( column, ... ) | CHECK ( condition ) }
 * ALTER TABLE name DROP CONSTRAINT [ IF EXISTS ] c
 * ALTER TABLE name ADD [ COLUMN ] column-definition
 * ALTER TABLE name DROP [ COLUMN ] [ IF EXISTS ] column
 */
SqlNode ColumbaAlterTable() :
{
    final Span s;
    final SqlIdentifier table;
    final SqlNodeList optionList;
    SqlNodeList rebuildOptions = SqlNodeList.EMPTY;
    final SqlIdentifier column;
    final SqlDataTypeSpec type;
    Nullability nullability = Nullability.UNSPECIFIED;
    final List<SqlPrimaryKey> keys = new ArrayList<SqlPrimaryKey>();
    final List<SqlTableConstraint> constraints = new ArrayList<SqlTableConstraint>();
    final boolean ifExists;
    final SqlIdentifier constraintName;
    final SqlColumnDefinition definition;
}
{
    <ALTER> { s = span(); } <TABLE> table = CompoundIdentifier()
    (
        LOOKAHEAD(2) <ADD> <COLUMN> definition = ColumbaColumnDefinition(keys, constraints) {
            return columbaAddColumn(s.end(this), table, definition, keys, constraints);
        }
    |
        LOOKAHEAD(2) <ADD> definition = ColumbaColumnDefinition(keys, constraints) {
            return columbaAddColumn(s.end(this), table, definition, keys, constraints);
        }
    |
        <ADD> ColumbaTableConstraint(keys, constraints) {
            if (!keys.isEmpty()) {
                throw columbaError(keys.get(0).getParserPosition(), "ALTER TABLE " + table
                    + " ADD PRIMARY KEY is not supported: a table's primary key is its clustered key, given when"
                    + " it is created (or CREATE UNIQUE CLUSTERED INDEX on a heap)");
            }
            return new SqlAlterTableConstraint(s.end(this), table, constraints.get(0), null, false);
        }
    |
        LOOKAHEAD(2) <DROP> <CONSTRAINT> ifExists = ColumbaIfExists() constraintName = SimpleIdentifier() {
            return new SqlAlterTableConstraint(s.end(this), table, null, constraintName, ifExists);
        }
    |
        <DROP> [ <COLUMN> ] ifExists = ColumbaIfExists() column = SimpleIdentifier() {
            return new SqlAlterTableColumn(s.end(this), table, null, column, ifExists);
        }
    |
        <SET> optionList = ColumbaOptionList() {
            return new SqlAlterTableSetOptions(s.end(this), table, optionList);
        }
    |
        <REBUILD> [ <WITH> rebuildOptions = ColumbaOptionList() ] {
            return new SqlAlterIndex(s.end(this), null, table, SqlAlterIndex.Action.REBUILD, rebuildOptions);
        }
    |
        <ALTER> <COLUMN> column = SimpleIdentifier() type = DataType()
        [
            <NULL> { nullability = Nullability.NULLABLE; }
        |
            <NOT> <NULL> { nullability = Nullability.NOT_NULL; }
        ]
        {
            return new SqlAlterTableAlterColumn(s.end(this), table, column, type, nullability);
        }
    )
}

/** ALTER INDEX { name | ALL } ON table { REORGANIZE | REBUILD } [ WITH ( option, ... ) ] */
SqlNode ColumbaAlterIndex() :
{
    final Span s;
    SqlIdentifier name = null;
    final SqlIdentifier table;
    final SqlAlterIndex.Action action;
    SqlNodeList optionList = SqlNodeList.EMPTY;
}
{
    <ALTER> { s = span(); } <INDEX>
    (
        <ALL>
    |
        name = SimpleIdentifier()
    )
    <ON> table = CompoundIdentifier()
    (
        <REORGANIZE> { action = SqlAlterIndex.Action.REORGANIZE; }
    |
        <REBUILD> { action = SqlAlterIndex.Action.REBUILD; }
    )
    [ <WITH> optionList = ColumbaOptionList() ]
    {
        return new SqlAlterIndex(s.end(this), name, table, action, optionList);
    }
}

/** SET STATISTICS { IO | TIME } [, ...] { ON | OFF } */
SqlNode ColumbaSetStatistics() :
{
    final Span s;
    final List<SqlSetStatistics.Kind> kinds = new ArrayList<SqlSetStatistics.Kind>();
    final boolean on;
}
{
    <SET> { s = span(); } <STATISTICS>
    ColumbaStatisticsKind(kinds)
    ( <COMMA> ColumbaStatisticsKind(kinds) )*
    (
        <ON> { on = true; }
    |
        <OFF> { on = false; }
    )
    {
        return new SqlSetStatistics(s.end(this), kinds, on);
    }
}

void ColumbaStatisticsKind(List<SqlSetStatistics.Kind> kinds) :
{
}
{
    <IO> { kinds.add(SqlSetStatistics.Kind.IO); }
|
    <TIME> { kinds.add(SqlSetStatistics.Kind.TIME); }
}

/**
 * SET name [=] value, RESET name | ALL; after ALTER SYSTEM | SESSION too. Calcite's own
 * production wants "="; SQL Server users write "SET read_ahead OFF".
 */
SqlSetOption ColumbaSetOption(Span s, String scope) :
{
    final SqlIdentifier name;
    final SqlNode value;
}
{
    (
        <SET> { s.add(this); }
        name = CompoundIdentifier()
        [ <EQ> ]
        value = ColumbaOptionValue()
        {
            return new SqlSetOption(s.end(value), scope, (SqlNode) name, value);
        }
    |
        <RESET> { s.add(this); }
        (
            name = CompoundIdentifier()
        |
            <ALL> { name = new SqlIdentifier("ALL", getPos()); }
        )
        {
            return new SqlSetOption(s.end(name), scope, (SqlNode) name, null);
        }
    )
}

/**
 * Logins of the wire server, in SQL Server's words and in PostgreSQL's:
 * CREATE LOGIN name WITH PASSWORD = 'p' | CREATE USER name [WITH] [SUPERUSER | NOSUPERUSER] PASSWORD 'p'
 * ALTER LOGIN name WITH PASSWORD = 'p'  | ALTER USER name [WITH] [SUPERUSER | NOSUPERUSER] [PASSWORD 'p']
 * DROP LOGIN name                       | DROP USER name
 */
SqlNode ColumbaLogin() :
{
    final Span s;
    final SqlLogin.Action action;
    final SqlIdentifier name;
    String password = null;
    Boolean superuser = null;
    SqlIdentifier option;
}
{
    (
        <CREATE> { s = span(); action = SqlLogin.Action.CREATE; }
    |
        <ALTER> { s = span(); action = SqlLogin.Action.ALTER; }
    |
        <DROP> { s = span(); action = SqlLogin.Action.DROP; }
    )
    (
        <LOGIN> name = SimpleIdentifier()
        [
            <WITH> <PASSWORD> <EQ> password = SimpleStringLiteral()
        ]
    |
        <USER> name = SimpleIdentifier()
        [ <WITH> ]
        (
            LOOKAHEAD(2) <PASSWORD> password = SimpleStringLiteral()
        |
            option = SimpleIdentifier() {
                if (option.getSimple().equalsIgnoreCase("SUPERUSER")) {
                    superuser = Boolean.TRUE;
                } else if (option.getSimple().equalsIgnoreCase("NOSUPERUSER")) {
                    superuser = Boolean.FALSE;
                } else {
                    throw columbaError(option.getParserPosition(), "CREATE and ALTER USER take SUPERUSER, NOSUPERUSER"
                            + " and PASSWORD 'password', not " + option.getSimple());
                }
            }
        )*
    )
    {
        if (action == SqlLogin.Action.DROP ? password != null || superuser != null
                : password == null && (action == SqlLogin.Action.CREATE || superuser == null)) {
            throw columbaError(s.end(this), action == SqlLogin.Action.DROP
                    ? "DROP LOGIN takes no password" : action + " LOGIN needs WITH PASSWORD = 'password'");
        }
        return new SqlLogin(s.end(this), action, name, password, superuser);
    }
}

/**
 * A fixed server role's members, as SQL Server writes it: ALTER SERVER ROLE sysadmin ADD | DROP MEMBER login.
 */
SqlNode ColumbaServerRole() :
{
    final Span s;
    final SqlIdentifier role;
    final boolean add;
    final SqlIdentifier member;
}
{
    <ALTER> { s = span(); } <SERVER> <ROLE> role = SimpleIdentifier()
    ( <ADD> { add = true; } | <DROP> { add = false; } )
    <MEMBER> member = SimpleIdentifier()
    {
        return new SqlServerRoleMember(s.end(this), role, add, member);
    }
}

/** CHECKPOINT */
SqlNode ColumbaCheckpoint() :
{
}
{
    <CHECKPOINT> { return new SqlCheckpoint(getPos()); }
}

/** EXEC[UTE] procedure_name: a system procedure without arguments (sys.sp_flush_log) */
SqlNode ColumbaExecuteProcedure() :
{
    final Span s;
    final SqlIdentifier name;
}
{
    ( <EXEC> | <EXECUTE> ) { s = span(); }
    name = CompoundIdentifier() {
        return new SqlExecuteProcedure(s.end(this), name);
    }
}

/** DBCC DROPCLEANBUFFERS | DBCC { TRACEON | TRACEOFF } ( flag, ... [, -1] ) */
SqlNode ColumbaDbcc() :
{
    final Span s;
    final SqlDbcc.Command command;
    final List<Integer> flags = new ArrayList<Integer>();
    final boolean[] global = { false };
    final SqlIdentifier unknown;
}
{
    <DBCC> { s = span(); }
    (
        LOOKAHEAD(1)
        <DROPCLEANBUFFERS> {
            return new SqlDbcc(s.end(this), SqlDbcc.Command.DROPCLEANBUFFERS, flags, false);
        }
    |
        LOOKAHEAD(1)
        (
            <TRACEON> { command = SqlDbcc.Command.TRACEON; }
        |
            <TRACEOFF> { command = SqlDbcc.Command.TRACEOFF; }
        )
        <LPAREN>
        ColumbaTraceFlag(flags, global)
        ( <COMMA> ColumbaTraceFlag(flags, global) )*
        <RPAREN>
        {
            if (flags.isEmpty()) {
                throw columbaError(s.end(this), "DBCC " + command + " needs a trace flag");
            }
            return new SqlDbcc(s.end(this), command, flags, global[0]);
        }
    |
        // Any other name: a message that says so, rather than Calcite's reading "DBCC" as a column.
        unknown = SimpleIdentifier() {
            throw columbaError(unknown.getParserPosition(), "Unknown DBCC command " + unknown
                + "; Columba has DROPCLEANBUFFERS, TRACEON and TRACEOFF");
        }
    )
}

/** A trace flag number, or -1: "for every session" (SQL Server's global trace flag). */
void ColumbaTraceFlag(List<Integer> flags, boolean[] global) :
{
    final Token first;
    final int flag;
}
{
    { first = getToken(1); }
    flag = IntLiteral() {
        if (flag == -1) {
            global[0] = true;
        } else if (flag < 0) {
            throw columbaError(new SqlParserPos(first.beginLine, first.beginColumn,
                token.endLine, token.endColumn), "Trace flag " + flag + " is negative");
        } else {
            flags.add(flag);
        }
    }
}

/**
 * COPY table [ ( column, ... ) ] FROM 'file' [ [ WITH ] ( option, ... ) ]
 * COPY table [ ( column, ... ) ] TO 'file' [ [ WITH ] ( option, ... ) ]
 * COPY ( query ) TO 'file' [ [ WITH ] ( option, ... ) ]
 */
SqlNode ColumbaCopy() :
{
    final Span s;
    SqlIdentifier table = null;
    SqlNodeList columns = SqlNodeList.EMPTY;
    SqlNode query = null;
    boolean from = false;
    final SqlNode file;
    SqlNodeList optionList = SqlNodeList.EMPTY;
}
{
    <COPY> { s = span(); }
    (
        table = CompoundIdentifier()
        [ columns = ParenthesizedSimpleIdentifierList() ]
        ( <FROM> { from = true; } | <TO> { from = false; } )
    |
        <LPAREN> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY) <RPAREN> <TO>
    )
    file = StringLiteral()
    [ [ <WITH> ] optionList = ColumbaOptionList() ]
    {
        return new SqlCopy(s.end(this), table, columns, query, from, SqlLiteral.unchain(file), optionList);
    }
}

/** PRINT expression */
SqlNode ColumbaPrint() :
{
    final Span s;
    final SqlNode message;
}
{
    <PRINT> { s = span(); } message = Expression(ExprContext.ACCEPT_NON_QUERY) {
        return new SqlPrint(s.end(this), message);
    }
}

/**
 * EXPLAIN [ PLAN [ detail ] [ depth ] [ AS format ] FOR ] statement
 *
 * Calcite's EXPLAIN wants PLAN ... FOR; SQL Server and PostgreSQL users write EXPLAIN query.
 * Both give Calcite's SqlExplain, whose explicandum may be a query with OPTION (...).
 */
SqlNode ColumbaExplain() :
{
    final Span s;
    final SqlNode statement;
    SqlExplainLevel detailLevel = SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    SqlExplain.Depth depth = SqlExplain.Depth.PHYSICAL;
    SqlExplainFormat format = SqlExplainFormat.TEXT;
}
{
    <EXPLAIN> { s = span(); }
    [
        LOOKAHEAD(1)
        <PLAN>
        [ detailLevel = ExplainDetailLevel() ]
        depth = ExplainDepth()
        [
            LOOKAHEAD(2)
            <AS> <XML> { format = SqlExplainFormat.XML; }
        |
            LOOKAHEAD(2)
            <AS> <JSON> { format = SqlExplainFormat.JSON; }
        |
            <AS> <DOT_FORMAT> { format = SqlExplainFormat.DOT; }
        ]
        <FOR>
    ]
    (
        statement = ColumbaQuery()
    |
        statement = ColumbaInsert()
    |
        statement = ColumbaDelete()
    |
        statement = ColumbaUpdate()
    |
        statement = ColumbaMerge()
    )
    {
        return new SqlExplain(s.end(this), statement,
            detailLevel.symbol(SqlParserPos.ZERO),
            depth.symbol(SqlParserPos.ZERO),
            format.symbol(SqlParserPos.ZERO),
            nDynamicParams);
    }
}

/**
 * SELECT [ ALL | DISTINCT ] [ TOP n ] item, ... INTO table [ FROM ... [ WHERE ... ] [ GROUP BY ... ] [ HAVING ... ]
 *     [ ORDER BY ... ] ]
 *
 * SQL Server's SELECT INTO, which means CREATE TABLE table AS SELECT ...: it becomes that
 * statement (a rowstore heap with the query's columns). Calcite's SqlSelect production has no
 * place for INTO, so this is its select clause with INTO and its FROM, WHERE, GROUP BY and HAVING
 * productions. SelectIntoLookahead decides before any token is taken, so every other SELECT
 * reaches ColumbaQuery().
 */
SqlNode ColumbaSelectInto() :
{
    final Span s;
    final List<SqlLiteral> keywords = new ArrayList<SqlLiteral>();
    SqlLiteral keyword;
    final List<SqlNode> selectList = new ArrayList<SqlNode>();
    final SqlIdentifier target;
    SqlNode fromClause = null;
    SqlNode where = null;
    SqlNodeList groupBy = null;
    SqlNode having = null;
    SqlNodeList orderBy = null;
    SqlNode top = null;
}
{
    (
        LOOKAHEAD({ SelectIntoLookahead.intoFollows(this) })
        <SELECT> { s = span(); }
        [ keyword = AllOrDistinct() { keywords.add(keyword); } ]
        [ LOOKAHEAD(2) top = ColumbaTop() ]
        AddSelectItem(selectList)
        ( <COMMA> AddSelectItem(selectList) )*
        <INTO> target = CompoundIdentifier()
        [
            <FROM> fromClause = FromClause()
            [ where = Where() ]
            [ groupBy = GroupBy() ]
            [ having = Having() ]
            [ orderBy = OrderBy(true) ]
        ]
        {
            final SqlSelect select = new SqlSelect(s.end(this),
                new SqlNodeList(keywords, s.pos()),
                new SqlNodeList(selectList, Span.of(selectList).pos()),
                fromClause, where, groupBy, having, null, null, orderBy, null, top,
                new SqlNodeList(getPos()));
            return new SqlCreateTable(s.end(this), false, false, target, SqlNodeList.EMPTY, null,
                SqlNodeList.EMPTY, select);
        }
    |
        UnusedExtension() { return null; }
    )
}

/** query [ OPTION ( hint, ... ) ]: SQL Server's query hints, at the end of a statement only. */
SqlNode ColumbaQuery() :
{
    final SqlNode query;
    final Span s;
    final List<SqlNode> hints = new ArrayList<SqlNode>();
}
{
    (
        // SqlStmt tries this production with two tokens of lookahead, and a lookahead that
        // reaches the end of a production succeeds: "TRUNCATE" or "INSERT" alone parse as calls
        // of the functions of those names. Only what starts a query may pass, so that TRUNCATE,
        // INSERT and the rest reach their own productions. (A helper method cannot say this: JavaCC
        // declares them "throws ParseException", which its lookahead methods do not.)
        LOOKAHEAD({
            getToken(1).kind == SELECT || getToken(1).kind == WITH
            || getToken(1).kind == VALUES || getToken(1).kind == VALUE
            || getToken(1).kind == TABLE || getToken(1).kind == LPAREN
        })
        query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    |
        UnusedExtension() { query = null; }
    )
    (
        <OPTION> { s = span(); }
        <LPAREN>
        ColumbaQueryHint(hints)
        ( <COMMA> ColumbaQueryHint(hints) )*
        <RPAREN>
        {
            return new SqlQueryOption(Span.of(query).end(this), query,
                new SqlNodeList(hints, s.end(this)));
        }
    |
        { return query; }
    )
}

/** LOOP JOIN | HASH JOIN | MERGE JOIN | MAXDOP n | RECOMPILE | FORCE ORDER */
void ColumbaQueryHint(List<SqlNode> hints) :
{
    final Span s;
    final int degree;
}
{
    <LOOP> { s = span(); } <JOIN> {
        hints.add(new SqlQueryHint(s.end(this), SqlQueryHint.Kind.LOOP_JOIN));
    }
|
    <HASH> { s = span(); } <JOIN> {
        hints.add(new SqlQueryHint(s.end(this), SqlQueryHint.Kind.HASH_JOIN));
    }
|
    <MERGE> { s = span(); } <JOIN> {
        hints.add(new SqlQueryHint(s.end(this), SqlQueryHint.Kind.MERGE_JOIN));
    }
|
    <MAXDOP> { s = span(); } degree = UnsignedIntLiteral() {
        hints.add(new SqlQueryHint(s.end(this), SqlQueryHint.Kind.MAXDOP, degree));
    }
|
    <RECOMPILE> {
        hints.add(new SqlQueryHint(getPos(), SqlQueryHint.Kind.RECOMPILE));
    }
|
    <FORCE> { s = span(); } <ORDER> {
        hints.add(new SqlQueryHint(s.end(this), SqlQueryHint.Kind.FORCE_ORDER));
    }
}

/**
 * SQL Server's DATEADD(datepart, number, date): Calcite's TIMESTAMPADD with SQL Server's names
 * and abbreviations of the unit (DatePart); a unit below a day makes the date a TIMESTAMP.
 */
SqlNode ColumbaDateAdd() :
{
    final Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
    final DatePart part;
}
{
    <DATEADD> { s = span(); }
    <LPAREN>
    part = ColumbaDatePart("DATEADD") { args.add(part.qualifier(getPos())); }
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <RPAREN>
    {
        if (part.belowDay()) {
            // TIMESTAMPADD would add hours to a DATE and keep a DATE; SQL Server refuses, PostgreSQL
            // gives a TIMESTAMP, and so does Columba. A TIMESTAMP's cast to TIMESTAMP is dropped.
            args.set(2, SqlStdOperatorTable.CAST.createCall(args.get(2).getParserPosition(), args.get(2),
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, getPos()), getPos())));
        }
        return SqlStdOperatorTable.TIMESTAMP_ADD.createCall(s.end(this), args);
    }
}

/** SQL Server's DATEDIFF(datepart, start, end): boundaries crossed (SqlDateDiffFunction). */
SqlNode ColumbaDateDiff() :
{
    final Span s;
    final List<SqlNode> args = new ArrayList<SqlNode>();
    final DatePart part;
}
{
    <DATEDIFF> { s = span(); }
    <LPAREN>
    part = ColumbaDatePart("DATEDIFF")
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <COMMA>
    AddExpression(args, ExprContext.ACCEPT_SUB_QUERY)
    <RPAREN>
    {
        return SqlDateDiffFunction.call(s.end(this), part, args.get(0), args.get(1));
    }
}

/** A datepart name; an unknown one is SQL Server's Msg 155, "'x' is not a recognized dateadd option". */
DatePart ColumbaDatePart(String function) :
{
    final SqlIdentifier name;
}
{
    name = SimpleIdentifier()
    {
        final java.util.Optional<DatePart> part = DatePart.named(name.getSimple());
        if (part.isEmpty()) {
            throw columbaError(name.getParserPosition(), "'" + name.getSimple() + "' is not a recognized "
                + function.toLowerCase(java.util.Locale.ROOT) + " option");
        }
        return part.get();
    }
}

/**
 * CREATE VIEW name [ ( column, ... ) ] AS query, after CREATE [ OR REPLACE ]. The query is
 * Calcite's (ORDER BY and FETCH included, which a view keeps only as far as they choose rows).
 */
SqlCreate ColumbaCreateView(Span s, boolean replace) :
{
    final SqlIdentifier name;
    SqlNodeList columnList = null;
    final SqlNode query;
}
{
    <VIEW> name = CompoundIdentifier()
    [ columnList = ParenthesizedSimpleIdentifierList() ]
    <AS> query = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    {
        return SqlDdlNodes.createView(s.end(this), replace, name, columnList, query);
    }
}

/**
 * SQL Server's CREATE OR ALTER VIEW, and CREATE OR REPLACE followed by anything CREATE takes. SqlStmt
 * tries statement methods with two tokens of lookahead, so this one receives every CREATE OR;
 * REPLACE hands TABLE and INDEX to their own methods as Calcite's CREATE would have.
 */
SqlCreate ColumbaCreateOrAlter() :
{
    final Span s;
    final SqlCreate create;
}
{
    <CREATE> { s = span(); } <OR>
    (
        <ALTER> create = ColumbaCreateView(s, true)
    |
        <REPLACE>
        (
            create = ColumbaCreateView(s, true)
        |
            create = ColumbaCreateTable(s, true)
        |
            create = ColumbaCreateIndex(s, true)
        )
    )
    { return create; }
}

/** DROP VIEW [ IF EXISTS ] name */
SqlDrop ColumbaDropView(Span s, boolean replace) :
{
    final boolean ifExists;
    final SqlIdentifier name;
}
{
    <VIEW> ifExists = ColumbaIfExists() name = CompoundIdentifier() {
        return SqlDdlNodes.dropView(s.end(this), ifExists, name);
    }
}

/**
 * UPDATE table [ [AS] alias ] SET column = { expression | DEFAULT }, ... [ OUTPUT ... ] [ WHERE condition ]
 *     [ RETURNING ... ]
 *
 * Calcite's UPDATE with DEFAULT as a value (its own production has "TODO: support DEFAULT also");
 * the planner replaces DEFAULT by the column's default before validation (UpdateDefaultRewrite).
 * OUTPUT and RETURNING: SqlDataChangeOutput.
 */
SqlNode ColumbaUpdate() :
{
    final SqlIdentifier tableName;
    SqlNode tableRef;
    final SqlIdentifier alias;
    final SqlNode where;
    final SqlNodeList sourceExpressionList;
    final SqlNodeList targetColumnList;
    SqlIdentifier id;
    final Span s;
    SqlDataChangeOutput.Clause output = null;
    SqlDataChangeOutput.Clause returning = null;
}
{
    <UPDATE> {
        s = span();
        targetColumnList = new SqlNodeList(s.pos());
        sourceExpressionList = new SqlNodeList(s.pos());
    }
    tableName = CompoundTableIdentifier()
    ( tableRef = TableHints(tableName) | { tableRef = tableName; } )
    [ tableRef = ExtendTable(tableRef) ]
    ( [ <AS> ] alias = SimpleIdentifier() | { alias = null; } )
    <SET> id = CompoundIdentifier() { targetColumnList.add(id); }
    <EQ> ColumbaUpdateValue(sourceExpressionList)
    (
        <COMMA>
        id = CompoundIdentifier() { targetColumnList.add(id); }
        <EQ> ColumbaUpdateValue(sourceExpressionList)
    )*
    [ output = ColumbaOutput() ]
    ( where = Where() | { where = null; } )
    [ returning = ColumbaReturning() ]
    {
        final SqlParserPos pos = s.addAll(targetColumnList)
            .addAll(sourceExpressionList).addIf(where).pos();
        return columbaWithOutput(new SqlUpdate(pos, tableRef, targetColumnList,
            sourceExpressionList, where, null, alias), output, returning);
    }
}

/**
 * INSERT INTO table [ ( column, ... ) ] [ OUTPUT ... ] source [ RETURNING ... ]
 *
 * Calcite's INSERT production with SQL Server's OUTPUT clause between the column list and the
 * source, and PostgreSQL's RETURNING after it (SqlDataChangeOutput). UPSERT still reaches
 * Calcite's own production (this one is tried first, for INSERT INTO).
 */
SqlNode ColumbaInsert() :
{
    final SqlIdentifier tableName;
    SqlNode tableRef;
    final SqlNode source;
    SqlNodeList columnList = null;
    final Span s;
    final Pair<SqlNodeList, SqlNodeList> p;
    SqlDataChangeOutput.Clause output = null;
    SqlDataChangeOutput.Clause returning = null;
}
{
    <INSERT> { s = span(); } <INTO> tableName = CompoundTableIdentifier()
    ( tableRef = TableHints(tableName) | { tableRef = tableName; } )
    [ LOOKAHEAD(5) tableRef = ExtendTable(tableRef) ]
    [
        LOOKAHEAD(2)
        p = ParenthesizedCompoundIdentifierList() {
            if (!p.right.isEmpty()) {
                tableRef = extend(tableRef, p.right);
            }
            if (!p.left.isEmpty()) {
                columnList = p.left;
            }
        }
    ]
    // An expression source could start with a column called output; OUTPUT here is the clause.
    [ LOOKAHEAD(1) output = ColumbaOutput() ]
    source = OrderedQueryOrExpr(ExprContext.ACCEPT_QUERY)
    [ returning = ColumbaReturning() ]
    {
        return columbaWithOutput(new SqlInsert(s.end(source), SqlNodeList.EMPTY, tableRef, source, columnList),
            output, returning);
    }
}

/**
 * DELETE FROM table [ [ AS ] alias ] [ OUTPUT ... ] [ WHERE condition ] [ RETURNING ... ]
 *
 * Calcite's DELETE production with OUTPUT and RETURNING (SqlDataChangeOutput). OUTPUT is not a
 * reserved word (a column may be called output), so it is not read as the table's alias here.
 */
SqlNode ColumbaDelete() :
{
    final SqlIdentifier tableName;
    SqlNode tableRef;
    SqlIdentifier alias = null;
    final SqlNode where;
    final Span s;
    SqlDataChangeOutput.Clause output = null;
    SqlDataChangeOutput.Clause returning = null;
}
{
    <DELETE> { s = span(); } <FROM> tableName = CompoundTableIdentifier()
    ( tableRef = TableHints(tableName) | { tableRef = tableName; } )
    [ tableRef = ExtendTable(tableRef) ]
    [
        <AS> alias = SimpleIdentifier()
    |
        LOOKAHEAD(1, { getToken(1).kind != OUTPUT }) alias = SimpleIdentifier()
    ]
    [ output = ColumbaOutput() ]
    ( where = Where() | { where = null; } )
    [ returning = ColumbaReturning() ]
    {
        return columbaWithOutput(new SqlDelete(s.add(tableRef).addIf(alias).addIf(where).pos(),
            tableRef, where, null, alias), output, returning);
    }
}

/** OUTPUT item, ... [ INTO table [ ( column, ... ) ] ]: SQL Server's (SqlDataChangeOutput). */
SqlDataChangeOutput.Clause ColumbaOutput() :
{
    final Span s;
    final List<SqlNode> items = new ArrayList<SqlNode>();
    SqlIdentifier into = null;
    SqlNodeList intoColumns = null;
}
{
    <OUTPUT> { s = span(); }
    AddSelectItem(items) ( <COMMA> AddSelectItem(items) )*
    [
        <INTO> into = CompoundTableIdentifier()
        [ LOOKAHEAD(2) intoColumns = ParenthesizedSimpleIdentifierList() ]
    ]
    {
        return new SqlDataChangeOutput.Clause(s.end(this), SqlDataChangeOutput.Style.OUTPUT,
            new SqlNodeList(items, s.end(this)), into, intoColumns);
    }
}

/** RETURNING item, ...: PostgreSQL's (SqlDataChangeOutput). */
SqlDataChangeOutput.Clause ColumbaReturning() :
{
    final Span s;
    final List<SqlNode> items = new ArrayList<SqlNode>();
}
{
    <RETURNING> { s = span(); }
    AddSelectItem(items) ( <COMMA> AddSelectItem(items) )*
    {
        return new SqlDataChangeOutput.Clause(s.end(this), SqlDataChangeOutput.Style.RETURNING,
            new SqlNodeList(items, s.end(this)), null, null);
    }
}

/** A data change with its OUTPUT or RETURNING clause, if it has one; not both. */
JAVACODE SqlNode columbaWithOutput(SqlNode statement, SqlDataChangeOutput.Clause output,
    SqlDataChangeOutput.Clause returning)
{
    if (output != null && returning != null) {
        throw columbaError(returning.position(), "A statement has either an OUTPUT clause (SQL Server) or a"
            + " RETURNING clause (PostgreSQL), not both");
    }
    return SqlDataChangeOutput.of(statement, output != null ? output : returning);
}

void ColumbaUpdateValue(List<SqlNode> list) :
{
    final SqlNode e;
}
{
    (
        e = Default()
    |
        e = Expression(ExprContext.ACCEPT_SUB_QUERY)
    )
    { list.add(e); }
}

/**
 * TOP count | TOP ( count ), count a whole number or a parameter: SQL Server's row limit, which
 * templates/Parser.jj reads after SELECT [ ALL | DISTINCT ]. The count becomes the SqlSelect's
 * fetch, as LIMIT's does, and with an ORDER BY the SqlOrderBy's (columbaTopOrderBy), so that
 * TOP n ... ORDER BY is the same top-N sort as ORDER BY ... LIMIT n. TOP's two variants are
 * refused as not supported: PERCENT (the count depends on the rows the query yields) and
 * WITH TIES (the last row's equals in the sort order).
 */
SqlNode ColumbaTop() :
{
    final Span s;
    final SqlNode count;
}
{
    <TOP> { s = span(); }
    (
        count = UnsignedNumericLiteralOrParam()
    |
        <LPAREN> count = UnsignedNumericLiteralOrParam() <RPAREN>
    )
    [
        <PERCENT> {
            throw columbaNotSupported(s.end(this), "TOP ... PERCENT is not supported; use TOP n with a row count");
        }
    ]
    [
        <WITH> <TIES> {
            throw columbaNotSupported(s.end(this), "TOP ... WITH TIES is not supported; use RANK() OVER (ORDER BY ...) <= n"
                + " in a derived table to keep the rows tied with the last one");
        }
    ]
    { return count; }
}

/**
 * Calcite's SqlOrderBy, except after SELECT TOP: the count moves from the SqlSelect to the
 * SqlOrderBy, so that it limits the sorted rows (SQL Server's TOP with ORDER BY) and Calcite's
 * validator, which moves an ORDER BY's offset and fetch into its SqlSelect, does not overwrite it
 * with none. TOP beside OFFSET, LIMIT or FETCH is SQL Server's Msg 10741.
 */
JAVACODE SqlNode columbaTopOrderBy(SqlParserPos pos, SqlNode query, SqlNodeList orderList, SqlNode offset,
    SqlNode fetch)
{
    if (query instanceof SqlSelect && ((SqlSelect) query).getFetch() != null) {
        final SqlSelect select = (SqlSelect) query;
        if (offset != null || fetch != null) {
            throw columbaError(pos, "TOP cannot be used in the same query as OFFSET, LIMIT or FETCH");
        }
        final SqlNode top = select.getFetch();
        select.setFetch(null);
        return new SqlOrderBy(pos, select, orderList, null, top);
    }
    return new SqlOrderBy(pos, query, orderList, offset, fetch);
}

/**
 * A statement the parser reads but Columba does not run (SQLSTATE 0A000, not a syntax error):
 * ColumbaSqlParser takes it out of the SqlParseException Calcite wraps it in.
 */
JAVACODE ColumbaException columbaNotSupported(SqlParserPos pos, String message)
{
    return new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, message + " (line " + pos.getLineNum()
        + ", column " + pos.getColumnNum() + ")");
}

/**
 * UPDATE TOP ( n ) ..., DELETE TOP ( n ) ..., INSERT TOP ( n ) ...: SQL Server changes any n of
 * the rows the statement selects, in no defined order. Columba refuses them as not supported
 * (0A000) rather than as a syntax error, and says how to write the same with a defined order.
 * A table called top keeps working: the parentheses that SQL Server requires here decide.
 */
SqlNode ColumbaDmlTop() :
{
    final Span s;
    final String statement;
}
{
    (
        LOOKAHEAD({
            (getToken(1).kind == UPDATE || getToken(1).kind == DELETE || getToken(1).kind == INSERT)
            && getToken(2).kind == TOP && getToken(3).kind == LPAREN
        })
        ( <UPDATE> | <DELETE> | <INSERT> ) { s = span(); statement = token.image.toUpperCase(java.util.Locale.ROOT); }
        <TOP>
        {
            throw columbaNotSupported(s.end(this), statement + " TOP (n) is not supported; limit the rows by their key"
                + " instead: ... WHERE key IN (SELECT TOP (n) key FROM ... ORDER BY ...)");
        }
    |
        UnusedExtension() { return null; }
    )
}

/**
 * SQL Server's MERGE (SqlMergeStatement): INTO optional, any number of WHEN clauses tried in the
 * order written, each with an optional AND condition; BY TARGET / BY SOURCE after NOT MATCHED.
 * Calcite's own SqlMerge production is never reached (this one is tried first).
 */
SqlNode ColumbaMerge() :
{
    final Span s;
    final SqlIdentifier table;
    SqlIdentifier alias = null;
    final SqlNode source;
    final SqlNode condition;
    final List<SqlMergeStatement.Clause> clauses = new ArrayList<SqlMergeStatement.Clause>();
    SqlDataChangeOutput.Clause output = null;
}
{
    <MERGE> { s = span(); }
    [ <INTO> ]
    table = CompoundTableIdentifier()
    [ [ <AS> ] alias = SimpleIdentifier() ]
    <USING> source = TableRef()
    <ON> condition = Expression(ExprContext.ACCEPT_SUB_QUERY)
    ( ColumbaMergeClause(clauses) )+
    [ output = ColumbaOutput() ]
    {
        return columbaWithOutput(new SqlMergeStatement(s.end(this), table, alias, source, condition, clauses),
            output, null);
    }
}

void ColumbaMergeClause(List<SqlMergeStatement.Clause> clauses) :
{
    final Span s;
    SqlMergeStatement.Match match;
    SqlIdentifier by;
    SqlNode condition = null;
    SqlMergeStatement.Action action;
    final List<SqlIdentifier> columns = new ArrayList<SqlIdentifier>();
    final List<SqlNode> values = new ArrayList<SqlNode>();
    SqlIdentifier id;
    SqlNodeList insertColumns;
}
{
    <WHEN> { s = span(); }
    (
        <MATCHED> { match = SqlMergeStatement.Match.MATCHED; }
    |
        <NOT> <MATCHED> { match = SqlMergeStatement.Match.NOT_MATCHED_BY_TARGET; }
        [
            <BY> by = SimpleIdentifier() {
                if (by.getSimple().equalsIgnoreCase("SOURCE")) {
                    match = SqlMergeStatement.Match.NOT_MATCHED_BY_SOURCE;
                } else if (!by.getSimple().equalsIgnoreCase("TARGET")) {
                    throw new ParseException("Encountered \"" + by.getSimple() + "\" at line "
                        + by.getParserPosition().getLineNum() + ", column " + by.getParserPosition().getColumnNum()
                        + ". Was expecting SOURCE or TARGET after WHEN NOT MATCHED BY");
                }
            }
        ]
    )
    [ <AND> condition = Expression(ExprContext.ACCEPT_SUB_QUERY) ]
    <THEN>
    (
        <UPDATE> <SET> { action = SqlMergeStatement.Action.UPDATE; }
        id = CompoundIdentifier() { columns.add(id); }
        <EQ> ColumbaUpdateValue(values)
        (
            <COMMA>
            id = CompoundIdentifier() { columns.add(id); }
            <EQ> ColumbaUpdateValue(values)
        )*
    |
        <DELETE> { action = SqlMergeStatement.Action.DELETE; }
    |
        <INSERT> { action = SqlMergeStatement.Action.INSERT; }
        [
            LOOKAHEAD(2)
            insertColumns = ParenthesizedSimpleIdentifierList() {
                for (SqlNode column : insertColumns) {
                    columns.add((SqlIdentifier) column);
                }
            }
        ]
        (
            <VALUES> <LPAREN> ColumbaUpdateValue(values) ( <COMMA> ColumbaUpdateValue(values) )* <RPAREN>
        |
            <DEFAULT_> <VALUES>
        )
    )
    {
        if ((action == SqlMergeStatement.Action.INSERT) != (match == SqlMergeStatement.Match.NOT_MATCHED_BY_TARGET)) {
            throw columbaNotSupported(s.end(this), match == SqlMergeStatement.Match.NOT_MATCHED_BY_TARGET
                ? "WHEN NOT MATCHED [BY TARGET] can only INSERT (the row is not in the table)"
                : "WHEN MATCHED and WHEN NOT MATCHED BY SOURCE can only UPDATE or DELETE (the row is in the table)");
        }
        clauses.add(new SqlMergeStatement.Clause(s.end(this), match, condition, action, columns, values));
    }
}
