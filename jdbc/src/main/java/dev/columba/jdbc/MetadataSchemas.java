package dev.columba.jdbc;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * The column lists of metadata result sets, as {@link java.sql.DatabaseMetaData} names them. JDBC's
 * SMALLINT columns are INT here (Columba's smallest integer; {@code getShort} reads them).
 */
final class MetadataSchemas {
    /** Names: SQL Server's {@code sysname} length. */
    static final SqlType NAME = SqlType.varchar(128);
    /** Free text (remarks, expressions). */
    static final SqlType TEXT = SqlType.varchar(4000);

    private MetadataSchemas() {
    }

    /** Column names, each optionally followed by its type; a name without one is a {@link #NAME}. All admit NULL. */
    static TableSchema schema(Object... namesAndTypes) {
        List<Column> columns = new ArrayList<>();
        for (int index = 0; index < namesAndTypes.length; index++) {
            String name = (String) namesAndTypes[index];
            SqlType type = NAME;
            if (index + 1 < namesAndTypes.length && namesAndTypes[index + 1] instanceof SqlType given) {
                type = given;
                index++;
            }
            columns.add(Column.nullable(name, type));
        }
        return new TableSchema(columns);
    }

    static final TableSchema CATALOGS = schema("TABLE_CAT");
    static final TableSchema SCHEMAS = schema("TABLE_SCHEM", "TABLE_CATALOG");
    static final TableSchema TABLE_TYPES = schema("TABLE_TYPE");
    static final TableSchema TYPE_INFO = schema("TYPE_NAME", "DATA_TYPE", SqlType.INT, "PRECISION", SqlType.INT,
            "LITERAL_PREFIX", "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE", SqlType.INT, "CASE_SENSITIVE", SqlType.BOOLEAN,
            "SEARCHABLE", SqlType.INT, "UNSIGNED_ATTRIBUTE", SqlType.BOOLEAN, "FIXED_PREC_SCALE", SqlType.BOOLEAN,
            "AUTO_INCREMENT", SqlType.BOOLEAN, "LOCAL_TYPE_NAME", "MINIMUM_SCALE", SqlType.INT, "MAXIMUM_SCALE", SqlType.INT,
            "SQL_DATA_TYPE", SqlType.INT, "SQL_DATETIME_SUB", SqlType.INT, "NUM_PREC_RADIX", SqlType.INT);

    // The result sets of things Columba does not have (procedures, functions as objects, foreign
    // keys, privileges, user-defined types): empty, with the columns JDBC names so tools can read them.
    static final TableSchema PROCEDURES = schema("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "RESERVED_1",
            "RESERVED_2", "RESERVED_3", "REMARKS", TEXT, "PROCEDURE_TYPE", SqlType.INT, "SPECIFIC_NAME");
    static final TableSchema PROCEDURE_COLUMNS = schema("PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME", "COLUMN_NAME",
            "COLUMN_TYPE", SqlType.INT, "DATA_TYPE", SqlType.INT, "TYPE_NAME", "PRECISION", SqlType.INT, "LENGTH", SqlType.INT,
            "SCALE", SqlType.INT, "RADIX", SqlType.INT, "NULLABLE", SqlType.INT, "REMARKS", TEXT, "COLUMN_DEF",
            "SQL_DATA_TYPE", SqlType.INT, "SQL_DATETIME_SUB", SqlType.INT, "CHAR_OCTET_LENGTH", SqlType.INT,
            "ORDINAL_POSITION", SqlType.INT, "IS_NULLABLE", "SPECIFIC_NAME");
    static final TableSchema FUNCTIONS = schema("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "REMARKS", TEXT,
            "FUNCTION_TYPE", SqlType.INT, "SPECIFIC_NAME");
    static final TableSchema FUNCTION_COLUMNS = schema("FUNCTION_CAT", "FUNCTION_SCHEM", "FUNCTION_NAME", "COLUMN_NAME",
            "COLUMN_TYPE", SqlType.INT, "DATA_TYPE", SqlType.INT, "TYPE_NAME", "PRECISION", SqlType.INT, "LENGTH", SqlType.INT,
            "SCALE", SqlType.INT, "RADIX", SqlType.INT, "NULLABLE", SqlType.INT, "REMARKS", TEXT, "CHAR_OCTET_LENGTH",
            SqlType.INT, "ORDINAL_POSITION", SqlType.INT, "IS_NULLABLE", "SPECIFIC_NAME");
    static final TableSchema KEYS = schema("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT",
            "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", SqlType.INT, "UPDATE_RULE", SqlType.INT,
            "DELETE_RULE", SqlType.INT, "FK_NAME", "PK_NAME", "DEFERRABILITY", SqlType.INT);
    static final TableSchema COLUMN_PRIVILEGES = schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "GRANTOR",
            "GRANTEE", "PRIVILEGE", "IS_GRANTABLE");
    static final TableSchema TABLE_PRIVILEGES = schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "GRANTOR", "GRANTEE",
            "PRIVILEGE", "IS_GRANTABLE");
    static final TableSchema BEST_ROW_IDENTIFIER = schema("SCOPE", SqlType.INT, "COLUMN_NAME", "DATA_TYPE", SqlType.INT,
            "TYPE_NAME", "COLUMN_SIZE", SqlType.INT, "BUFFER_LENGTH", SqlType.INT, "DECIMAL_DIGITS", SqlType.INT,
            "PSEUDO_COLUMN", SqlType.INT);
    static final TableSchema VERSION_COLUMNS = schema("SCOPE", SqlType.INT, "COLUMN_NAME", "DATA_TYPE", SqlType.INT,
            "TYPE_NAME", "COLUMN_SIZE", SqlType.INT, "BUFFER_LENGTH", SqlType.INT, "DECIMAL_DIGITS", SqlType.INT,
            "PSEUDO_COLUMN", SqlType.INT);
    static final TableSchema UDTS = schema("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "CLASS_NAME", "DATA_TYPE", SqlType.INT,
            "REMARKS", TEXT, "BASE_TYPE", SqlType.INT);
    static final TableSchema SUPER_TYPES = schema("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SUPERTYPE_CAT", "SUPERTYPE_SCHEM",
            "SUPERTYPE_NAME");
    static final TableSchema SUPER_TABLES = schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "SUPERTABLE_NAME");
    static final TableSchema ATTRIBUTES = schema("TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "ATTR_NAME", "DATA_TYPE", SqlType.INT,
            "ATTR_TYPE_NAME", "ATTR_SIZE", SqlType.INT, "DECIMAL_DIGITS", SqlType.INT, "NUM_PREC_RADIX", SqlType.INT,
            "NULLABLE", SqlType.INT, "REMARKS", TEXT, "ATTR_DEF", "SQL_DATA_TYPE", SqlType.INT, "SQL_DATETIME_SUB",
            SqlType.INT, "CHAR_OCTET_LENGTH", SqlType.INT, "ORDINAL_POSITION", SqlType.INT, "IS_NULLABLE", "SCOPE_CATALOG",
            "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE", SqlType.INT);
    static final TableSchema CLIENT_INFO_PROPERTIES = schema("NAME", "MAX_LEN", SqlType.INT, "DEFAULT_VALUE",
            "DESCRIPTION", TEXT);
    static final TableSchema PSEUDO_COLUMNS = schema("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
            "DATA_TYPE", SqlType.INT, "COLUMN_SIZE", SqlType.INT, "DECIMAL_DIGITS", SqlType.INT, "NUM_PREC_RADIX",
            SqlType.INT, "COLUMN_USAGE", "REMARKS", TEXT, "CHAR_OCTET_LENGTH", SqlType.INT, "IS_NULLABLE");
}
