package dev.columba.planner.parser;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;

/**
 * A statement that does not parse, with where: line and column are 1-based positions in the text
 * given to {@link ColumbaSqlParser} (a whole script for
 * {@link ColumbaSqlParser#parseStatements(String)}), spanning the offending token.
 */
public final class ColumbaParseException extends ColumbaException {
    private static final long serialVersionUID = 1L;

    /** The code of a syntax error (SQLSTATE 42601). */
    static final ErrorCode CODE = ErrorCode.SYNTAX_ERROR;

    private final int line;
    private final int column;
    private final int endLine;
    private final int endColumn;

    public ColumbaParseException(String message, int line, int column, int endLine, int endColumn,
            Throwable cause) {
        super(CODE, message, cause);
        this.line = line;
        this.column = column;
        this.endLine = endLine;
        this.endColumn = endColumn;
    }

    /** The line of the first character in error, from 1; 0 when Calcite could not tell. */
    public int line() {
        return line;
    }

    /** The column of the first character in error, from 1; 0 when Calcite could not tell. */
    public int column() {
        return column;
    }

    public int endLine() {
        return endLine;
    }

    public int endColumn() {
        return endColumn;
    }
}
