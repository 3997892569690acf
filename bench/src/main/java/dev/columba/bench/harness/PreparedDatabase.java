package dev.columba.bench.harness;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * A benchmark database loaded once and reused by later runs. A marker file beside its directory
 * records that loading finished ({@code state=ready}), what was loaded (identity properties such as
 * the data's shape and size, which must all match for reuse) and whatever the loader measured.
 * Anything else in the directory's place is reloaded, or refused if the bench did not create it.
 *
 * @param directory the database directory
 * @param marker    the marker file, a sibling of the directory
 */
public record PreparedDatabase(Path directory, Path marker) {
    private static final String STATE = "state";
    private static final String READY = "ready";
    private static final String LOADING = "loading";

    /** The directory {@code <dataDirectory>/<name>} and its marker {@code <dataDirectory>/<name>.properties}. */
    public static PreparedDatabase in(Path dataDirectory, String name) {
        return new PreparedDatabase(dataDirectory.resolve(name), dataDirectory.resolve(name + ".properties"));
    }

    /**
     * What the loader recorded, if a finished load with exactly this {@code identity} is in place;
     * null when the database must be (re)loaded.
     */
    public Properties reusable(Map<String, String> identity) {
        Properties recorded = readMarker();
        if (recorded == null || !READY.equals(recorded.getProperty(STATE)) || !Files.isDirectory(directory)) {
            return null;
        }
        for (Map.Entry<String, String> property : identity.entrySet()) {
            if (!property.getValue().equals(recorded.getProperty(property.getKey()))) {
                return null;
            }
        }
        return recorded;
    }

    /**
     * Clears the way for a load: removes a previous database the bench made and records that a
     * load with {@code identity} is under way (a crash leaves it unfinished, so it is reloaded).
     *
     * @throws ColumbaException INVALID_ARGUMENT if a non-empty directory the bench did not create is in the way
     */
    public void startLoad(Map<String, String> identity) {
        if (Files.exists(directory)) {
            if (readMarker() == null && !isEmptyDirectory(directory)) {
                throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, directory + " exists but was not loaded by the"
                        + " bench (no " + marker.getFileName() + "); remove it or choose another data directory");
            }
            BenchDirectories.deleteRecursively(directory);
        }
        Properties loading = new Properties();
        loading.putAll(identity);
        loading.setProperty(STATE, LOADING);
        writeMarker(loading, "loading");
    }

    /** Records a finished load: {@code identity} and what the loader measured ({@code loaded}). */
    public void finishLoad(Map<String, String> identity, Properties loaded, String description) {
        Properties ready = new Properties();
        ready.putAll(loaded);
        ready.putAll(identity);
        ready.setProperty(STATE, READY);
        writeMarker(ready, description);
    }

    /**
     * A number the loader recorded.
     *
     * @throws ColumbaException INVALID_ARGUMENT naming the property and the marker to delete
     */
    public double number(Properties recorded, String name) {
        String value = recorded.getProperty(name);
        try {
            return Double.parseDouble(value == null ? "" : value);
        } catch (NumberFormatException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the bench's record of " + directory + " has "
                    + name + " = '" + value + "', not a number; delete " + marker + " to reload", e);
        }
    }

    /**
     * A whole number the loader recorded (a count or a sum, exact beyond a double's 2^53).
     *
     * @throws ColumbaException INVALID_ARGUMENT naming the property and the marker to delete
     */
    public long wholeNumber(Properties recorded, String name) {
        String value = recorded.getProperty(name);
        try {
            return Long.parseLong(value == null ? "" : value);
        } catch (NumberFormatException e) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "the bench's record of " + directory + " has "
                    + name + " = '" + value + "', not a whole number; delete " + marker + " to reload", e);
        }
    }

    private Properties readMarker() {
        if (!Files.exists(marker)) {
            return null;
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(marker)) {
            properties.load(in);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + marker + ": " + e.getMessage(), e);
        }
        return properties;
    }

    /** Writes a temporary file and renames it, so a crash never leaves half a marker. */
    private void writeMarker(Properties properties, String description) {
        try {
            Files.createDirectories(marker.getParent());
            Path temporary = marker.resolveSibling(marker.getFileName() + ".tmp");
            try (OutputStream out = Files.newOutputStream(temporary)) {
                properties.store(out, "Columba bench: " + description + "; delete to reload");
            }
            Files.move(temporary, marker, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot write " + marker + ": " + e.getMessage(), e);
        }
    }

    private static boolean isEmptyDirectory(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot list " + directory + ": " + e.getMessage(), e);
        }
    }
}
