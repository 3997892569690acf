package dev.columba.bench;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The JVM options every Columba process needs, from the one place they are written: the root
 * pom's {@code columba.jvmArgs}, filtered into the resource {@code dev/columba/bench/jvm.options}
 * at build time. The launcher starts the runner with them; the runner hands them to JMH's forks.
 */
final class JvmOptions {
    static final String RESOURCE = "/dev/columba/bench/jvm.options";

    private JvmOptions() {
    }

    /**
     * The options, split at white space.
     *
     * @throws ColumbaException INTERNAL if the resource is missing or was not filtered by the build
     */
    static List<String> read() {
        String text;
        try (InputStream in = JvmOptions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new ColumbaException(ErrorCode.INTERNAL, "resource " + RESOURCE + " is missing: build the bench module");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read resource " + RESOURCE + ": " + e.getMessage(), e);
        }
        if (text.contains("${")) {
            throw new ColumbaException(ErrorCode.INTERNAL, "resource " + RESOURCE + " was not filtered by the build: '"
                    + text + "'");
        }
        return text.isEmpty() ? List.of() : Arrays.asList(text.split("\\s+"));
    }
}
