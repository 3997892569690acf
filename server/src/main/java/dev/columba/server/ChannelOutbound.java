package dev.columba.server;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.session.Outbound;
import io.netty.channel.Channel;

/**
 * A session's replies into its Netty channel, from the worker thread that runs the session. Every so many
 * messages it flushes, and while the channel's outbound buffer is over its high-water mark it waits for the
 * client to read, so a large result streams in bounded memory.
 */
final class ChannelOutbound implements Outbound {
    /** Messages written between flushes while a result streams. */
    private static final int FLUSH_EVERY = 128;

    private final Channel channel;
    private final Object writable = new Object();
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

    @Override
    public void flush() {
        unflushed = 0;
        channel.flush();
    }

    @Override
    public void close() {
        channel.flush();
        channel.close();
    }

    /** Called on the network thread when the channel's writability changes or it closes. */
    void wakeWriters() {
        synchronized (writable) {
            writable.notifyAll();
        }
    }

    private void awaitWritable() {
        synchronized (writable) {
            while (channel.isActive() && !channel.isWritable()) {
                try {
                    writable.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ClientGoneException();
                }
            }
        }
        if (!channel.isActive()) {
            throw new ClientGoneException();
        }
    }
}
