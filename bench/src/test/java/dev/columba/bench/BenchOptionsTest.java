package dev.columba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    @Test
    void fullAndShortModesHaveTheirDefaults() {
        BenchOptions full = BenchOptions.parse("rowstore-scan");
        assertEquals(Suite.ROWSTORE_SCAN, full.suite());
        assertFalse(full.shortMode());
        assertEquals(1024, full.sizeMb());
        assertEquals(1, full.forks());
        assertEquals(1, full.warmupIterations());
        assertEquals(5, full.measurementIterations());
        assertTrue(full.dataDirectory().endsWith(Path.of("bench", "target", "data")), full.dataDirectory().toString());
        assertTrue(full.resultsDirectory().endsWith(Path.of("bench", "results")), full.resultsDirectory().toString());

        BenchOptions quick = BenchOptions.parse("--short", "rowstore-scan");
        assertTrue(quick.shortMode());
        assertEquals(64, quick.sizeMb());
        assertEquals(2, quick.measurementIterations());
    }

    @Test
    void explicitOptionsWin() {
        BenchOptions options = BenchOptions.parse("rowstore-scan", "--short", "--size-mb", "8", "--data-dir", "/d",
                "--results-dir", "/r", "--forks", "0", "--warmup", "0", "--iterations", "5",
                "-p", "readAheadDepthPages=100,500", "-p", "cache=COLD");
        assertEquals(8, options.sizeMb());
        assertEquals(Path.of("/d"), options.dataDirectory());
        assertEquals(Path.of("/r"), options.resultsDirectory());
        assertEquals(0, options.forks());
        assertEquals(0, options.warmupIterations());
        assertEquals(5, options.measurementIterations());
        assertEquals(Map.of("readAheadDepthPages", List.of("100", "500"), "cache", List.of("COLD")), options.parameters());
    }

    @Test
    void peersRunScaleFactor1ThreeTimesWithoutWarmUpByDefault() {
        BenchOptions full = BenchOptions.parse("peers");
        assertEquals(List.of("1"), Suite.PEERS.parameters(full).get("scaleFactor"));
        assertEquals("TPC-H lineitem at scale factor 1", Suite.PEERS.size(full));
        assertEquals(0, full.warmupIterations());
        assertEquals(3, full.measurementIterations());
        BenchOptions quick = BenchOptions.parse("peers", "--short");
        assertEquals(List.of("0.01"), Suite.PEERS.parameters(quick).get("scaleFactor"));
        assertEquals(2, quick.measurementIterations());
        assertEquals(List.of("10"), Suite.PEERS.parameters(BenchOptions.parse("peers", "-p", "scaleFactor=10"))
                .get("scaleFactor"));
        assertEquals(1, BenchOptions.parse("seed004").warmupIterations());
        assertEquals(5, BenchOptions.parse("seed004").measurementIterations());
    }

    @Test
    void oltpRuns300000RowsForTwoSecondsPerIterationOrAShortRun() {
        BenchOptions full = BenchOptions.parse("oltp");
        assertEquals(List.of("300000"), Suite.OLTP.parameters(full).get("rows"));
        assertEquals(List.of("2000"), Suite.OLTP.parameters(full).get("millis"));
        assertEquals("t of 300000 rows, 2000 ms per client and iteration", Suite.OLTP.size(full));
        assertEquals(1, full.warmupIterations());
        assertEquals(3, full.measurementIterations());
        BenchOptions quick = BenchOptions.parse("oltp", "--short");
        assertEquals(List.of("2000"), Suite.OLTP.parameters(quick).get("rows"));
        assertEquals(List.of("100"), Suite.OLTP.parameters(quick).get("millis"));
        assertEquals(List.of("1000"), Suite.OLTP.parameters(BenchOptions.parse("oltp", "-p", "millis=1000")).get("millis"));
    }

    @Test
    void seed004sPoolIsAQuarterOfTheTableUpTo256MbUnlessSet() {
        assertEquals(List.of("256"), Suite.SEED004.parameters(BenchOptions.parse("seed004")).get("bufferPoolMb"));
        assertEquals("1024 MB table, 256 MB buffer pool", Suite.SEED004.size(BenchOptions.parse("seed004")));
        assertEquals(List.of("16"), Suite.SEED004.parameters(BenchOptions.parse("seed004", "--short")).get("bufferPoolMb"));
        assertEquals(List.of("256"), Suite.SEED004.parameters(BenchOptions.parse("seed004", "--size-mb", "8192"))
                .get("bufferPoolMb"));
        assertEquals(List.of("1"), Suite.SEED004.parameters(BenchOptions.parse("seed004", "--size-mb", "2"))
                .get("bufferPoolMb"));
        assertEquals(List.of("64", "128"), Suite.SEED004.parameters(BenchOptions.parse("seed004", "--size-mb", "2048",
                "-p", "bufferPoolMb=64,128")).get("bufferPoolMb"));
    }

    @Test
    void reportNeedsOneDirectoryThatHoldsARun() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, BenchMain.run(new String[] {"report"}, print(out), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
                "columba bench: report needs one argument, a run's results directory"), err.toString(StandardCharsets.UTF_8));
        err.reset();
        Path nowhere = Path.of("/nonexistent-bench-run");
        assertEquals(1, BenchMain.run(new String[] {"report", nowhere.toString()}, print(out), print(err)));
        assertEquals("columba bench: cannot write the report again: [INVALID_ARGUMENT] " + nowhere
                + " is not a run's directory: it needs report.md and jmh-result.json\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badArgumentsAreRejectedByName() {
        assertInvalid("no suite given");
        assertInvalid("unknown suite 'nope'; suites: rowstore-scan, seed001, seed004, seed002, seed000, seed003, peers, oltp, tpch, load", "nope");
        assertInvalid("unknown option '--fast'", "rowstore-scan", "--fast");
        assertInvalid("option --size-mb needs a value", "rowstore-scan", "--size-mb");
        assertInvalid("option --size-mb needs a whole number, got 'big'", "rowstore-scan", "--size-mb", "big");
        assertInvalid("option --size-mb must be between 1 and 65536, got 0", "rowstore-scan", "--size-mb", "0");
        assertInvalid("-p needs NAME=V1,V2..., got 'cache'", "rowstore-scan", "-p", "cache");
        assertInvalid("parameter sizeMb is set by the runner; use --size-mb or --data-dir", "rowstore-scan", "-p",
                "sizeMb=8");
        assertInvalid("one suite per run: 'rowstore-scan' and 'rowstore-scan'", "rowstore-scan", "rowstore-scan");
    }

    @Test
    void mainPrintsUsageForNoArgumentsAndBadOnes() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, BenchMain.run(new String[0], print(out), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("rowstore-scan"), err.toString(StandardCharsets.UTF_8));
        assertEquals(0, BenchMain.run(new String[] {"--help"}, print(out), print(err)));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: columba bench <suite>"));
        out.reset();
        assertEquals(0, BenchMain.run(new String[] {"--version"}, print(out), print(err)));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("columba bench " + dev.columba.jdbc.ColumbaDriver.version()
                + " (Java "), out.toString(StandardCharsets.UTF_8));
        err.reset();
        assertEquals(2, BenchMain.run(new String[] {"rowstore-scan", "--forks", "x"}, print(out), print(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(
                "columba bench: [INVALID_ARGUMENT] option --forks needs a whole number, got 'x'"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void jvmOptionsComeFilteredFromThePom() {
        List<String> options = JvmOptions.read();
        assertTrue(options.contains("--enable-native-access=ALL-UNNAMED"), options.toString());
        assertTrue(options.contains("-Djava.awt.headless=true"), "reports draw charts without a display: " + options);
        assertTrue(options.stream().noneMatch(option -> option.contains("${")), options.toString());
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static void assertInvalid(String message, String... arguments) {
        ColumbaException error = assertThrows(ColumbaException.class, () -> BenchOptions.parse(arguments));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals("[INVALID_ARGUMENT] " + message, error.getMessage());
    }
}
