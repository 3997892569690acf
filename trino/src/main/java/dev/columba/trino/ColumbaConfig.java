package dev.columba.trino;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A catalog's properties.
 *
 * @param databaseDirectory {@code columba.database-dir}: the Columba database the catalog reads (required; it
 *                          must exist: the connector never creates a database)
 * @param schemaName        {@code columba.schema-name}: the one schema the catalog shows; by default the
 *                          directory's name in lower case
 */
record ColumbaConfig(Path databaseDirectory, String schemaName) {
    static final String DATABASE_DIRECTORY = "columba.database-dir";
    static final String SCHEMA_NAME = "columba.schema-name";

    ColumbaConfig {
        if (!schemaName.equals(schemaName.toLowerCase(Locale.ROOT)) || schemaName.isBlank()) {
            throw new IllegalArgumentException(SCHEMA_NAME + " must be a non-empty lower-case name, not '" + schemaName + "'");
        }
    }

    /** Reads the properties; an unknown property or a missing directory is an error, never ignored. */
    static ColumbaConfig parse(Map<String, String> properties) {
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.remove(DATABASE_DIRECTORY);
        unknown.remove(SCHEMA_NAME);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown Columba catalog properties " + unknown + " (known: "
                    + DATABASE_DIRECTORY + ", " + SCHEMA_NAME + ")");
        }
        String directory = properties.get(DATABASE_DIRECTORY);
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException(DATABASE_DIRECTORY + " is required: the Columba database directory to read");
        }
        Path path = Path.of(directory).toAbsolutePath().normalize();
        String schema = properties.get(SCHEMA_NAME);
        if (schema == null) {
            schema = path.getFileName() == null ? "columba" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        }
        return new ColumbaConfig(path, schema);
    }
}
