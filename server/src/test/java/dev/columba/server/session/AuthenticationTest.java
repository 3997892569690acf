package dev.columba.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.auth.ScramVerifier;
import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.protocol.FrontendMessage;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The session's side of authentication, without a network: what each message is answered with. */
class AuthenticationTest {
    private static final ScramVerifier VERIFIER = ScramVerifier.create("pencil", new SecureRandom());

    /** Records replies; the database URL is never used because no test here gets past authentication. */
    private static final class Recorder implements Outbound {
        final List<BackendMessage> sent = new ArrayList<>();
        boolean closed;

        @Override
        public void send(BackendMessage message) {
            sent.add(message);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static SessionConfig config(boolean requireTlsRemote) {
        return new SessionConfig("jdbc:columba:/nonexistent", Optional.of(user -> user.equals("user")
                ? Optional.of(VERIFIER) : Optional.empty()), requireTlsRemote, "15.0", new CancelKeys());
    }

    private static FrontendMessage.Startup startup(String user) {
        return new FrontendMessage.Startup(196608, Map.of("user", user));
    }

    @Test
    void aRemoteClientWithoutTlsIsRefusedBeforeAuthenticationWhenTlsIsRequired() {
        Recorder out = new Recorder();
        new ClientSession(config(true), out, false).handle(startup("user"));
        BackendMessage.ErrorResponse error = assertInstanceOf(BackendMessage.ErrorResponse.class, out.sent.get(0));
        assertEquals("28000", error.sqlState());
        assertTrue(error.message().contains("TLS"), error.message());
        assertTrue(out.closed);
    }

    @Test
    void aRemoteClientWithTlsAndALoopbackClientWithoutAreAskedForScram() {
        Recorder remote = new Recorder();
        ClientSession encrypted = new ClientSession(config(true), remote, false);
        encrypted.encrypted(() -> new byte[32]);
        encrypted.handle(startup("user"));
        assertEquals(new BackendMessage.AuthenticationSasl(List.of("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256")),
                remote.sent.get(0), "over TLS channel binding is offered first");
        Recorder local = new Recorder();
        new ClientSession(config(true), local, true).handle(startup("user"));
        assertEquals(new BackendMessage.AuthenticationSasl(List.of("SCRAM-SHA-256")), local.sent.get(0));
    }

    @Test
    void anotherSaslMechanismIsRefused() {
        Recorder out = new Recorder();
        ClientSession session = new ClientSession(config(false), out, true);
        session.handle(startup("user"));
        session.handle(new FrontendMessage.PasswordMessage(initialResponse("SCRAM-SHA-256-PLUS", "p=tls-unique,,n=,r=x")));
        BackendMessage.ErrorResponse error = assertInstanceOf(BackendMessage.ErrorResponse.class, out.sent.get(1));
        assertEquals("28000", error.sqlState());
    }

    @Test
    void aMalformedClientFirstMessageIsAProtocolViolation() {
        Recorder out = new Recorder();
        ClientSession session = new ClientSession(config(false), out, true);
        session.handle(startup("nobody"));
        session.handle(new FrontendMessage.PasswordMessage(initialResponse("SCRAM-SHA-256", "garbage")));
        BackendMessage.ErrorResponse error = assertInstanceOf(BackendMessage.ErrorResponse.class, out.sent.get(1));
        assertEquals("08P01", error.sqlState());
    }

    private static byte[] initialResponse(String mechanism, String data) {
        byte[] name = mechanism.getBytes(StandardCharsets.UTF_8);
        byte[] body = data.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(name.length + 5 + body.length).put(name).put((byte) 0).putInt(body.length).put(body)
                .array();
    }
}
