package dev.columba.planner.plan;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;

/**
 * The heuristic (Hep) phases' metadata handlers: Calcite's {@link ProxyingMetadataHandlerProvider}
 * (every call answered afresh, nothing memoized: see {@code QueryPlanner}'s {@code UNCACHED_METADATA}),
 * with each handler made once per JVM instead of once per {@code RelMetadataQuery}.
 *
 * <p>Why: Hep's rule call drops the cluster's {@code RelMetadataQuery} after every transformation, and
 * the next metadata call (Hep's own clearing of the changed vertex's entries, first of all) makes a new
 * one, whose constructor asks the provider for a handler of each of about twenty kinds of metadata.
 * Calcite's proxying provider builds each by reflection (the interface's {@code DEF} field, a map of its
 * methods, a {@code Proxy}): 6% of a warm JVM's planning of TPC-H Q2 and Q21, a fifth of the Hep
 * phases' time (bench/results/plan11c-20261127.md). A handler it makes keeps nothing of any query: it
 * takes the rel and the query from each call's arguments and asks the provider chain afresh, so one
 * instance per kind serves every query and every thread, with the same answers.
 */
final class UnmemoizedMetadataHandlers implements MetadataHandlerProvider {
    private final ProxyingMetadataHandlerProvider proxies;
    private final Map<Class<?>, MetadataHandler<?>> handlers = new ConcurrentHashMap<>();

    UnmemoizedMetadataHandlers(RelMetadataProvider provider) {
        this.proxies = new ProxyingMetadataHandlerProvider(provider);
    }

    @Override
    public <H extends MetadataHandler<?>> H handler(Class<H> handlerClass) {
        return handlerClass.cast(handlers.computeIfAbsent(handlerClass, kind -> proxies.handler(handlerClass)));
    }
}
