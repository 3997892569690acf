package dev.columba.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.SingleThreadIoEventLoop;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Netty's group for client connections, in which every connection gets an event loop — a thread — of its own,
 * made when the connection is accepted and ended when it closes. The session runs its statements on that thread,
 * where its bytes are read and written: a short statement costs no hand-off between threads (a reply is written
 * to the socket by the thread that made it), and a long one holds its own connection's thread and nobody else's.
 * One thread per session is also what Columba's sessions need: a write transaction's lock belongs to the thread
 * that began it. See docs/design/server.md, "Threads".
 */
final class SessionLoops extends AbstractEventExecutorGroup implements IoEventLoopGroup {
    private final ThreadFactory threads;
    private final IoHandlerFactory io = NioIoHandler.newFactory();
    private final Set<IoEventLoop> live = ConcurrentHashMap.newKeySet();
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private volatile boolean shuttingDown;

    SessionLoops(ThreadFactory threads) {
        this.threads = threads;
    }

    /** A new loop of its own for one connection; it ends when its channel closes. */
    @Override
    public ChannelFuture register(Channel channel) {
        IoEventLoop loop = next();
        return endsWithChannel(loop, loop.register(channel));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        IoEventLoop loop = next();
        return endsWithChannel(loop, loop.register(promise));
    }

    @Override
    @Deprecated
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        IoEventLoop loop = next();
        return endsWithChannel(loop, loop.register(channel, promise));
    }

    private static ChannelFuture endsWithChannel(IoEventLoop loop, ChannelFuture registered) {
        registered.channel().closeFuture().addListener(closed -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        registered.addListener(done -> {
            if (!done.isSuccess()) {
                loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            }
        });
        return registered;
    }

    /** Makes a new loop (its thread starts with its first task): each call is a connection's own. */
    @Override
    public IoEventLoop next() {
        if (shuttingDown) {
            throw new RejectedExecutionException("the server is closing");
        }
        SingleThreadIoEventLoop loop = new SingleThreadIoEventLoop(this, threads, io);
        live.add(loop);
        loop.terminationFuture().addListener(ended -> {
            live.remove(loop);
            terminateIfDone();
        });
        if (shuttingDown) { // the group began closing meanwhile and may not have seen this loop
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new RejectedExecutionException("the server is closing");
        }
        return loop;
    }

    private void terminateIfDone() {
        if (shuttingDown && live.isEmpty()) {
            terminated.trySuccess(null);
        }
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return new ArrayList<EventExecutor>(live).iterator();
    }

    @Override
    public boolean isShuttingDown() {
        return shuttingDown;
    }

    /** Shuts every connection's loop down (each closes its channel once its running task returns). */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        shuttingDown = true;
        for (IoEventLoop loop : List.copyOf(live)) {
            loop.shutdownGracefully(quietPeriod, timeout, unit);
        }
        terminateIfDone();
        return terminated;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Override
    @Deprecated
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.SECONDS);
    }

    @Override
    public boolean isShutdown() {
        return shuttingDown;
    }

    @Override
    public boolean isTerminated() {
        return terminated.isDone();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }
}
