package dev.columba.trino;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A catalog's properties.
 *
 * @param databaseDirectory        {@code columba.database-dir}: the Columba database the catalog reads
 *                                 (required; it must exist: the connector never creates a database)
 * @param schemaName               {@code columba.schema-name}: the one schema the catalog shows; by
 *                                 default the directory's name in lower case
 * @param dynamicFilterWaitTimeout {@code columba.dynamic-filtering.wait-timeout}: how long Trino holds a
 *                                 scan's splits back waiting for the dynamic filters of the joins above
 *                                 it, which then eliminate rowgroups (default 1s, as Iceberg's; 0s
 *                                 splits at once)
 * @param rowstorePagesPerSplit    {@code columba.rowstore.pages-per-split}: the allocated pages of a rowstore
 *                                 table one split reads (default 4096, 32 MB of 8 KB pages)
 * @param accessMode               {@code columba.access-mode}: {@code open} (default) opens the directory, or
 *                                 reads through the engine's opening of it in this JVM; {@code snapshot} never
 *                                 opens it, and reads a snapshot of its committed state per Trino transaction,
 *                                 beside an engine writing it in another process (docs/design/trino.md)
 * @param snapshotDirectory        {@code columba.snapshot-dir}: where snapshots are copied (default
 *                                 {@code java.io.tmpdir}); on the database's file system, so that its
 *                                 columnstore files are linked there, not only named
 */
record ColumbaConfig(Path databaseDirectory, String schemaName, Duration dynamicFilterWaitTimeout, int rowstorePagesPerSplit,
                     AccessMode accessMode, Path snapshotDirectory) {
    static final String DATABASE_DIRECTORY = "columba.database-dir";
    static final String SCHEMA_NAME = "columba.schema-name";
    static final String DYNAMIC_FILTER_WAIT_TIMEOUT = "columba.dynamic-filtering.wait-timeout";
    static final Duration DEFAULT_DYNAMIC_FILTER_WAIT_TIMEOUT = Duration.ofSeconds(1);
    static final String ROWSTORE_PAGES_PER_SPLIT = "columba.rowstore.pages-per-split";
    static final int DEFAULT_ROWSTORE_PAGES_PER_SPLIT = 4096;
    static final String ACCESS_MODE = "columba.access-mode";
    static final String SNAPSHOT_DIRECTORY = "columba.snapshot-dir";

    /** How the catalog reaches the database ({@code columba.access-mode}). */
    enum AccessMode {
        /** Opened by the connectors of this JVM, or read through the engine's opening in it. */
        OPEN,
        /** Read-only snapshots, one per Trino transaction, beside a writer in another process. */
        SNAPSHOT
    }

    /** Trino's duration spelling (Airlift's {@code Duration}): a number and a unit, "500ms", "1s", "2m". */
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*(ms|s|m)\\s*");

    ColumbaConfig {
        if (!schemaName.equals(schemaName.toLowerCase(Locale.ROOT)) || schemaName.isBlank()) {
            throw new IllegalArgumentException(SCHEMA_NAME + " must be a non-empty lower-case name, not '" + schemaName + "'");
        }
        if (rowstorePagesPerSplit < 1) {
            throw new IllegalArgumentException(ROWSTORE_PAGES_PER_SPLIT + " must be at least 1, not " + rowstorePagesPerSplit);
        }
    }

    /** Reads the properties; an unknown property, a missing directory or a bad value is an error, never ignored. */
    static ColumbaConfig parse(Map<String, String> properties) {
        Set<String> unknown = new TreeSet<>(properties.keySet());
        Set<String> known = Set.of(DATABASE_DIRECTORY, SCHEMA_NAME, DYNAMIC_FILTER_WAIT_TIMEOUT, ROWSTORE_PAGES_PER_SPLIT,
                ACCESS_MODE, SNAPSHOT_DIRECTORY);
        unknown.removeAll(known);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown Columba catalog properties " + unknown + " (known: "
                    + String.join(", ", new TreeSet<>(known)) + ")");
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
        String wait = properties.get(DYNAMIC_FILTER_WAIT_TIMEOUT);
        String pagesPerSplit = properties.get(ROWSTORE_PAGES_PER_SPLIT);
        String snapshots = properties.get(SNAPSHOT_DIRECTORY);
        return new ColumbaConfig(path, schema, wait == null ? DEFAULT_DYNAMIC_FILTER_WAIT_TIMEOUT : duration(wait),
                pagesPerSplit == null ? DEFAULT_ROWSTORE_PAGES_PER_SPLIT : pagesPerSplit(pagesPerSplit),
                accessMode(properties.get(ACCESS_MODE)),
                Path.of(snapshots == null ? System.getProperty("java.io.tmpdir") : snapshots).toAbsolutePath().normalize());
    }

    private static AccessMode accessMode(String text) {
        if (text == null) {
            return AccessMode.OPEN;
        }
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "open" -> AccessMode.OPEN;
            case "snapshot" -> AccessMode.SNAPSHOT;
            default -> throw new IllegalArgumentException(ACCESS_MODE + " must be open or snapshot, not '" + text + "'");
        };
    }

    private static int pagesPerSplit(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ROWSTORE_PAGES_PER_SPLIT + " must be a whole number of pages, not '" + text + "'", e);
        }
    }

    private static Duration duration(String text) {
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(DYNAMIC_FILTER_WAIT_TIMEOUT + " must be a duration such as 500ms, 1s or 2m, not '"
                    + text + "'");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }
}
