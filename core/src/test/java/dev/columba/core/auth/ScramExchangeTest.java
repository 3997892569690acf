package dev.columba.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScramExchangeTest {
    /** RFC 7677 section 3: user "user", password "pencil". */
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String SERVER_FIRST =
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    @Test
    void rfc7677TestVector() {
        ScramVerifier verifier = ScramVerifier.create("pencil", SALT, 4096);
        ScramExchange exchange = ScramExchange.forVerifier(verifier, SERVER_NONCE);
        assertEquals(SERVER_FIRST, exchange.serverFirst(CLIENT_FIRST));
        assertEquals(Optional.of(SERVER_FINAL), exchange.serverFinal(CLIENT_FINAL));
    }

    @Test
    void wrongPasswordFailsTheProof() {
        ScramVerifier verifier = ScramVerifier.create("pencil2", SALT, 4096);
        ScramExchange exchange = ScramExchange.forVerifier(verifier, SERVER_NONCE);
        assertEquals(SERVER_FIRST, exchange.serverFirst(CLIENT_FIRST));
        assertEquals(Optional.empty(), exchange.serverFinal(CLIENT_FINAL));
    }

    @Test
    void unknownUserFailsAtTheProofWithAStableSalt() {
        byte[] secret = {1, 2, 3};
        SecureRandom random = new SecureRandom();
        String first = ScramExchange.forUnknownUser("nobody", secret, random).serverFirst(CLIENT_FIRST);
        String again = ScramExchange.forUnknownUser("nobody", secret, random).serverFirst(CLIENT_FIRST);
        String salt = first.substring(first.indexOf(",s="));
        assertEquals(salt, again.substring(again.indexOf(",s=")));
        assertTrue(salt.endsWith(",i=4096"));
        ScramExchange exchange = ScramExchange.forUnknownUser("nobody", secret, random);
        String serverFirst = exchange.serverFirst(CLIENT_FIRST);
        String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
        assertEquals(Optional.empty(), exchange.serverFinal("c=biws,r=" + nonce + ",p="
                + Base64.getEncoder().encodeToString(new byte[32])));
    }

    @Test
    void nonceAndBindingMustMatch() {
        ScramVerifier verifier = ScramVerifier.create("pencil", SALT, 4096);
        ScramExchange exchange = ScramExchange.forVerifier(verifier, SERVER_NONCE);
        exchange.serverFirst(CLIENT_FIRST);
        assertThrows(ScramExchange.ScramException.class, () -> exchange.serverFinal(
                CLIENT_FINAL.replace("r=rOpr", "r=xOpr")));
        assertThrows(ScramExchange.ScramException.class, () -> exchange.serverFinal(
                CLIENT_FINAL.replace("c=biws", "c=eSws")));
        assertThrows(ScramExchange.ScramException.class, () -> ScramExchange.forVerifier(verifier, SERVER_NONCE)
                .serverFirst("p=tls-server-end-point,,n=user,r=abc"));
        assertThrows(ScramExchange.ScramException.class, () -> ScramExchange.forVerifier(verifier, SERVER_NONCE)
                .serverFinal(CLIENT_FINAL));
    }

    /** A client's proof for {@code authMessage} (RFC 5802 section 3), computed here as a client would. */
    private static String clientProof(String password, String authMessage) throws Exception {
        javax.crypto.SecretKeyFactory pbkdf2 = javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
        byte[] salted = pbkdf2.generateSecret(new javax.crypto.spec.PBEKeySpec(password.toCharArray(), SALT, 4096, 256))
                .getEncoded();
        byte[] clientKey = ScramVerifier.hmac(salted, "Client Key".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        byte[] storedKey = java.security.MessageDigest.getInstance("SHA-256").digest(clientKey);
        byte[] signature = ScramVerifier.hmac(storedKey, authMessage.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] proof = new byte[clientKey.length];
        for (int index = 0; index < proof.length; index++) {
            proof[index] = (byte) (clientKey[index] ^ signature[index]);
        }
        return Base64.getEncoder().encodeToString(proof);
    }

    /** Runs a SCRAM-SHA-256-PLUS client against {@code exchange}, binding to {@code clientEndPoint}. */
    private static Optional<String> boundClient(ScramExchange exchange, byte[] clientEndPoint) throws Exception {
        String gs2 = "p=tls-server-end-point,,";
        String clientFirstBare = "n=user,r=rOprNGfwEbeRWgbNEkqO";
        String serverFirst = exchange.serverFirst(gs2 + clientFirstBare, true);
        String nonce = serverFirst.substring(2, serverFirst.indexOf(','));
        byte[] header = gs2.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] binding = java.util.Arrays.copyOf(header, header.length + clientEndPoint.length);
        System.arraycopy(clientEndPoint, 0, binding, header.length, clientEndPoint.length);
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(binding) + ",r=" + nonce;
        String proof = clientProof("pencil", clientFirstBare + "," + serverFirst + "," + withoutProof);
        return exchange.serverFinal(withoutProof + ",p=" + proof);
    }

    @Test
    void channelBindingTiesTheProofToTheServersCertificate() throws Exception {
        ScramVerifier verifier = ScramVerifier.create("pencil", SALT, 4096);
        byte[] endPoint = new byte[32];
        new SecureRandom().nextBytes(endPoint);
        assertTrue(boundClient(ScramExchange.forVerifier(verifier, SERVER_NONCE).bindTo(endPoint), endPoint).isPresent(),
                "the client saw the server's certificate");
        byte[] relayed = endPoint.clone();
        relayed[0] ^= 1;
        ScramExchange.ScramException elsewhere = assertThrows(ScramExchange.ScramException.class,
                () -> boundClient(ScramExchange.forVerifier(verifier, SERVER_NONCE).bindTo(endPoint), relayed));
        assertTrue(elsewhere.getMessage().contains("TLS certificate"), elsewhere.getMessage());
        // PLUS without TLS, PLUS without binding, binding without PLUS, and a downgraded offer are refused.
        assertThrows(ScramExchange.ScramException.class, () -> ScramExchange.forVerifier(verifier, SERVER_NONCE)
                .serverFirst("p=tls-server-end-point,,n=user,r=abc", true));
        assertThrows(ScramExchange.ScramException.class, () -> ScramExchange.forVerifier(verifier, SERVER_NONCE)
                .bindTo(endPoint).serverFirst("n,,n=user,r=abc", true));
        assertThrows(ScramExchange.ScramException.class, () -> ScramExchange.forVerifier(verifier, SERVER_NONCE)
                .bindTo(endPoint).serverFirst("p=tls-unique,,n=user,r=abc", true));
        ScramExchange.ScramException downgrade = assertThrows(ScramExchange.ScramException.class,
                () -> ScramExchange.forVerifier(verifier, SERVER_NONCE).bindTo(endPoint).serverFirst("y,,n=user,r=abc"));
        assertTrue(downgrade.getMessage().contains("downgrade"), downgrade.getMessage());
        // Without binding over TLS, the plain mechanism still works (a client that cannot bind says n).
        ScramExchange plain = ScramExchange.forVerifier(verifier, SERVER_NONCE).bindTo(endPoint);
        assertEquals(SERVER_FIRST, plain.serverFirst(CLIENT_FIRST));
        assertEquals(Optional.of(SERVER_FINAL), plain.serverFinal(CLIENT_FINAL));
    }

    @Test
    void verifierTextRoundTripsAndHoldsNoPassword() {
        ScramVerifier verifier = ScramVerifier.create("pencil", new SecureRandom());
        String text = verifier.encode();
        assertTrue(text.startsWith("SCRAM-SHA-256$4096:"), text);
        assertFalse(text.contains("pencil"));
        assertEquals(verifier, ScramVerifier.parse(text));
        assertNotEquals(verifier, ScramVerifier.create("pencil", new SecureRandom()), "a fresh salt each time");
        assertThrows(IllegalArgumentException.class, () -> ScramVerifier.parse("md5abc"));
        assertThrows(IllegalArgumentException.class, () -> ScramVerifier.parse("SCRAM-SHA-256$x:AA==$AA==:AA=="));
    }
}
