package dev.columba.planner.plan;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.CyclicMetadataException;
import org.apache.calcite.rel.metadata.DelegatingMetadataRel;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.rel.metadata.NullSentinel;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * Calcite's metadata handlers, memoized per {@link RelMetadataQuery}, without Janino.
 *
 * <p>{@code JaninoRelMetadataProvider} writes Java source for each handler interface (one
 * {@code instanceof} chain per method over the provider chain's handler classes, around a lookup in
 * the query's {@code map}) and compiles it with Janino the first time a JVM asks for that kind of
 * metadata: a third to a half of the CPU a fresh JVM spent planning its first statement, and Janino's
 * own classes, from a signed jar, are not in the start-up cache (bench/results/plan11-20261127.md).
 * This provider does what that generated code does -- the same cache keys' equality, the same
 * {@link NullSentinel#ACTIVE} mark that turns a cycle into {@link CyclicMetadataException}, the same
 * clearing of the rel's entries when a handler throws, the same choice of handler method -- through a
 * {@link Proxy} and a per-(method, rel class) dispatch table built by reflection on first use, so the
 * plans and estimates are those Janino's handlers give.
 *
 * <p>The choice of handler method follows Calcite's {@code DispatchGenerator}: the rel classes the
 * handlers have a method for are ordered subclasses first (ties by name), the first the rel is an
 * instance of wins, and of the handlers (in the provider chain's order) the first with a method for
 * that class answers. Thread-safe: the dispatch tables are concurrent maps; the memo lives in each
 * {@code RelMetadataQuery}, which belongs to one planning thread.
 */
final class MemoizingMetadataHandlers implements MetadataHandlerProvider {
    private final RelMetadataProvider provider;
    /** Told once per handler interface, at its first metadata call (not when a query merely asks for the handler). */
    private final Consumer<Class<? extends MetadataHandler<?>>> firstUse;
    private final Map<Class<?>, MetadataHandler<?>> handlers = new ConcurrentHashMap<>();

    MemoizingMetadataHandlers(RelMetadataProvider provider) {
        this(provider, used -> { });
    }

    MemoizingMetadataHandlers(RelMetadataProvider provider, Consumer<Class<? extends MetadataHandler<?>>> firstUse) {
        this.provider = provider;
        this.firstUse = firstUse;
    }

    @Override
    public <H extends MetadataHandler<?>> H handler(Class<H> handlerClass) {
        return handlerClass.cast(handlers.computeIfAbsent(handlerClass, this::create));
    }

    private MetadataHandler<?> create(Class<?> handlerInterface) {
        @SuppressWarnings("unchecked")
        Class<? extends MetadataHandler<?>> handlerClass = (Class<? extends MetadataHandler<?>>) handlerInterface;
        List<MetadataHandler<?>> implementations = List.copyOf(new LinkedHashSet<>(provider.handlers(handlerClass)));
        // By name: a handler interface's metadata methods have distinct names (Calcite keys them so).
        Map<String, MethodDispatch> methods = new HashMap<>();
        for (Method method : MetadataHandler.handlerMethods(handlerClass).values()) {
            methods.put(method.getName(), new MethodDispatch(method, implementations));
        }
        InvocationHandler invocation = new Invocation(handlerClass, implementations, methods, new AtomicBoolean(), firstUse);
        return (MetadataHandler<?>) Proxy.newProxyInstance(handlerClass.getClassLoader(),
                new Class<?>[] {handlerClass}, invocation);
    }

    /** One proxy's calls: a memoized metadata method, {@code getDef}, or one of Object's. */
    private record Invocation(Class<? extends MetadataHandler<?>> handlerClass, List<MetadataHandler<?>> implementations,
                              Map<String, MethodDispatch> methods, AtomicBoolean used,
                              Consumer<Class<? extends MetadataHandler<?>>> firstUse) implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] arguments) {
            MethodDispatch dispatch = methods.get(method.getName());
            if (dispatch != null) {
                if (!used.get() && used.compareAndSet(false, true)) {
                    firstUse.accept(handlerClass);
                }
                return dispatch.call(arguments);
            }
            return switch (method.getName()) {
                case "getDef" -> implementations.isEmpty() ? null : implementations.getFirst().getDef();
                case "equals" -> proxy == arguments[0];
                case "hashCode" -> System.identityHashCode(proxy);
                case "toString" -> "memoized " + handlerClass.getName();
                default -> throw new IllegalStateException("not a metadata method: " + method);
            };
        }
    }

    /**
     * One metadata method: its cache key and, per rel class, the handler method that answers.
     * The key of a call with arguments besides the rel and the query is the list of the method's key
     * and those arguments (equal when they are equal, as the generated code's {@code FlatLists} are).
     */
    private static final class MethodDispatch {
        private final Method method;
        private final Object key;
        private final List<MetadataHandler<?>> implementations;
        /** The rel classes some handler has this method for, subclasses before their superclasses. */
        private final List<Class<? extends RelNode>> relClasses;
        private final Map<Class<?>, Target> targets = new ConcurrentHashMap<>();

        MethodDispatch(Method method, List<MetadataHandler<?>> implementations) {
            this.method = method;
            this.key = new MethodKey(method.getReturnType().getSimpleName() + " "
                    + method.getDeclaringClass().getSimpleName() + "." + method.getName());
            this.implementations = implementations;
            Set<Class<? extends RelNode>> classes = new LinkedHashSet<>();
            for (MetadataHandler<?> implementation : implementations) {
                classes.addAll(implementedClasses(method, implementation));
            }
            this.relClasses = subclassesFirst(classes);
        }

        Object call(Object[] arguments) {
            RelNode rel = (RelNode) arguments[0];
            while (rel instanceof DelegatingMetadataRel delegating) {
                rel = delegating.getMetadataDelegateRel();
            }
            RelMetadataQuery query = (RelMetadataQuery) arguments[1];
            Object cacheKey = key;
            if (arguments.length > 2) {
                Object[] keyParts = new Object[arguments.length - 1];
                keyParts[0] = key;
                System.arraycopy(arguments, 2, keyParts, 1, arguments.length - 2);
                cacheKey = Arrays.asList(keyParts);
            }
            Object known = query.map.get(rel, cacheKey);
            if (known != null) {
                if (known == NullSentinel.ACTIVE) {
                    throw new CyclicMetadataException();
                }
                return known == NullSentinel.INSTANCE ? null : known;
            }
            query.map.put(rel, cacheKey, NullSentinel.ACTIVE);
            try {
                Object answer = dispatch(rel, arguments);
                query.map.put(rel, cacheKey, NullSentinel.mask(answer));
                return answer;
            } catch (RuntimeException e) {
                query.map.row(rel).clear();
                throw e;
            }
        }

        private Object dispatch(RelNode rel, Object[] arguments) {
            Target target = targets.computeIfAbsent(rel.getClass(), this::target);
            arguments[0] = rel;
            try {
                return target.method().invoke(target.handler(), arguments);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        private Target target(Class<?> relClass) {
            for (Class<? extends RelNode> candidate : relClasses) {
                if (!candidate.isAssignableFrom(relClass)) {
                    continue;
                }
                for (MetadataHandler<?> implementation : implementations) {
                    if (implementedClasses(method, implementation).contains(candidate)) {
                        Class<?>[] parameters = method.getParameterTypes().clone();
                        parameters[0] = candidate;
                        try {
                            return new Target(implementation, implementation.getClass().getMethod(method.getName(), parameters));
                        } catch (NoSuchMethodException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
            }
            throw new IllegalArgumentException("No handler for method [" + method + "] applied to argument of type ["
                    + relClass + "]; we recommend you create a catch-all (RelNode) handler");
        }
    }

    /** The handler object and its public method that answer for one rel class. */
    private record Target(Object handler, Method method) {
    }

    /** A metadata method's cache key: its description, compared by identity. */
    private record MethodKey(String description) {
        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /**
     * The rel classes an implementation has a public method for: same name and parameter count, a
     * RelNode first, the query second, and the metadata method's own types after.
     */
    @SuppressWarnings("unchecked")
    private static Set<Class<? extends RelNode>> implementedClasses(Method method, MetadataHandler<?> implementation) {
        Set<Class<? extends RelNode>> classes = new LinkedHashSet<>();
        Class<?>[] wanted = method.getParameterTypes();
        for (Method candidate : implementation.getClass().getMethods()) {
            if (!candidate.getName().equals(method.getName()) || candidate.getParameterCount() != wanted.length
                    || Modifier.isStatic(candidate.getModifiers())) {
                continue;
            }
            Class<?>[] parameters = candidate.getParameterTypes();
            if (!RelNode.class.isAssignableFrom(parameters[0]) || parameters[1] != RelMetadataQuery.class) {
                continue;
            }
            boolean same = true;
            for (int parameter = 2; parameter < wanted.length; parameter++) {
                same &= parameters[parameter] == wanted[parameter];
            }
            if (same) {
                classes.add((Class<? extends RelNode>) parameters[0]);
            }
        }
        return classes;
    }

    /** Calcite's order: by name, then each class moved behind the classes that extend it. */
    private static List<Class<? extends RelNode>> subclassesFirst(Set<Class<? extends RelNode>> classes) {
        ArrayDeque<Class<? extends RelNode>> pending = new ArrayDeque<>(classes.stream()
                .sorted(Comparator.comparing(Class::getName)).toList());
        List<Class<? extends RelNode>> ordered = new ArrayList<>();
        while (!pending.isEmpty()) {
            Class<? extends RelNode> next = pending.remove();
            boolean hasSubclassPending = false;
            for (Class<? extends RelNode> other : pending) {
                if (next.isAssignableFrom(other)) {
                    hasSubclassPending = true;
                    break;
                }
            }
            if (hasSubclassPending) {
                pending.add(next);
            } else {
                ordered.add(next);
            }
        }
        return ordered;
    }
}
