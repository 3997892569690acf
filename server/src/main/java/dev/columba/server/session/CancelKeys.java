package dev.columba.server.session;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's live sessions by BackendKeyData (process id and secret key), for CancelRequests. Process ids
 * count up from 1; secrets are random, so a CancelRequest needs the key the session told its own client.
 */
public final class CancelKeys {
    private final SecureRandom random = new SecureRandom();
    private final AtomicInteger nextProcessId = new AtomicInteger();
    private final Map<Integer, ClientSession> sessions = new ConcurrentHashMap<>();

    int nextProcessId() {
        return nextProcessId.incrementAndGet();
    }

    int nextSecret() {
        return random.nextInt();
    }

    void register(ClientSession session) {
        sessions.put(session.processId(), session);
    }

    void unregister(ClientSession session) {
        sessions.remove(session.processId(), session);
    }

    /** Cancels what the keyed session runs now; a wrong key or an idle session is ignored, as in PostgreSQL. */
    void cancel(int processId, int secretKey) {
        ClientSession session = sessions.get(processId);
        if (session != null && session.secretKey() == secretKey) {
            session.cancelRunning();
        }
    }

    /** Cancels what every session runs now (the server is closing). */
    public void cancelAll() {
        sessions.values().forEach(ClientSession::cancelRunning);
    }

    /** Sessions open now. */
    public int size() {
        return sessions.size();
    }
}
