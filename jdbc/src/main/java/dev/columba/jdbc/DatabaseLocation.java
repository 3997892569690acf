package dev.columba.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

/**
 * Where a connection URL points: a database directory ({@code jdbc:columba:<dir>}, created on first
 * open) or a named temporary database shared within the JVM ({@code jdbc:columba:mem:<name>}).
 * The {@link #key()} identifies the database among those open in this JVM.
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
    }

    /** A temporary database named within the JVM. */
    record Memory(String name) implements DatabaseLocation {
        @Override
        public String key() {
            return MEMORY_PREFIX + name;
        }
    }

    static boolean accepts(String url) {
        return url != null && url.startsWith(URL_PREFIX);
    }

    /**
     * Parses a URL this driver accepts.
     *
     * @throws SQLException 08001 naming the URL when it names no database
     */
    static DatabaseLocation parse(String url) throws SQLException {
        String rest = url.substring(URL_PREFIX.length());
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
