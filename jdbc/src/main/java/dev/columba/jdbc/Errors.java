package dev.columba.jdbc;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.planner.parser.ColumbaParseException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientException;

/**
 * The edge where Columba's errors become JDBC's: a {@link ColumbaException} becomes a
 * {@link SQLException} with its code's SQLSTATE, the code's number as the vendor code and its
 * message; the subclass follows the SQLSTATE class (42 syntax, 22 data, 23 integrity, 08
 * connection, 0A feature not supported, 53 resources). Anything else that escapes a statement (a
 * bug, a stack overflow on absurdly nested SQL) becomes a SQLException too, so nothing a user
 * types ends the JVM or leaves the connection unusable.
 */
final class Errors {
    /** SQLSTATE of a query that ran out of time. */
    static final String QUERY_CANCELLED_STATE = ErrorCode.QUERY_CANCELLED.sqlState();

    /** SQLSTATE for an object used after it was closed. */
    private static final String CLOSED_STATE = ErrorCode.DATABASE_CLOSED.sqlState();

    /** SQLSTATE for statements nested deeper than the parser's stack allows ("statement too complex"). */
    private static final String TOO_COMPLEX_STATE = "54001";

    private Errors() {
    }

    /** The JDBC form of an error with a Columba code. */
    static SQLException of(ErrorCode code, String message) {
        return of(code, "[" + code.name() + "] " + message, null);
    }

    private static SQLException of(ErrorCode code, String message, Throwable cause) {
        String state = code.sqlState();
        int vendorCode = code.code();
        SQLException exception = switch (state.substring(0, 2)) {
            case "42" -> new SQLSyntaxErrorException(message, state, vendorCode);
            case "22" -> new SQLDataException(message, state, vendorCode);
            case "23" -> new SQLIntegrityConstraintViolationException(message, state, vendorCode);
            case "08" -> new SQLNonTransientConnectionException(message, state, vendorCode);
            case "0A" -> new SQLFeatureNotSupportedException(message, state, vendorCode);
            case "53" -> new SQLTransientException(message, state, vendorCode);
            default -> new SQLException(message, state, vendorCode);
        };
        if (cause != null) {
            exception.initCause(cause);
        }
        return exception;
    }

    /** A statement failed: the SQLException that says why. */
    static SQLException translate(Throwable failure) {
        return switch (failure) {
            case SQLException already -> already;
            case ColumbaParseException parse -> of(parse.errorCode(), withPosition(parse), parse);
            case ColumbaException columba -> of(columba.errorCode(), columba.getMessage(), columba);
            case StackOverflowError overflow -> withCause(new SQLException(
                    "the statement is nested too deeply to process (statement too complex)", TOO_COMPLEX_STATE, 0), overflow);
            case OutOfMemoryError memory -> of(ErrorCode.OUT_OF_MEMORY, "[OUT_OF_MEMORY] the Java heap is exhausted: "
                    + memory.getMessage(), memory);
            default -> of(ErrorCode.INTERNAL, "[INTERNAL] " + failure, failure);
        };
    }

    /** The timeout form of a cancellation the query timer caused. */
    static SQLTimeoutException timeout(int seconds, Throwable cause) {
        SQLTimeoutException exception = new SQLTimeoutException("[QUERY_CANCELLED] the statement ran longer than its query"
                + " timeout of " + seconds + " s and was cancelled", QUERY_CANCELLED_STATE, ErrorCode.QUERY_CANCELLED.code());
        exception.initCause(cause);
        return exception;
    }

    /** The form of a cancellation that {@code Connection.rollback()} on another thread caused. */
    static SQLException rolledBack(Throwable cause) {
        return of(ErrorCode.QUERY_CANCELLED, "[QUERY_CANCELLED] the statement was cancelled because"
                + " Connection.rollback() was called on another thread while it ran; the transaction, this statement's"
                + " changes included, is rolled back", cause);
    }

    /** Whether a failure is the cancellation of a query. */
    static boolean isCancellation(Throwable failure) {
        return failure instanceof ColumbaException columba && columba.errorCode() == ErrorCode.QUERY_CANCELLED;
    }

    /** {@code what} (a connection, a statement, ...) was used after it was closed. */
    static SQLException closed(String what) {
        return new SQLNonTransientConnectionException("[DATABASE_CLOSED] the " + what + " is closed", CLOSED_STATE,
                ErrorCode.DATABASE_CLOSED.code());
    }

    /** A JDBC feature Columba does not have (SQLSTATE 0A000). */
    static SQLFeatureNotSupportedException notSupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by Columba", "0A000");
    }

    /** The parser's message, with its position appended when the message does not already give it. */
    private static String withPosition(ColumbaParseException parse) {
        String message = parse.getMessage();
        if (parse.line() <= 0 || message.contains("line " + parse.line() + ", column " + parse.column())) {
            return message;
        }
        return message + " (at line " + parse.line() + ", column " + parse.column() + ")";
    }

    private static SQLException withCause(SQLException exception, Throwable cause) {
        exception.initCause(cause);
        return exception;
    }
}
