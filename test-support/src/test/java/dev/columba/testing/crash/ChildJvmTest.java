package dev.columba.testing.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real child JVM, killed by line and by time; the acknowledgement file read back after the kill. */
class ChildJvmTest {
    @TempDir
    Path directory;

    @Test
    void aChildIsKilledOnTheLineAndItsAcknowledgementsSurvive() {
        Path acknowledgements = directory.resolve("ack");
        ChildRun run = ChildJvm.of(CountingChild.class, acknowledgements).killWhen(ChildJvm.nth("n ", 3));
        run.requireKilled().requireOnly(line -> line.startsWith("n "));
        assertTrue(run.exitCode() != 0, "a killed JVM does not exit 0: " + run.exitCode());
        long printed = run.lastNumber("n ", 0);
        assertTrue(printed >= 3, run.lines().toString());
        List<String> durable = AckFile.read(acknowledgements);
        // The child writes each unit to the file before it prints it: at least every printed unit is there.
        assertTrue(durable.size() >= printed, durable + " against " + run.lines());
        for (int unit = 1; unit <= durable.size(); unit++) {
            assertEquals("n " + unit, durable.get(unit - 1));
        }
        assertTrue(durable.size() < 10_000, "killed soon after the third unit, not at the end: " + durable.size());
    }

    @Test
    void aChildIsKilledAfterADelayWhereverItIs() {
        Path acknowledgements = directory.resolve("ack");
        ChildRun run = ChildJvm.of(CountingChild.class, acknowledgements).killAfter(Duration.ofMillis(1500));
        run.requireKilled();
        // Wherever the kill found it — still starting (a loaded machine can take longer than 1.5 s to
        // start a JVM: CI saw no line at load 50), or counting — what it printed was durable first.
        long printed = run.lastNumber("n ", 0);
        List<String> durable = AckFile.read(acknowledgements);
        assertTrue(durable.size() >= printed, durable.size() + " units durable, " + printed + " printed");
    }

    @Test
    void aChildIsKilledADelayAfterTheLineThatStartsTheClock() {
        ChildRun run = ChildJvm.of(CountingChild.class, directory.resolve("ack"))
                .killAfter(line -> line.equals("n 5"), Duration.ofMillis(300));
        run.requireKilled();
        assertTrue(run.lastNumber("n ", 0) >= 5, "it was killed after it printed n 5: " + run.lines());
    }

    @Test
    void aChildThatEndsBeforeItsLineIsNotKilled() {
        ChildRun run = ChildJvm.of(CountingChild.class, directory.resolve("ack"), 5).killWhen(line -> line.equals("never"));
        assertFalse(run.killed());
        assertEquals(0, run.exitCode());
        assertEquals(List.of("n 1", "n 2", "n 3", "n 4", "n 5"), run.lines());
        assertThrows(AssertionError.class, run::requireKilled);
        assertThrows(AssertionError.class, () -> run.requireOnly(line -> line.equals("n 1")));
    }

    @Test
    void aLineCutByTheKillIsNotAnAcknowledgement() throws Exception {
        Path acknowledgements = directory.resolve("ack");
        Files.writeString(acknowledgements, "C 1\nC 2\nC 3");
        assertEquals(List.of("C 1", "C 2"), AckFile.read(acknowledgements));
        assertEquals(List.of(), AckFile.read(directory.resolve("missing")));
    }
}
