package dev.columba.server;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.protocol.FrontendMessage;
import dev.columba.server.protocol.ProtocolException;
import dev.columba.server.session.ClientSession;
import dev.columba.server.session.Outbound;
import dev.columba.server.session.SessionConfig;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bridge between one client's channel and its {@link ClientSession}: decoded messages go to the session in
 * order, handled at once on the channel's event loop, which is the connection's own thread (see
 * {@link SessionLoops}); while the session works the loop reads nothing more from the socket, so a client that
 * sends faster than its statements run waits in its socket's buffers, not in the server's memory.
 * Connections past the server's limit are refused with SQLSTATE 53300, as PostgreSQL does.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    private final SessionConfig config;
    private final AtomicInteger connections;
    private final int maxConnections;
    /** The server's TLS context, or null when SSLRequest is refused. */
    private final SslContext tls;
    private boolean tlsStarted;
    private ChannelOutbound outbound;
    private ClientSession session;

    ConnectionHandler(SessionConfig config, AtomicInteger connections, int maxConnections, SslContext tls) {
        this.config = config;
        this.connections = connections;
        this.maxConnections = maxConnections;
        this.tls = tls;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) throws Exception {
        if (connections.incrementAndGet() > maxConnections) {
            context.writeAndFlush(new BackendMessage.ErrorResponse(BackendMessage.Severity.FATAL, "53300",
                    "sorry, too many clients already (the server's limit is " + maxConnections + ")"))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        outbound = new ChannelOutbound(context.channel());
        boolean loopback = context.channel().remoteAddress() instanceof InetSocketAddress remote
                && remote.getAddress() != null && remote.getAddress().isLoopbackAddress();
        session = new ClientSession(config, outbound, loopback);
        super.channelActive(context);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (session == null) {
            return; // refused: over the connection limit
        }
        FrontendMessage frontend = (FrontendMessage) message;
        if (frontend instanceof FrontendMessage.SslRequest && tls != null && !tlsStarted) {
            startTls(context);
            return;
        }
        try {
            session.handle(frontend);
        } catch (Outbound.ClientGoneException gone) {
            session.close();
        } catch (RuntimeException bug) {
            // A failure outside any statement (a bug): the conversation cannot be trusted any more.
            context.writeAndFlush(new BackendMessage.ErrorResponse(BackendMessage.Severity.FATAL, "XX000",
                    "internal error: " + bug)).addListener(ChannelFutureListener.CLOSE);
            session.close();
        }
    }

    /**
     * Answers SSLRequest with {@code S} and puts TLS in front of the decoder, before the channel reads on:
     * the client sends its handshake as soon as it reads the {@code S}, so TLS must be in place before
     * the next read. The handler starts in "StartTLS" mode, which lets the first write (the {@code S})
     * pass in the clear. The decoder is still in its startup phase, so the StartupMessage that follows,
     * decrypted, is read as one.
     */
    private void startTls(ChannelHandlerContext context) {
        tlsStarted = true;
        SslHandler handler = new SslHandler(tls.newEngine(context.alloc()), true);
        context.pipeline().addFirst("tls", handler);
        session.encrypted(() -> serverEndPoint(handler));
        context.writeAndFlush(new BackendMessage.EncryptionAccepted());
    }

    /**
     * RFC 5929's {@code tls-server-end-point} of the certificate this connection's handshake showed the client,
     * for SCRAM-SHA-256-PLUS; asked for when the client authenticates, after the handshake.
     */
    private static byte[] serverEndPoint(SslHandler handler) {
        java.security.cert.Certificate[] shown = handler.engine().getSession().getLocalCertificates();
        if (shown == null || shown.length == 0 || !(shown[0] instanceof java.security.cert.X509Certificate certificate)) {
            throw new IllegalStateException("the TLS session shows no X.509 certificate to bind SCRAM to");
        }
        return dev.columba.core.auth.ScramExchange.tlsServerEndPoint(certificate);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        try {
            if (session != null) {
                session.close(); // an open transaction rolls back
            }
        } finally {
            // Only now does the session stop counting: the server's close waits for the count to reach zero.
            connections.decrementAndGet();
        }
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        Throwable reason = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (reason instanceof ProtocolException protocol) {
            context.writeAndFlush(new BackendMessage.ErrorResponse(BackendMessage.Severity.FATAL, "08P01",
                    "protocol violation: " + protocol.getMessage())).addListener(ChannelFutureListener.CLOSE);
        } else {
            context.close();
        }
    }
}
