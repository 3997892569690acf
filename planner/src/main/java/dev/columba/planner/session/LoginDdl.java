package dev.columba.planner.session;

import dev.columba.core.auth.ScramVerifier;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.stats.IoCounters;
import dev.columba.planner.parser.SqlLogin;
import dev.columba.planner.parser.SqlServerRoleMember;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.txn.Transaction;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * CREATE, ALTER and DROP LOGIN and ALTER SERVER ROLE sysadmin: the wire server's users, kept in the
 * catalog as SCRAM-SHA-256 verifiers (a fresh random salt, 4096 iterations) with their membership
 * of sysadmin, in the statement's transaction like any other DDL, so they are logged, recovered and
 * rolled back as the rest of the catalog is. Only the database's owner (a session no login
 * authenticated: embedded use, or the server's own user) and sysadmin logins may run them; the check
 * reads the session's login from the catalog each time, so a change of membership applies to the
 * next statement.
 */
final class LoginDdl {
    /** One generator for every session: SecureRandom is thread-safe, and seeding it is the slow part. */
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Columba's one server role, SQL Server's fixed role of that name (PostgreSQL's SUPERUSER). */
    static final String SYSADMIN = "sysadmin";

    private final Database database;
    private final String sessionLogin;

    /** @param sessionLogin the login the session runs for, or null for the database's owner */
    LoginDdl(Database database, String sessionLogin) {
        this.database = database;
        this.sessionLogin = sessionLogin;
    }

    void execute(Transaction transaction, SqlLogin statement) {
        String name = statement.name();
        IoCounters counters = transaction.systemCounters();
        requireSysadmin(transaction, statement.action() + " LOGIN");
        CatalogEntry.Login existing = login(transaction, name).orElse(null);
        switch (statement.action()) {
            case CREATE -> {
                if (existing != null) {
                    // SQL Server's Msg 15025.
                    throw new ColumbaException(ErrorCode.OBJECT_ALREADY_EXISTS, "The server principal '" + name
                            + "' already exists.");
                }
                int objectId = database.catalog().allocateObjectId(transaction.writes(), counters);
                put(transaction, new CatalogEntry.Login(objectId, name, verifier(statement),
                        statement.superuser().orElse(false)));
            }
            case ALTER -> {
                CatalogEntry.Login login = required(existing, name, "alter");
                put(transaction, new CatalogEntry.Login(login.objectId(), login.name(),
                        statement.password().isPresent() ? verifier(statement) : login.verifier(),
                        statement.superuser().orElse(login.sysadmin())));
            }
            case DROP -> database.catalog().remove(transaction.writes(), database.allocator(),
                    required(existing, name, "drop").objectId(), counters);
        }
    }

    void execute(Transaction transaction, SqlServerRoleMember statement) {
        if (!statement.role().equalsIgnoreCase(SYSADMIN)) {
            // SQL Server's Msg 15151 for a role that does not exist.
            throw new ColumbaException(ErrorCode.OBJECT_NOT_FOUND, "Cannot alter the server role '" + statement.role()
                    + "', because it does not exist. Columba has one server role, sysadmin.");
        }
        requireSysadmin(transaction, "ALTER SERVER ROLE");
        CatalogEntry.Login login = required(login(transaction, statement.member()).orElse(null), statement.member(),
                "add to or drop from a server role");
        if (login.sysadmin() != statement.add()) {
            put(transaction, new CatalogEntry.Login(login.objectId(), login.name(), login.verifier(), statement.add()));
        }
    }

    /**
     * Refuses a session whose login is not sysadmin (any longer). The owner's session has no login and may.
     */
    private void requireSysadmin(Transaction transaction, String what) {
        if (sessionLogin == null) {
            return;
        }
        boolean sysadmin = login(transaction, sessionLogin).map(CatalogEntry.Login::sysadmin).orElse(false);
        if (!sysadmin) {
            // SQL Server's Msg 15247; PostgreSQL's 42501.
            throw new ColumbaException(ErrorCode.INSUFFICIENT_PRIVILEGE, "User does not have permission to perform"
                    + " this action: " + what + " takes a member of sysadmin, and login '" + sessionLogin
                    + "' is not one.");
        }
    }

    private Optional<CatalogEntry.Login> login(Transaction transaction, String name) {
        return database.catalog().login(transaction.writes(), name, transaction.systemCounters());
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
