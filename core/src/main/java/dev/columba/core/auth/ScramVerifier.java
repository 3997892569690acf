package dev.columba.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a server keeps of a SCRAM-SHA-256 password (RFC 5802 section 3, RFC 7677): the salt, the
 * iteration count, StoredKey = H(HMAC(SaltedPassword, "Client Key")) and ServerKey =
 * HMAC(SaltedPassword, "Server Key"). Neither key gives the password back, and StoredKey alone
 * does not let anyone log in: a client must prove it knows ClientKey, whose hash StoredKey is.
 *
 * <p>The text form is PostgreSQL's ({@code pg_authid.rolpassword}):
 * {@code SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>}, each byte string in base64.
 */
public record ScramVerifier(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
    /** The iteration count PostgreSQL and RFC 7677 use (the minimum RFC 7677 recommends). */
    public static final int DEFAULT_ITERATIONS = 4096;
    static final int SALT_LENGTH = 16;
    static final int KEY_LENGTH = 32;
    private static final String PREFIX = "SCRAM-SHA-256$";

    public ScramVerifier {
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
        if (salt.length == 0) {
            throw new IllegalArgumentException("a SCRAM salt cannot be empty");
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("a SCRAM iteration count must be positive, got " + iterations);
        }
        if (storedKey.length != KEY_LENGTH || serverKey.length != KEY_LENGTH) {
            throw new IllegalArgumentException("SCRAM-SHA-256 keys have " + KEY_LENGTH + " bytes, got "
                    + storedKey.length + " and " + serverKey.length);
        }
    }

    /** A verifier for {@code password} with a fresh random salt and {@link #DEFAULT_ITERATIONS}. */
    public static ScramVerifier create(String password, SecureRandom random) {
        byte[] salt = new byte[SALT_LENGTH];
        random.nextBytes(salt);
        return create(password, salt, DEFAULT_ITERATIONS);
    }

    /** The verifier of {@code password} with the given salt and iteration count. */
    public static ScramVerifier create(String password, byte[] salt, int iterations) {
        byte[] salted = saltedPassword(password, salt, iterations);
        byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.US_ASCII));
        byte[] serverKey = hmac(salted, "Server Key".getBytes(StandardCharsets.US_ASCII));
        Arrays.fill(salted, (byte) 0);
        return new ScramVerifier(salt, iterations, sha256(clientKey), serverKey);
    }

    /** Reads the text form; anything else is an IllegalArgumentException naming what is wrong. */
    public static ScramVerifier parse(String text) {
        if (!text.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a SCRAM-SHA-256 verifier (it must start with " + PREFIX + ")");
        }
        String[] halves = text.substring(PREFIX.length()).split("\\$", -1);
        if (halves.length != 2) {
            throw new IllegalArgumentException("a SCRAM-SHA-256 verifier has two parts after its prefix");
        }
        String[] head = halves[0].split(":", -1);
        String[] keys = halves[1].split(":", -1);
        if (head.length != 2 || keys.length != 2) {
            throw new IllegalArgumentException("a SCRAM-SHA-256 verifier is iterations:salt$StoredKey:ServerKey");
        }
        int iterations;
        try {
            iterations = Integer.parseInt(head[0]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad SCRAM iteration count " + head[0], e);
        }
        Base64.Decoder base64 = Base64.getDecoder();
        return new ScramVerifier(base64.decode(head[1]), iterations, base64.decode(keys[0]), base64.decode(keys[1]));
    }

    /** The text form (PostgreSQL's), safe to store: it holds no password. */
    public String encode() {
        Base64.Encoder base64 = Base64.getEncoder();
        return PREFIX + iterations + ":" + base64.encodeToString(salt) + "$" + base64.encodeToString(storedKey) + ":"
                + base64.encodeToString(serverKey);
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    /**
     * Whether {@code clientProof} proves knowledge of the password for {@code authMessage}:
     * ClientKey = proof XOR HMAC(StoredKey, AuthMessage), and H(ClientKey) must be StoredKey.
     * Compared in constant time.
     */
    public boolean verifyProof(byte[] authMessage, byte[] clientProof) {
        if (clientProof.length != KEY_LENGTH) {
            return false;
        }
        byte[] signature = hmac(storedKey, authMessage);
        byte[] clientKey = new byte[KEY_LENGTH];
        for (int index = 0; index < KEY_LENGTH; index++) {
            clientKey[index] = (byte) (clientProof[index] ^ signature[index]);
        }
        return MessageDigest.isEqual(sha256(clientKey), storedKey);
    }

    /** ServerSignature = HMAC(ServerKey, AuthMessage), which proves to the client that the server knows the verifier. */
    public byte[] serverSignature(byte[] authMessage) {
        return hmac(serverKey, authMessage);
    }

    /**
     * Hi(Normalize(password), salt, i) of RFC 5802: PBKDF2 with HMAC-SHA-256, one block. The
     * password is normalized to NFKC, the main step of SASLprep (RFC 4013) that clients apply;
     * an ASCII password is unchanged by it.
     */
    static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        byte[] key = Normalizer.normalize(password, Normalizer.Form.NFKC).getBytes(StandardCharsets.UTF_8);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // SecretKeySpec refuses an empty key; HMAC pads keys with zeros, so one zero byte is the same key.
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            mac.update(salt);
            byte[] block = mac.doFinal(new byte[] {0, 0, 0, 1});
            byte[] result = block.clone();
            for (int iteration = 1; iteration < iterations; iteration++) {
                block = mac.doFinal(block);
                for (int index = 0; index < result.length; index++) {
                    result[index] ^= block[index];
                }
            }
            return result;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no HmacSHA256", e);
        }
    }

    static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no HmacSHA256", e);
        }
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramVerifier that && iterations == that.iterations && Arrays.equals(salt, that.salt)
                && Arrays.equals(storedKey, that.storedKey) && Arrays.equals(serverKey, that.serverKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(storedKey);
    }

    /** The text form without the keys, so a verifier printed by mistake shows nothing an attacker could use. */
    @Override
    public String toString() {
        return "ScramVerifier[iterations=" + iterations + "]";
    }
}
