package dev.columba.planner.session;

import dev.columba.core.auth.ScramVerifier;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.parser.SqlLogin;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.Transaction;
import java.security.SecureRandom;

/**
 * CREATE, ALTER and DROP LOGIN: the wire server's users, kept in the catalog as SCRAM-SHA-256
 * verifiers (a fresh random salt, 4096 iterations), in the statement's transaction like any other
 * DDL, so they are logged, recovered and rolled back as the rest of the catalog is.
 */
final class LoginDdl {
    /** One generator for every session: SecureRandom is thread-safe, and seeding it is the slow part. */
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Database database;

    LoginDdl(Database database) {
        this.database = database;
    }

    void execute(Transaction transaction, SqlLogin statement) {
        String name = statement.name();
        IoCounters counters = transaction.systemCounters();
        CatalogEntry.Login existing = database.catalog().login(transaction.writes(), name, counters).orElse(null);
        switch (statement.action()) {
            case CREATE -> {
                if (existing != null) {
                    // SQL Server's Msg 15025.
                    throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "The server principal '" + name
                            + "' already exists.");
                }
                int objectId = database.catalog().allocateObjectId(transaction.writes(), counters);
                put(transaction, new CatalogEntry.Login(objectId, name, verifier(statement)));
            }
            case ALTER -> put(transaction, new CatalogEntry.Login(required(existing, name, "alter").objectId(),
                    existing.name(), verifier(statement)));
            case DROP -> database.catalog().remove(transaction.writes(), database.allocator(),
                    required(existing, name, "drop").objectId(), counters);
        }
    }

    private void put(Transaction transaction, CatalogEntry.Login login) {
        database.catalog().put(transaction.writes(), database.allocator(), login, transaction.systemCounters());
    }

    private static CatalogEntry.Login required(CatalogEntry.Login login, String name, String verb) {
        if (login == null) {
            // SQL Server's Msg 15151.
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "Cannot " + verb + " the login '" + name
                    + "', because it does not exist.");
        }
        return login;
    }

    private static String verifier(SqlLogin statement) {
        String password = statement.password().orElseThrow();
        if (password.isEmpty()) {
            // PostgreSQL lets no one in with an empty password; refusing it here says so at once.
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "a login's password cannot be empty");
        }
        return ScramVerifier.create(password, RANDOM).encode();
    }
}
