package dev.columba.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The server's side of one SCRAM-SHA-256 authentication (RFC 5802 section 5, without channel
 * binding): {@link #serverFirst} answers the client's first message with the salt, the iteration
 * count and the combined nonce; {@link #serverFinal} checks the client's proof and, if it holds,
 * returns the server's signature. One instance per attempt; not thread-safe.
 *
 * <p>A user without a verifier gets a made-up one ({@link #forUnknownUser}), so the exchange runs to
 * its end and fails exactly as a wrong password does: the messages do not tell an unknown user from
 * a known one (PostgreSQL does the same, "mock authentication").
 */
public final class ScramExchange {
    /** Characters of the server's nonce part; printable ASCII except ',' (RFC 5802's "printable"). */
    private static final int NONCE_BYTES = 18;

    private final ScramVerifier verifier;
    private final boolean known;
    private final String serverNonce;
    private String clientFirstBare;
    private String serverFirst;
    private String gs2Header;
    private String nonce;

    private ScramExchange(ScramVerifier verifier, boolean known, String serverNonce) {
        this.verifier = verifier;
        this.known = known;
        this.serverNonce = serverNonce;
    }

    /** An exchange against a login's verifier, with a random server nonce. */
    public static ScramExchange forVerifier(ScramVerifier verifier, SecureRandom random) {
        return new ScramExchange(verifier, true, randomNonce(random));
    }

    /** An exchange with the given server nonce part (RFC 7677's test vector fixes it). */
    public static ScramExchange forVerifier(ScramVerifier verifier, String serverNonce) {
        return new ScramExchange(verifier, true, serverNonce);
    }

    /**
     * An exchange that always fails at the proof, for a user name with no login. The salt is derived from
     * the name and a secret of the server, so asking twice for the same name shows the same salt, as it
     * would for a real login.
     */
    public static ScramExchange forUnknownUser(String user, byte[] serverSecret, SecureRandom random) {
        byte[] salt = java.util.Arrays.copyOf(ScramVerifier.hmac(serverSecret, user.getBytes(StandardCharsets.UTF_8)),
                ScramVerifier.SALT_LENGTH);
        byte[] keys = new byte[ScramVerifier.KEY_LENGTH];
        random.nextBytes(keys);
        ScramVerifier mock = new ScramVerifier(salt, ScramVerifier.DEFAULT_ITERATIONS, keys, keys);
        return new ScramExchange(mock, false, randomNonce(random));
    }

    /**
     * Reads client-first-message ({@code gs2-header client-first-bare}) and returns server-first-message
     * ({@code r=<client nonce><server nonce>,s=<salt>,i=<iterations>}).
     *
     * @throws ScramException when the message is malformed or asks for channel binding
     */
    public String serverFirst(String clientFirst) {
        if (serverFirst != null) {
            throw new ScramException("a second client-first-message");
        }
        // gs2-header = gs2-cbind-flag "," [ authzid ] ","
        int first = clientFirst.indexOf(',');
        int second = first < 0 ? -1 : clientFirst.indexOf(',', first + 1);
        if (second < 0) {
            throw new ScramException("malformed SCRAM message: no GS2 header");
        }
        String flag = clientFirst.substring(0, first);
        if (flag.startsWith("p=")) {
            throw new ScramException("channel binding was not offered: the server advertises SCRAM-SHA-256 only");
        }
        if (!flag.equals("n") && !flag.equals("y")) {
            throw new ScramException("malformed SCRAM message: GS2 channel binding flag " + flag);
        }
        if (second != first + 1) {
            throw new ScramException("SCRAM authorization identities are not supported");
        }
        gs2Header = clientFirst.substring(0, second + 1);
        clientFirstBare = clientFirst.substring(second + 1);
        String clientNonce = null;
        for (String attribute : clientFirstBare.split(",", -1)) {
            if (attribute.startsWith("m=")) {
                throw new ScramException("SCRAM extensions are not supported");
            }
            if (attribute.startsWith("r=")) {
                clientNonce = attribute.substring(2);
            }
        }
        // The user name (n=) is ignored, as PostgreSQL does: the startup message named the user.
        if (!clientFirstBare.startsWith("n=") || clientNonce == null || clientNonce.isEmpty()) {
            throw new ScramException("malformed SCRAM client-first-message");
        }
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i="
                + verifier.iterations();
        return serverFirst;
    }

    /**
     * Reads client-final-message ({@code c=<gs2 header>,r=<nonce>,p=<proof>}) and returns
     * server-final-message ({@code v=<server signature>}), or empty when the proof is wrong (a wrong
     * password, or a user without a login).
     *
     * @throws ScramException when the message is malformed, out of turn, or its nonce or binding differ
     */
    public Optional<String> serverFinal(String clientFinal) {
        if (serverFirst == null) {
            throw new ScramException("client-final-message before client-first-message");
        }
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw new ScramException("malformed SCRAM client-final-message: no proof");
        }
        String withoutProof = clientFinal.substring(0, proofAt);
        String[] attributes = withoutProof.split(",", -1);
        if (attributes.length < 2 || !attributes[0].startsWith("c=") || !attributes[1].startsWith("r=")) {
            throw new ScramException("malformed SCRAM client-final-message");
        }
        String binding = new String(decode(attributes[0].substring(2)), StandardCharsets.UTF_8);
        if (!binding.equals(gs2Header)) {
            throw new ScramException("SCRAM channel binding does not match the GS2 header");
        }
        if (!attributes[1].substring(2).equals(nonce)) {
            throw new ScramException("SCRAM nonce does not match");
        }
        byte[] proof = decode(clientFinal.substring(proofAt + 3));
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        boolean proven = verifier.verifyProof(authMessage, proof);
        if (!proven || !known) {
            return Optional.empty();
        }
        return Optional.of("v=" + Base64.getEncoder().encodeToString(verifier.serverSignature(authMessage)));
    }

    private static byte[] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new ScramException("malformed base64 in a SCRAM message");
        }
    }

    private static String randomNonce(SecureRandom random) {
        byte[] bytes = new byte[NONCE_BYTES];
        random.nextBytes(bytes);
        // Base64 is printable and has no ','.
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** A malformed or out-of-turn SCRAM message: a protocol violation, not a wrong password. */
    public static final class ScramException extends RuntimeException {
        public ScramException(String message) {
            super(message);
        }
    }
}
