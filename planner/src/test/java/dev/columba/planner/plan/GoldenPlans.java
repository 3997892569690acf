package dev.columba.planner.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** EXPLAIN text against golden files in src/test/resources/dev/columba/planner/plan/plans. */
public final class GoldenPlans {
    private GoldenPlans() {
    }

    /**
     * Asserts the plan equals the golden file {@code name}. A missing file fails the test and
     * leaves the actual plan under target/golden-actual for review before it is added.
     */
    public static void assertPlan(String name, String actualPlan, String sql) {
        String actual = actualPlan.strip();
        try (InputStream in = GoldenPlans.class.getResourceAsStream("plans/" + name + ".txt")) {
            if (in == null) {
                Path written = Path.of("target", "golden-actual", name + ".txt");
                Files.createDirectories(written.getParent());
                Files.writeString(written, actual + "\n");
                throw new AssertionError("no golden file plans/" + name + ".txt; the actual plan is in " + written.toAbsolutePath());
            }
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip(), actual, "plan of " + sql);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
