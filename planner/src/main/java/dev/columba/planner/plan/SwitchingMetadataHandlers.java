package dev.columba.planner.plan;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.rel.metadata.JaninoRelMetadataProvider;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;

/**
 * The cost-based phase's memoized metadata: {@link MemoizingMetadataHandlers} (reflection, nothing
 * to compile) for each kind of metadata until a background thread has compiled Janino's handler for
 * it, Janino's from then on.
 *
 * <p>Why both: Janino's generated dispatch makes direct, inlinable calls, so a warm JVM plans faster
 * with it than through a proxy and {@code Method.invoke}; but generating and compiling it cost a
 * fresh JVM's first statement about a third of its planning CPU. Here the first use of a kind of
 * metadata queues its compilation on one daemon thread and goes on with the reflective handler; a
 * {@code RelMetadataQuery} made after the compilation finished gets Janino's. Both memoize in the
 * query's own map under their own keys and answer alike (MemoizingMetadataHandlersTest), so a query
 * that holds handlers of both kinds gives the answers either would. A compilation that fails leaves
 * the reflective handler in place for good: it answers the same, only slower.
 *
 * <p>JVM-wide, like Janino's own cache of compiled handlers: built once per provider chain. The
 * compiling thread ends when it has had nothing to do for a while.
 */
final class SwitchingMetadataHandlers implements MetadataHandlerProvider {
    private static final Duration IDLE_COMPILER = Duration.ofSeconds(5);

    private final JaninoRelMetadataProvider janino;
    private final MemoizingMetadataHandlers reflective;
    private final Map<Class<?>, MetadataHandler<?>> compiled = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor compiler;

    SwitchingMetadataHandlers(RelMetadataProvider provider) {
        this.janino = JaninoRelMetadataProvider.of(provider);
        this.compiler = new ThreadPoolExecutor(1, 1, IDLE_COMPILER.toMillis(), TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                task -> Thread.ofPlatform().daemon().name("columba-metadata-compiler").unstarted(task));
        this.compiler.allowCoreThreadTimeOut(true);
        this.reflective = new MemoizingMetadataHandlers(provider, this::compileLater);
    }

    @Override
    public <H extends MetadataHandler<?>> H handler(Class<H> handlerClass) {
        MetadataHandler<?> ready = compiled.get(handlerClass);
        return ready != null ? handlerClass.cast(ready) : reflective.handler(handlerClass);
    }

    private void compileLater(Class<? extends MetadataHandler<?>> handlerClass) {
        compiler.execute(() -> {
            try {
                compiled.put(handlerClass, janino.revise(handlerClass));
            } catch (RuntimeException | LinkageError e) {
                // Handled by not switching: the reflective handler gives the same answers.
            }
        });
    }
}
