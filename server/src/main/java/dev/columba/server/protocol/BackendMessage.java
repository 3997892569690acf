package dev.columba.server.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** A message to the client. {@link PgEncoder} writes each one. */
public sealed interface BackendMessage {

    /** The one byte {@code N} that refuses an SSL or GSS encryption request (no type byte, no length). */
    record EncryptionRefused() implements BackendMessage {
    }

    /** {@code R} 0. */
    record AuthenticationOk() implements BackendMessage {
    }

    /** The one byte {@code S} that accepts an SSLRequest: the TLS handshake follows on the same socket. */
    record EncryptionAccepted() implements BackendMessage {
    }

    /** {@code R} 10: authenticate with one of these SASL mechanisms (the server offers SCRAM-SHA-256 only). */
    record AuthenticationSasl(List<String> mechanisms) implements BackendMessage {
        public AuthenticationSasl {
            mechanisms = List.copyOf(mechanisms);
        }
    }

    /** {@code R} 11: a SASL challenge (SCRAM's server-first-message). */
    record AuthenticationSaslContinue(byte[] data) implements BackendMessage {
        public AuthenticationSaslContinue {
            data = data.clone();
        }
    }

    /** {@code R} 12: the SASL outcome (SCRAM's server-final-message, the server's signature). */
    record AuthenticationSaslFinal(byte[] data) implements BackendMessage {
        public AuthenticationSaslFinal {
            data = data.clone();
        }
    }

    /** {@code S}: a run-time parameter's value, such as {@code client_encoding}. */
    record ParameterStatus(String name, String value) implements BackendMessage {
    }

    /** {@code K}: the key a CancelRequest names this connection by. */
    record BackendKeyData(int processId, int secretKey) implements BackendMessage {
    }

    /** {@code Z}: ready for the next query, with the transaction status. */
    record ReadyForQuery(TransactionStatus status) implements BackendMessage {
    }

    /** {@code T}: the columns of the rows that follow. */
    record RowDescription(List<Field> fields) implements BackendMessage {
        public RowDescription {
            fields = List.copyOf(fields);
        }
    }

    /** One column of a RowDescription. Table OID and attribute number are 0: Columba has no OIDs. */
    record Field(String name, int typeOid, short typeLength, int typeModifier, FrontendMessage.Format format) {
        public Field {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(format, "format");
        }

        public Field withFormat(FrontendMessage.Format newFormat) {
            return new Field(name, typeOid, typeLength, typeModifier, newFormat);
        }
    }

    /** {@code D}: one row; each value is its encoded bytes, or null for SQL NULL. */
    record DataRow(List<byte[]> values) implements BackendMessage {
        public DataRow {
            values = Collections.unmodifiableList(new ArrayList<>(values));
        }
    }

    /** {@code C}: a statement finished; the tag is {@code SELECT 3}, {@code INSERT 0 1}, {@code CREATE TABLE}... */
    record CommandComplete(String tag) implements BackendMessage {
    }

    /** {@code I}: the query string held no statement. */
    record EmptyQueryResponse() implements BackendMessage {
    }

    /** {@code E}, or {@code N} for a notice: severity, SQLSTATE and message. */
    record ErrorResponse(Severity severity, String sqlState, String message) implements BackendMessage {
        public ErrorResponse {
            Objects.requireNonNull(severity, "severity");
            if (sqlState == null || sqlState.length() != 5) {
                throw new IllegalArgumentException("a SQLSTATE has five characters, got " + sqlState);
            }
            Objects.requireNonNull(message, "message");
        }
    }

    /** {@code N}: a message that is not an error (statistics lines, warnings). */
    record NoticeResponse(String sqlState, String message) implements BackendMessage {
    }

    /** {@code 1}. */
    record ParseComplete() implements BackendMessage {
    }

    /** {@code 2}. */
    record BindComplete() implements BackendMessage {
    }

    /** {@code 3}. */
    record CloseComplete() implements BackendMessage {
    }

    /** {@code t}: the types of a prepared statement's parameters. */
    record ParameterDescription(List<Integer> typeOids) implements BackendMessage {
        public ParameterDescription {
            typeOids = List.copyOf(typeOids);
        }
    }

    /** {@code n}: the described statement or portal returns no rows. */
    record NoData() implements BackendMessage {
    }

    /** {@code s}: Execute reached its row limit and the portal has more rows. */
    record PortalSuspended() implements BackendMessage {
    }

    /** The status byte of ReadyForQuery. */
    enum TransactionStatus {
        /** {@code I}: not in a transaction block. */
        IDLE('I'),
        /** {@code T}: in a transaction block. */
        IN_TRANSACTION('T'),
        /** {@code E}: in a failed transaction block; only ROLLBACK is accepted. */
        FAILED('E');

        private final char code;

        TransactionStatus(char code) {
            this.code = code;
        }

        public char code() {
            return code;
        }
    }

    /** Severity of an ErrorResponse; {@code FATAL} ends the connection. */
    enum Severity {
        ERROR, FATAL
    }

    /** {@code G}: the server is ready for COPY FROM STDIN's data, in text format, {@code columns} wide. */
    record CopyInResponse(int columns) implements BackendMessage {
    }

    /** {@code H}: COPY TO STDOUT's data follows, in text format, {@code columns} wide. */
    record CopyOutResponse(int columns) implements BackendMessage {
    }

    /** {@code d}: a piece of COPY TO STDOUT's data (the server sends a row each). */
    record CopyData(byte[] data) implements BackendMessage {
    }

    /** {@code c}: the end of COPY TO STDOUT's data. */
    record CopyDone() implements BackendMessage {
    }
}
