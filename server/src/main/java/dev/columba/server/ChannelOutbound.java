package dev.columba.server;

import dev.columba.server.protocol.BackendMessage;
import dev.columba.server.session.Outbound;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * A session's replies into its Netty channel, from the worker thread that runs the session. Every so many
 * messages, and at each flush, it hands what was sent to the network thread in one task, and while the channel's outbound buffer is over its high-water mark it waits for the
 * client to read, so a large result streams in bounded memory.
 */
final class ChannelOutbound implements Outbound {
    /** Messages written between flushes while a result streams. */
    private static final int FLUSH_EVERY = 128;

    private final Channel channel;
    private final Object writable = new Object();
    /** Messages sent since the last flush, written by the network thread at the next. */
    private List<BackendMessage> pending = new ArrayList<>();

    ChannelOutbound(Channel channel) {
        this.channel = channel;
    }

    @Override
    public void send(BackendMessage message) {
        List<BackendMessage> full;
        synchronized (this) {
            if (!channel.isActive()) {
                throw new ClientGoneException();
            }
            pending.add(message);
            if (pending.size() < FLUSH_EVERY) {
                return;
            }
            full = take();
        }
        hand(full);
        awaitWritable();
    }

    /**
     * Hands the messages sent since the last flush to the network thread as one task that writes and flushes
     * them: one wake-up of the event loop per flush, not one per message (a batch's thousands of answers, or a
     * point select's five messages, cost one).
     */
    @Override
    public void flush() {
        List<BackendMessage> messages;
        synchronized (this) {
            messages = take();
        }
        hand(messages);
    }

    @Override
    public void close() {
        List<BackendMessage> messages;
        synchronized (this) {
            messages = take();
        }
        try {
            channel.eventLoop().execute(() -> {
                write(messages);
                channel.close();
            });
        } catch (RejectedExecutionException stopped) {
            // The server is shutting down its network threads, which close every channel themselves.
        }
    }

    /** The messages sent since the last flush, or null if none; the caller holds the lock. */
    private List<BackendMessage> take() {
        if (pending.isEmpty()) {
            return null;
        }
        List<BackendMessage> messages = pending;
        pending = new ArrayList<>();
        return messages;
    }

    /** Writes and flushes {@code messages} on the network thread, in the order handed (one event loop runs them). */
    private void hand(List<BackendMessage> messages) {
        if (messages != null) {
            try {
                channel.eventLoop().execute(() -> write(messages));
            } catch (RejectedExecutionException stopped) {
                // The network threads are stopping (the server closes): nobody will read the replies.
                throw new ClientGoneException();
            }
        }
    }

    private void write(List<BackendMessage> messages) {
        if (messages == null) {
            return;
        }
        for (BackendMessage message : messages) {
            channel.write(message, channel.voidPromise());
        }
        channel.flush();
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
