package dev.columba.server;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.session.Outbound;
import io.netty.channel.Channel;
import io.netty.channel.nio.AbstractNioChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A session's replies into its Netty channel, written by the connection's own event loop thread, the one that
 * runs the session (see {@link SessionLoops}): a reply goes to the socket at the next flush without waking
 * another thread. While a result streams it flushes every so many messages, and while the channel's outbound
 * buffer is over its high-water mark it waits for the client to read, so a large result streams in bounded memory.
 */
final class ChannelOutbound implements Outbound {
    /** Messages written between flushes while a result streams. */
    private static final int FLUSH_EVERY = 128;
    /** How long the session's thread sleeps between attempts to write to a client that does not read. */
    private static final long WRITABLE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Channel channel;
    private int unflushed;

    ChannelOutbound(Channel channel) {
        this.channel = channel;
    }

    @Override
    public void send(BackendMessage message) {
        if (!channel.isActive()) {
            throw new ClientGoneException();
        }
        channel.write(message, channel.voidPromise());
        if (++unflushed >= FLUSH_EVERY) {
            flush();
            awaitWritable();
        }
    }

    /** Writes what was sent since the last flush to the socket: a point select's five messages in one write. */
    @Override
    public void flush() {
        unflushed = 0;
        channel.flush();
    }

    @Override
    public void close() {
        flush();
        channel.close();
    }

    /**
     * Waits, on the session's (and channel's) own thread, until the client has read enough of what was written.
     * The event loop cannot wake this thread — it is this thread — so it writes what the socket takes and sleeps
     * a millisecond between attempts; only this connection waits.
     */
    private void awaitWritable() {
        while (channel.isActive() && !channel.isWritable()) {
            if (channel.unsafe() instanceof AbstractNioChannel.NioUnsafe nio) {
                nio.forceFlush(); // a plain flush does nothing while Netty waits for the socket to be writable
            } else {
                channel.flush();
            }
            if (channel.isWritable()) {
                break;
            }
            LockSupport.parkNanos(WRITABLE_POLL_NANOS);
            if (Thread.interrupted()) {
                throw new ClientGoneException();
            }
        }
        if (!channel.isActive()) {
            throw new ClientGoneException();
        }
    }
}
