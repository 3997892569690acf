package dev.columba.server.session;

import dev.columba.server.protocol.BackendMessage;

/**
 * Where a session's replies go. {@link #send} may block while the client is slow to read (back-pressure), and
 * throws {@link ClientGoneException} once the connection is closed, which ends the running statement.
 */
public interface Outbound {
    void send(BackendMessage message);

    /** Pushes what was sent so far to the client. */
    void flush();

    /** Flushes and closes the connection. */
    void close();

    /** The connection is closed: nobody reads the replies any more. */
    final class ClientGoneException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ClientGoneException() {
            super("the client closed the connection");
        }
    }
}
