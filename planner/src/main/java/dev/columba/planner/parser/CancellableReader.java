package dev.columba.planner.parser;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.Reader;
import org.apache.calcite.util.CancelFlag;

/**
 * The statement's text as the generated parser reads it: in pieces of at most
 * {@link #PIECE_LENGTH} characters, checking before each whether the statement was cancelled. The
 * parser reads text as it needs tokens, so the checks are spread over the whole parse, and a parse
 * of a long statement stops soon after a timeout or {@code cancel()} (it could not be interrupted
 * before, issue 15). The cancellation leaves the parser as a {@link ColumbaException} with
 * QUERY_CANCELLED, which {@link ColumbaSqlParser} finds under Calcite's parse exception.
 */
final class CancellableReader extends Reader {
    /** Characters handed out per read: a few thousand tokens' worth of parsing between checks. */
    static final int PIECE_LENGTH = 1024;

    private final String text;
    private final CancelFlag cancel;
    private int position;

    CancellableReader(String text, CancelFlag cancel) {
        this.text = text;
        this.cancel = cancel;
    }

    @Override
    public int read(char[] buffer, int offset, int length) {
        if (cancel.isCancelRequested()) {
            throw new ColumbaException(ErrorCode.QUERY_CANCELLED, "the statement was cancelled while it was parsed");
        }
        if (position >= text.length()) {
            return -1;
        }
        int count = Math.min(Math.min(length, PIECE_LENGTH), text.length() - position);
        text.getChars(position, position + count, buffer, offset);
        position += count;
        return count;
    }

    @Override
    public void close() {
    }
}
