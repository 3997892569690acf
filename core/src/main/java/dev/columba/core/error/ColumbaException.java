package dev.columba.core.error;

import java.util.Objects;

/**
 * The one exception Columba throws for a failed statement or detected corruption. It carries an
 * {@link ErrorCode}; the JDBC layer turns it into a {@code SQLException} with the code's SQLSTATE.
 * Expected outcomes (a key not found, a page not resident) are return values, never this.
 */
public class ColumbaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    public ColumbaException(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
    }

    public ColumbaException(ErrorCode errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = Objects.requireNonNull(errorCode, "errorCode");
    }

    public ErrorCode errorCode() {
        return errorCode;
    }

    /** The message without the error code in front: for wrapping it into another message. */
    public String detail() {
        return super.getMessage();
    }

    @Override
    public String getMessage() {
        return "[" + errorCode.name() + "] " + super.getMessage();
    }
}
