package dev.columba.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** The server's TLS context, from a PKCS12 key store (the JDK's own TLS: no native library). */
final class TlsContexts {
    private TlsContexts() {
    }

    /**
     * @throws UncheckedIOException when the key store cannot be read
     * @throws IllegalArgumentException when it cannot be opened with the password or holds no usable key
     */
    static SslContext server(ServerConfig.Tls tls) {
        char[] password = tls.keyStorePassword().toCharArray();
        try (InputStream in = Files.newInputStream(tls.keyStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            return SslContextBuilder.forServer(keys).sslProvider(SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2")
                    .build();
        } catch (IOException e) {
            if (e.getCause() instanceof GeneralSecurityException || e.getCause() instanceof ArithmeticException
                    || e.getMessage() != null && e.getMessage().contains("password")) {
                throw new IllegalArgumentException("cannot open the TLS key store " + tls.keyStore() + ": "
                        + e.getMessage(), e);
            }
            throw new UncheckedIOException("cannot read the TLS key store " + tls.keyStore() + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot use the TLS key store " + tls.keyStore() + ": " + e.getMessage(), e);
        }
    }
}
