package dev.columba.jdbc;

import dev.columba.storage.db.DatabaseLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.Locale;
import java.util.Properties;

/**
 * Where a connection URL points: a database directory ({@code jdbc:columba:<dir>}, created on first
 * open unless {@code create=false}) or a named temporary database shared within the JVM
 * ({@code jdbc:columba:mem:<name>}), followed by any number of {@code ;name=value} properties (as H2
 * and Derby URLs carry them). The {@link #key()} identifies the database among those open in this JVM.
 */
sealed interface DatabaseLocation {
    String URL_PREFIX = "jdbc:columba:";
    String MEMORY_PREFIX = "mem:";

    /** Identifies the database within the JVM: connections with equal keys share one engine. */
    String key();

    /** A database directory, absolute and normalized (through symbolic links when it exists). */
    record Directory(Path path) implements DatabaseLocation {
        @Override
        public String key() {
            return "dir:" + path;
        }

        @Override
        public boolean exists() {
            return Files.exists(DatabaseLayout.controlFile(path));
        }
    }

    /** A temporary database named within the JVM. */
    record Memory(String name) implements DatabaseLocation {
        @Override
        public String key() {
            return MEMORY_PREFIX + name;
        }

        @Override
        public boolean exists() {
            return EngineRegistry.INSTANCE.connections(this) > 0;
        }
    }

    /** The property that, set to false, makes a missing database an error instead of creating it. */
    String CREATE = "create";

    static boolean accepts(String url) {
        return url != null && url.startsWith(URL_PREFIX);
    }

    /** Whether the database exists: a directory holding a control file, or a temporary database open in this JVM. */
    boolean exists();

    /**
     * The connection's properties: the URL's {@code ;name=value} pairs and {@code info}'s. A name
     * given both ways must have the same value.
     *
     * @throws SQLException 08001 for a pair without '=' or a name given twice with different values
     */
    static Properties properties(String url, Properties info) throws SQLException {
        Properties merged = new Properties();
        if (info != null) {
            merged.putAll(info);
        }
        int start = url.indexOf(';');
        if (start < 0) {
            return merged;
        }
        for (String pair : url.substring(start + 1).split(";")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw invalid(url, "'" + pair + "' is not name=value");
            }
            String name = pair.substring(0, equals).strip().toLowerCase(Locale.ROOT);
            String value = pair.substring(equals + 1).strip();
            String given = info == null ? null : info.getProperty(name);
            if (given != null && !given.equals(value)) {
                throw invalid(url, name + " is " + value + " in the URL and " + given + " in the properties");
            }
            merged.setProperty(name, value);
        }
        return merged;
    }

    /**
     * Removes {@link #CREATE} from {@code properties} and returns it: true unless it says false.
     *
     * @throws SQLException 08001 for a value other than true or false
     */
    static boolean takeCreate(String url, Properties properties) throws SQLException {
        Object value = properties.remove(CREATE);
        if (value == null || "true".equalsIgnoreCase(value.toString().strip())) {
            return true;
        }
        if ("false".equalsIgnoreCase(value.toString().strip())) {
            return false;
        }
        throw invalid(url, "create must be true or false, not '" + value + "'");
    }

    /**
     * Parses a URL this driver accepts.
     *
     * @throws SQLException 08001 naming the URL when it names no database
     */
    static DatabaseLocation parse(String url) throws SQLException {
        int properties = url.indexOf(';');
        String rest = url.substring(URL_PREFIX.length(), properties < 0 ? url.length() : Math.max(properties, URL_PREFIX.length()));
        if (rest.startsWith(MEMORY_PREFIX)) {
            String name = rest.substring(MEMORY_PREFIX.length());
            if (name.isBlank()) {
                throw invalid(url, "a temporary database needs a name: jdbc:columba:mem:<name>");
            }
            return new Memory(name);
        }
        if (rest.isBlank()) {
            throw invalid(url, "give the database directory: jdbc:columba:<dir> or jdbc:columba:mem:<name>");
        }
        Path path;
        try {
            path = Path.of(rest).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw invalid(url, "not a directory path: " + e.getMessage());
        }
        if (Files.exists(path)) {
            try {
                path = path.toRealPath();
            } catch (IOException e) {
                throw invalid(url, "cannot resolve " + path + ": " + e);
            }
        }
        return new Directory(path);
    }

    private static SQLException invalid(String url, String problem) {
        return new SQLNonTransientConnectionException("invalid Columba URL '" + url + "': " + problem, "08001");
    }
}
