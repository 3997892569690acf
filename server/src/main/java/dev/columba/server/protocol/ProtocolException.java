package dev.columba.server.protocol;

/** Bytes that break the protocol (SQLSTATE 08P01): the connection cannot go on after one. */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message);
    }
}
