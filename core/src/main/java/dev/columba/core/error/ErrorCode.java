package dev.columba.core.error;

/**
 * Every error Columba reports, one enum with a range per category, mapped to a SQLSTATE at the
 * SQL edge. Codes are stable: tests and users may match on them.
 *
 * <ul>
 *   <li>1000-1999: user errors (bad input, bad settings, constraint violations); 1100-1199 are
 *       data exceptions raised while evaluating expressions</li>
 *   <li>2000-2999: resource errors (memory, disk, buffer pool, limits)</li>
 *   <li>3000-3999: corruption (checksums, formats, versions)</li>
 *   <li>9000-9999: internal errors (bugs)</li>
 * </ul>
 */
public enum ErrorCode {
    INVALID_ARGUMENT(1000, Category.USER, "22023"),
    SYNTAX_ERROR(1004, Category.USER, "42601"),
    /** A statement Columba understands but does not run (yet): the message names the construct. */
    FEATURE_NOT_SUPPORTED(1005, Category.USER, "0A000"),
    /** A statement that parses but breaks a rule of SQL (ambiguous names, misplaced aggregates, ...). */
    INVALID_STATEMENT(1006, Category.USER, "42000"),
    UNKNOWN_SETTING(1001, Category.USER, "42704"),
    INVALID_SETTING_VALUE(1002, Category.USER, "22023"),
    SETTING_NOT_SESSION_SCOPED(1003, Category.USER, "55P02"),
    VALUE_OUT_OF_RANGE(1010, Category.USER, "22003"),
    STRING_TOO_LONG(1011, Category.USER, "22001"),
    NULL_NOT_ALLOWED(1012, Category.USER, "23502"),
    DUPLICATE_KEY(1013, Category.USER, "23505"),
    /** A row for which a CHECK constraint's condition is false. */
    CHECK_VIOLATION(1016, Category.USER, "23514"),
    WRONG_TYPE(1014, Category.USER, "42804"),
    /** A file COPY reads is not a file of its format, or is damaged or cut short (PostgreSQL's bad_copy_file_format). */
    BAD_COPY_FILE(1015, Category.USER, "22P04"),
    OBJECT_NOT_FOUND(1020, Category.USER, "42P01"),
    OBJECT_ALREADY_EXISTS(1021, Category.USER, "42P07"),
    UNDEFINED_COLUMN(1022, Category.USER, "42703"),
    /** An object cannot be dropped or removed while others depend on it (a filegroup in use). */
    OBJECT_IN_USE(1023, Category.USER, "2BP01"),
    ROW_TOO_LARGE(1030, Category.USER, "54000"),
    KEY_TOO_LARGE(1031, Category.USER, "54000"),
    /** Statement text longer than the parser takes (PostgreSQL's program_limit_exceeded). */
    STATEMENT_TOO_LARGE(1032, Category.USER, "54000"),
    TRANSACTION_STATE(1040, Category.USER, "25000"),
    DATABASE_CLOSED(1050, Category.USER, "08003"),
    DATABASE_IN_USE(1051, Category.USER, "55006"),
    /** The database was opened read-only (wal_recovery_mode = read_only_consistent): nothing can change it. */
    DATABASE_READ_ONLY(1052, Category.USER, "25006"),
    QUERY_CANCELLED(1060, Category.USER, "57014"),
    /** The session's login may not do this (managing logins takes sysadmin); PostgreSQL's insufficient_privilege. */
    INSUFFICIENT_PRIVILEGE(1070, Category.USER, "42501"),
    DIVISION_BY_ZERO(1100, Category.USER, "22012"),
    INVALID_CAST(1101, Category.USER, "22018"),
    INVALID_ESCAPE_SEQUENCE(1102, Category.USER, "22025"),
    SUBSTRING_ERROR(1103, Category.USER, "22011"),
    INVALID_POWER_ARGUMENT(1104, Category.USER, "2201F"),
    DATETIME_OVERFLOW(1105, Category.USER, "22008"),
    /** A scalar sub-query returned more than one row. */
    CARDINALITY_VIOLATION(1106, Category.USER, "21000"),

    OUT_OF_MEMORY(2000, Category.RESOURCE, "53200"),
    BUFFER_POOL_EXHAUSTED(2001, Category.RESOURCE, "53200"),
    TRANSACTION_TOO_LARGE(2002, Category.RESOURCE, "53400"),
    DISK_FULL(2010, Category.RESOURCE, "53100"),
    IO_ERROR(2020, Category.RESOURCE, "58030"),

    PAGE_CHECKSUM_MISMATCH(3000, Category.CORRUPTION, "XX001"),
    PAGE_HEADER_INVALID(3001, Category.CORRUPTION, "XX001"),
    FILE_MAGIC_MISMATCH(3010, Category.CORRUPTION, "XX001"),
    FORMAT_TOO_OLD(3011, Category.CORRUPTION, "XX001"),
    FORMAT_TOO_NEW(3012, Category.CORRUPTION, "XX001"),
    FILE_TRUNCATED(3013, Category.CORRUPTION, "XX001"),
    WAL_CORRUPT(3020, Category.CORRUPTION, "XX001"),
    INDEX_CORRUPT(3030, Category.CORRUPTION, "XX002"),

    INTERNAL(9000, Category.INTERNAL, "XX000");

    /** The kind of failure, which decides who can fix it. */
    public enum Category { USER, RESOURCE, CORRUPTION, INTERNAL }

    private final int code;
    private final Category category;
    private final String sqlState;

    ErrorCode(int code, Category category, String sqlState) {
        this.code = code;
        this.category = category;
        this.sqlState = sqlState;
    }

    public int code() {
        return code;
    }

    public Category category() {
        return category;
    }

    /** The five-character SQLSTATE reported through JDBC. */
    public String sqlState() {
        return sqlState;
    }
}
