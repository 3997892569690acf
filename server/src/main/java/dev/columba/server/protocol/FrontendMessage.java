package dev.columba.server.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A message from the client. The startup-phase messages (SSL and GSS encryption requests, CancelRequest,
 * StartupMessage) carry no type byte on the wire; the others are named by theirs.
 */
public sealed interface FrontendMessage {

    /** SSLRequest (code 80877103): answered with {@code S} and a TLS handshake if the server has a key store, else {@code N}. */
    record SslRequest() implements FrontendMessage {
    }

    /** GSSENCRequest (code 80877104): answered with {@code N} as well. */
    record GssEncRequest() implements FrontendMessage {
    }

    /** CancelRequest (code 80877102), sent on a fresh connection: cancel what the keyed backend runs. */
    record CancelRequest(int processId, int secretKey) implements FrontendMessage {
    }

    /** StartupMessage, protocol 3.0: {@code user}, {@code database} and other parameters. */
    record Startup(int protocolVersion, Map<String, String> parameters) implements FrontendMessage {
        public Startup {
            parameters = Map.copyOf(parameters);
        }
    }

    /** {@code p}: a password, or a SASL response; its meaning depends on the authentication step. */
    record PasswordMessage(byte[] payload) implements FrontendMessage {
        public PasswordMessage {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** {@code Q}: one or more statements separated by semicolons, simple query protocol. */
    record Query(String sql) implements FrontendMessage {
    }

    /** {@code P}: prepare {@code query} as the statement {@code name} ("" is the unnamed one). */
    record Parse(String name, String query, List<Integer> parameterTypes) implements FrontendMessage {
        public Parse {
            parameterTypes = List.copyOf(parameterTypes);
        }
    }

    /**
     * {@code B}: make the portal {@code portal} from statement {@code statement} and parameter values (null for
     * SQL NULL) in the given formats (none: all text; one: all of that; else one per value).
     */
    record Bind(String portal, String statement, List<Format> parameterFormats, List<byte[]> values,
                List<Format> resultFormats) implements FrontendMessage {
        public Bind {
            parameterFormats = List.copyOf(parameterFormats);
            values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
            resultFormats = List.copyOf(resultFormats);
        }

        @Override
        public String toString() {
            return "Bind[portal=" + portal + ", statement=" + statement + ", parameterFormats=" + parameterFormats
                    + ", values=" + values.stream().map(value -> value == null ? "null" : Arrays.toString(value)).toList()
                    + ", resultFormats=" + resultFormats + "]";
        }
    }

    /** {@code D}: describe a prepared statement ({@code S}) or a portal ({@code P}). */
    record Describe(Target target, String name) implements FrontendMessage {
    }

    /** {@code E}: run the portal, returning at most {@code maxRows} rows (0: all). */
    record Execute(String portal, int maxRows) implements FrontendMessage {
    }

    /** {@code C}: forget a prepared statement ({@code S}) or a portal ({@code P}). */
    record Close(Target target, String name) implements FrontendMessage {
    }

    /** {@code S}: end of an extended-protocol batch; the server answers with ReadyForQuery. */
    record Sync() implements FrontendMessage {
    }

    /** {@code H}: send what is pending now. */
    record Flush() implements FrontendMessage {
    }

    /** {@code X}: the client is leaving. */
    record Terminate() implements FrontendMessage {
    }

    /** {@code d}: a piece of COPY FROM STDIN's data (not necessarily whole rows). */
    record CopyData(byte[] data) implements FrontendMessage {
    }

    /** {@code c}: the end of COPY FROM STDIN's data. */
    record CopyDone() implements FrontendMessage {
    }

    /** {@code f}: the client abandons COPY FROM STDIN, saying why. */
    record CopyFail(String message) implements FrontendMessage {
    }

    /** A message whose type byte the server does not handle (function calls): refused. */
    record Unsupported(char type) implements FrontendMessage {
    }

    /** What Describe and Close name. */
    enum Target {
        STATEMENT, PORTAL;

        static Target of(byte code) {
            return switch (code) {
                case 'S' -> STATEMENT;
                case 'P' -> PORTAL;
                default -> throw new ProtocolException("Describe/Close target must be 'S' or 'P', got " + (char) code);
            };
        }
    }

    /** The format of a parameter or result value. */
    enum Format {
        TEXT, BINARY;

        static Format of(short code) {
            return switch (code) {
                case 0 -> TEXT;
                case 1 -> BINARY;
                default -> throw new ProtocolException("format code must be 0 (text) or 1 (binary), got " + code);
            };
        }

        public short code() {
            return (short) ordinal();
        }
    }
}
