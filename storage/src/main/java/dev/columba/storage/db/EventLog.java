package dev.columba.storage.db;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;

/**
 * What the engine did on its own that an operator must be able to see afterwards: what recovery found
 * and replayed when the database opened, checkpoints, files the orphan sweep deleted or moved aside,
 * failures of background work. Nobody waits on these, so without a record they would be invisible.
 *
 * <p>Each event goes two ways. It is logged through the platform's {@link System.Logger} (logger
 * {@code dev.columba.<source>}): the JDK routes that to {@code java.util.logging} unless the
 * application installs its own {@code LoggerFinder} (SLF4J's and Log4j's bridges are such finders),
 * so the driver imposes no logging binding on its users. And it is kept in a bounded ring, newest
 * last, that {@code sys.event_log} shows, so the last events can be read with SQL from any client.
 */
public final class EventLog {
    /** One event: when, how serious, which part of the engine, and what happened. */
    public record Event(Instant time, Level level, String source, String message) {
    }

    /** Events kept for {@code sys.event_log}; older ones are dropped (and still in the platform log). */
    static final int CAPACITY = 1_000;

    private final ArrayDeque<Event> events = new ArrayDeque<>();
    /** Events recorded since the database opened, by {@link Level#ordinal()}, dropped ones included. */
    private final long[] counts = new long[Level.values().length];

    /** Logs an event and keeps it; {@code cause}, if not null, goes to the platform log with its stack. */
    public void record(Level level, String source, String message, Throwable cause) {
        String text = cause == null ? message : message + ": " + cause;
        Event event = new Event(Instant.now(), level, source, text);
        synchronized (events) {
            if (events.size() == CAPACITY) {
                events.removeFirst();
            }
            events.addLast(event);
            counts[level.ordinal()]++;
        }
        System.Logger logger = System.getLogger("dev.columba." + source);
        if (logger.isLoggable(level)) {
            if (cause == null) {
                logger.log(level, message);
            } else {
                logger.log(level, message, cause);
            }
        }
    }

    /** Logs and keeps an event without a cause. */
    public void record(Level level, String source, String message) {
        record(level, source, message, null);
    }

    /** Events of {@code level} recorded since the database opened, those dropped from the ring included. */
    public long count(Level level) {
        synchronized (events) {
            return counts[level.ordinal()];
        }
    }

    /** The events kept, oldest first. */
    public List<Event> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }
}
