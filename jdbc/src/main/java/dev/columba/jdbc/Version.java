package dev.columba.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version the driver and the database report: the project's, written into
 * {@code version.properties} by the build. The driver and the engine ship together, so one
 * version stands for both.
 */
record Version(String text, int major, int minor) {
    static final Version CURRENT = load();

    private static Version load() {
        Properties properties = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("dev/columba/jdbc/version.properties is missing from the driver's jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the driver's version.properties", e);
        }
        return parse(properties.getProperty("version"));
    }

    /** {@code major.minor[.patch][-qualifier]}. */
    static Version parse(String text) {
        String[] parts = text.split("[.-]");
        if (parts.length < 2) {
            throw new IllegalArgumentException("version '" + text + "' is not major.minor[.patch]");
        }
        return new Version(text, Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }
}
