package dev.columba.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

/**
 * Reading JMH's JSON back. That a whole run's report comes out the same from it is shown by the
 * suite tests ({@code SuiteRuns.assertReportRewritesTheSame}); this checks the pieces on a small
 * hand-written file: two forks, a figure recorded in some iterations only, and broken files.
 */
class JmhResultFileTest {
    private static final Metric READ_IOS = new Metric("readIos", "I/Os");
    private static final Metric BYTES_PER_IO = new Metric("bytesPerIo", "bytes");

    @TempDir
    Path directory;

    @Test
    void rebuildsParametersScoresAndSecondaryResultsFromTheRawData() throws Exception {
        Path file = write("""
                [ {
                  "jmhVersion" : "1.37", "benchmark" : "dev.columba.bench.Example.scan", "mode" : "ss",
                  "threads" : 1, "forks" : 2, "jvm" : "/java", "jvmArgs" : [ "-Djava.awt.headless=true" ],
                  "jdkVersion" : "25", "vmName" : "VM", "vmVersion" : "25",
                  "warmupIterations" : 1, "warmupTime" : "single-shot", "warmupBatchSize" : 1,
                  "measurementIterations" : 3, "measurementTime" : "single-shot", "measurementBatchSize" : 1,
                  "params" : { "cache" : "COLD", "readAhead" : "true" },
                  "primaryMetric" : { "score" : 2.0, "scoreUnit" : "s/op",
                    "rawData" : [ [ 1.5, 2.0, 2.5 ], [ 1.0, 3.0, 2.0 ] ] },
                  "secondaryMetrics" : {
                    "readIos" : { "score" : 10.0, "scoreUnit" : "I/Os", "rawData" : [ [ 10, 10, 10 ], [ 10, 10, 10 ] ] },
                    "bytesPerIo" : { "score" : 8192.0, "scoreUnit" : "bytes", "rawData" : [ [ 8192.0 ], [ ] ] }
                  }
                } ]
                """);
        List<RunResult> results = JmhResultFile.read(file);

        assertEquals(1, results.size());
        RunResult result = results.getFirst();
        assertEquals("dev.columba.bench.Example.scan", result.getParams().getBenchmark());
        assertEquals("COLD", result.getParams().getParam("cache"));
        assertEquals("true", result.getParams().getParam("readAhead"));
        assertEquals("s/op", result.getPrimaryResult().getScoreUnit());
        Statistics scores = result.getPrimaryResult().getStatistics();
        assertEquals(6, scores.getN(), "three iterations in each of two forks");
        assertEquals(2.0, scores.getMean(), 1e-12);
        assertEquals(2.0, RunResults.medianScore(result), 1e-12);
        assertEquals(1.0, scores.getMin(), 1e-12);
        assertEquals(3.0, scores.getMax(), 1e-12);
        assertEquals(10.0, RunResults.median(result, READ_IOS).getAsDouble());
        assertEquals("I/Os", result.getSecondaryResults().get("readIos").getScoreUnit());
        assertEquals(6, RunResults.statistics(result, READ_IOS).orElseThrow().getN());
        // Recorded in one iteration only: JMH counts the others as zero, as it did for the run itself.
        Statistics bytesPerIo = RunResults.statistics(result, BYTES_PER_IO).orElseThrow();
        assertEquals(6, bytesPerIo.getN());
        assertEquals(8192.0, bytesPerIo.getMax());
        assertEquals(8192.0, bytesPerIo.getSum());
    }

    @Test
    void aFileThatIsNotJmhsJsonOfSingleShotsIsRejectedByName() throws Exception {
        Path notJson = write("{ nope");
        ColumbaException error = assertThrows(ColumbaException.class, () -> JmhResultFile.read(notJson));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertTrue(error.getMessage().startsWith("[INVALID_ARGUMENT] " + notJson + " is not JSON: "), error.getMessage());

        assertRejected("{}", " is not a JSON array of JMH results");
        assertRejected("[ { \"mode\" : \"ss\" } ]", " has no benchmark for a result");
        assertRejected("[ { \"benchmark\" : \"b.C.m\", \"mode\" : \"avgt\" } ]",
                " has b.C.m in mode 'avgt'; only SingleShotTime ('ss') results can be read");
        assertRejected("[ { \"benchmark\" : \"b.C.m\", \"mode\" : \"ss\", \"primaryMetric\" : { \"scoreUnit\" : \"ops/s\" } } ]",
                " has the score unit 'ops/s' for b.C.m, not a time per operation");
        assertRejected("""
                [ { "benchmark" : "b.C.m", "mode" : "ss", "threads" : 1, "forks" : 1, "warmupIterations" : 0,
                    "warmupBatchSize" : 1, "measurementIterations" : 1, "measurementBatchSize" : 1,
                    "primaryMetric" : { "scoreUnit" : "s/op" } } ]
                """, " has no rawData for b.C.m score");
        assertRejected("""
                [ { "benchmark" : "b.C.m", "mode" : "ss", "threads" : 1, "forks" : 1, "warmupIterations" : 0,
                    "warmupBatchSize" : 1, "measurementIterations" : 1, "measurementBatchSize" : 1,
                    "primaryMetric" : { "scoreUnit" : "s/op", "rawData" : [ [ 1.0 ] ] },
                    "secondaryMetrics" : { "readIos" : { "scoreUnit" : "I/Os", "rawData" : [ [ 1, 2 ] ] } } } ]
                """, " has 2 values of b.C.m readIos in fork 1 but 1 iterations");
    }

    @Test
    void aMissingFileIsAnIoError() {
        Path missing = directory.resolve("missing.json");
        ColumbaException error = assertThrows(ColumbaException.class, () -> JmhResultFile.read(missing));
        assertEquals(ErrorCode.IO_ERROR, error.errorCode());
        assertTrue(error.getMessage().contains(missing.toString()), error.getMessage());
    }

    private void assertRejected(String json, String problem) throws Exception {
        Path file = write(json);
        ColumbaException error = assertThrows(ColumbaException.class, () -> JmhResultFile.read(file));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals("[INVALID_ARGUMENT] " + file + problem, error.getMessage());
    }

    private Path write(String json) throws Exception {
        Path file = Files.createTempFile(directory, "jmh-result", ".json");
        Files.writeString(file, json);
        return file;
    }
}
