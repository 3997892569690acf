package dev.columba.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The server's side of one SCRAM-SHA-256 authentication (RFC 5802 section 5; RFC 7677): {@link #serverFirst} answers the client's first message with the salt, the iteration
 * count and the combined nonce; {@link #serverFinal} checks the client's proof and, if it holds,
 * returns the server's signature. One instance per attempt; not thread-safe.
 *
 * <p>Channel binding ({@code SCRAM-SHA-256-PLUS}, RFC 5802 section 6 with RFC 5929's
 * {@code tls-server-end-point}, as PostgreSQL does it): over TLS the server gives {@link #bindTo} the hash of
 * its certificate; a client that chose the PLUS mechanism must then send {@code p=tls-server-end-point} and
 * prove that hash in its final message, so a man in the middle with another certificate cannot relay the
 * exchange. A client that says it could bind but thinks the server cannot ({@code y}) while the server
 * offered binding is refused: someone removed the offer on the way.
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
    /** The TLS connection's {@code tls-server-end-point} data, or null without TLS (nothing to bind to). */
    private byte[] channelBinding;
    /** Whether the client chose SCRAM-SHA-256-PLUS and bound to the channel. */
    private boolean bound;

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

    /** The channel binding type this server supports (RFC 5929), the only one PostgreSQL uses. */
    public static final String TLS_SERVER_END_POINT = "tls-server-end-point";

    /**
     * Offers channel binding: {@code tlsServerEndPoint} is the hash of the server's TLS certificate
     * ({@link #tlsServerEndPoint}). Call before {@link #serverFirst}, only over TLS.
     */
    public ScramExchange bindTo(byte[] tlsServerEndPoint) {
        this.channelBinding = tlsServerEndPoint.clone();
        return this;
    }

    /**
     * RFC 5929's {@code tls-server-end-point} data of a certificate: its DER bytes hashed with the hash of
     * its signature algorithm, SHA-256 where that is MD5 or SHA-1.
     */
    public static byte[] tlsServerEndPoint(java.security.cert.X509Certificate certificate) {
        String algorithm = certificate.getSigAlgName().toUpperCase(java.util.Locale.ROOT);
        String hash = algorithm.startsWith("SHA384") ? "SHA-384" : algorithm.startsWith("SHA512") ? "SHA-512" : "SHA-256";
        try {
            return java.security.MessageDigest.getInstance(hash).digest(certificate.getEncoded());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot hash the server's certificate for channel binding: " + e.getMessage(), e);
        }
    }

    /** {@link #serverFirst(String, boolean)} for the mechanism without channel binding (SCRAM-SHA-256). */
    public String serverFirst(String clientFirst) {
        return serverFirst(clientFirst, false);
    }

    /**
     * Reads client-first-message ({@code gs2-header client-first-bare}) and returns server-first-message
     * ({@code r=<client nonce><server nonce>,s=<salt>,i=<iterations>}).
     *
     * @param plus whether the client chose SCRAM-SHA-256-PLUS, which binds to the channel
     * @throws ScramException when the message is malformed, or its channel binding flag does not fit the
     *     mechanism and what the server offered
     */
    public String serverFirst(String clientFirst, boolean plus) {
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
        if (plus) {
            if (channelBinding == null) {
                throw new ScramException("SCRAM-SHA-256-PLUS needs TLS: the server offers channel binding only over TLS");
            }
            if (!flag.equals("p=" + TLS_SERVER_END_POINT)) {
                throw new ScramException("SCRAM-SHA-256-PLUS with channel binding flag " + flag + ": the server binds"
                        + " with p=" + TLS_SERVER_END_POINT + " only");
            }
            bound = true;
        } else if (flag.startsWith("p=")) {
            throw new ScramException("channel binding asked for with SCRAM-SHA-256: it needs SCRAM-SHA-256-PLUS");
        } else if (flag.equals("y") && channelBinding != null) {
            // RFC 5802 section 6: the client could bind and believes the server cannot, but it offered to.
            throw new ScramException("SCRAM channel binding downgrade: the client says the server does not offer"
                    + " SCRAM-SHA-256-PLUS, but it did");
        } else if (!flag.equals("n") && !flag.equals("y")) {
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
        byte[] binding = decode(attributes[0].substring(2));
        byte[] header = gs2Header.getBytes(StandardCharsets.UTF_8);
        byte[] expected = bound ? concat(header, channelBinding) : header;
        if (!java.security.MessageDigest.isEqual(binding, expected)) {
            throw new ScramException(bound ? "SCRAM channel binding does not match this connection's TLS certificate"
                    : "SCRAM channel binding does not match the GS2 header");
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

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
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
