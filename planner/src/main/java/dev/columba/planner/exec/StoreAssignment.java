package dev.columba.planner.exec;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.expr.Evaluator;
import dev.columba.core.expr.TypeRules;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;

/**
 * Store assignment: how a value becomes a column's value in INSERT and UPDATE, which is stricter
 * than CAST. A character string longer than a CHAR(n) or VARCHAR(n) column fails with 22001
 * (SQL Server's Msg 2628) unless only trailing spaces would be cut (a binary string longer than
 * a BINARY(n) or VARBINARY(n) column always fails), which are dropped, as the SQL
 * standard and SQL Server do (H2 drops them for CHAR only and fails for VARCHAR). A NULL for a
 * NOT NULL column fails with 23502 (Msg 515). A number that does not fit a numeric column fails
 * with 22003, naming the column. The planner leaves values bound for character columns uncut for
 * this (see the planner's type coercion), so the check sees the whole value. INSERT, UPDATE,
 * CREATE TABLE ... AS ({@link TableModifyOperator}) and COPY (the session's) all convert here.
 */
public final class StoreAssignment {
    /** Longer values are shown cut to this many characters in a message. */
    private static final int SHOWN_CHARACTERS = 40;

    private static final SqlType TEXT = SqlType.varchar(SqlType.VarcharType.MAX_LENGTH);

    private StoreAssignment() {
    }

    /** {@code value} (of type {@code from}, not null) as a value of {@code column} of table {@code table}. */
    public static Object convert(Object value, SqlType from, Column column, String table) {
        if (TypeRules.isBinary(column.type())) {
            byte[] bytes = value instanceof byte[] binary ? binary
                    : (byte[]) Evaluator.cast(value, from, SqlType.varbinary(SqlType.VarbinaryType.MAX_LENGTH));
            if (bytes.length > TypeRules.maxLength(column.type())) {
                throw new ColumbaException(ErrorCode.STRING_TOO_LONG, "String or binary data would be truncated in table '"
                        + table + "', column '" + column.name() + "' " + column.type().sqlName() + ": the value has "
                        + bytes.length + " bytes");
            }
            return Evaluator.cast(bytes, SqlType.varbinary(Math.max(1, bytes.length)), column.type());
        }
        int length = switch (column.type()) {
            case SqlType.VarcharType varchar -> varchar.maxLength();
            case SqlType.CharType character -> character.length();
            default -> -1;
        };
        if (length < 0) {
            try {
                return Evaluator.cast(value, from, column.type());
            } catch (ColumbaException e) {
                if (e.errorCode() != ErrorCode.VALUE_OUT_OF_RANGE) {
                    throw e;
                }
                throw new ColumbaException(ErrorCode.VALUE_OUT_OF_RANGE, "Arithmetic overflow converting a value for table '"
                        + table + "', column '" + column.name() + "' " + column.type().sqlName() + ": " + e.getMessage(), e);
            }
        }
        String text = value instanceof String string ? string : (String) Evaluator.cast(value, from, TEXT);
        int characters = text.codePointCount(0, text.length());
        if (characters > length) {
            for (int position = text.offsetByCodePoints(0, length); position < text.length(); position++) {
                if (text.charAt(position) != ' ') {
                    throw truncated(text, characters, column, table);
                }
            }
        }
        return characters == length || characters < length && column.type() instanceof SqlType.VarcharType
                ? text : Evaluator.cast(text, TEXT, column.type());
    }

    /**
     * Checks that {@code row}, about to be written to {@code table}, has a value for every NOT NULL
     * column; {@code statement} is INSERT or UPDATE, for the message.
     */
    public static void checkNotNull(Object[] row, TableSchema schema, String table, String statement) {
        for (int index = 0; index < row.length; index++) {
            if (row[index] == null && !schema.column(index).nullable()) {
                throw nullNotAllowed(schema.column(index), table, statement);
            }
        }
    }

    /** The error of a NULL for NOT NULL column {@code column} of {@code table} in {@code statement}. */
    public static ColumbaException nullNotAllowed(Column column, String table, String statement) {
        return new ColumbaException(ErrorCode.NULL_NOT_ALLOWED, "Cannot insert the value NULL into column '"
                + column.name() + "', table '" + table + "'; column does not allow nulls. " + statement + " fails.");
    }

    private static ColumbaException truncated(String text, int characters, Column column, String table) {
        String shown = text.length() <= SHOWN_CHARACTERS ? text : text.substring(0, SHOWN_CHARACTERS) + "...";
        return new ColumbaException(ErrorCode.STRING_TOO_LONG, "String or binary data would be truncated in table '"
                + table + "', column '" + column.name() + "' " + column.type().sqlName() + ": the value '" + shown
                + "' has " + characters + " characters");
    }
}
