package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.DataFileDump.INDENT;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.db.DatabaseProperties;
import dev.columba.storage.file.FileManifest;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Dumps {@code columba.properties} or {@code data/files.properties}: every key in order, and whether
 * it passes the checks storage makes at open ({@code DatabaseProperties}: checksum from format
 * version 3, format version, page size; {@code FileManifest}: checksum from manifest version 2,
 * version, filegroups and files), reported as a finding when it does not.
 */
final class PropertiesDump {
    /** A properties file is small; anything longer is not one. */
    private static final int MAX_LENGTH = 1 << 20;

    private PropertiesDump() {
    }

    static void dump(Path path, PrintStream out, Findings findings) {
        out.println("properties " + path);
        String text;
        try (ReadOnlyFile file = ReadOnlyFile.open(path)) {
            if (file.size() > MAX_LENGTH) {
                findings.report(INDENT, path + " is " + file.size() + " bytes long, too long for a properties file");
                return;
            }
            text = new String(file.bytes(0, (int) file.size()), StandardCharsets.UTF_8);
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException malformed) {
            findings.report(INDENT, path + " is not a readable properties file: " + malformed.getMessage());
            return;
        }
        Map<String, String> sorted = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            sorted.put(key, properties.getProperty(key));
        }
        int width = 0;
        for (String key : sorted.keySet()) {
            width = Math.max(width, key.length());
        }
        for (Map.Entry<String, String> entry : sorted.entrySet()) {
            out.println(INDENT + String.format("%-" + width + "s = %s", entry.getKey(), entry.getValue()));
        }
        try {
            if (path.getFileName().toString().equals(FileManifest.FILE_NAME)) {
                FileManifest.read(path.toAbsolutePath().getParent());
            } else {
                DatabaseProperties.readFile(path);
            }
        } catch (ColumbaException refused) {
            findings.report(INDENT, refused.detail());
        }
    }
}
