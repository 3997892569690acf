package dev.columba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.bench.harness.ReportCharts;
import dev.columba.core.error.ColumbaException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writing a report again keeps what only the run knew; what is not a bench report is refused by name. */
class MarkdownReportTest {
    private static final Path FILE = Path.of("results", "run", "report.md");

    @TempDir
    Path directory;

    @Test
    void theTitleAndRunSectionAreKeptAndTheRestWrittenFromTheResults() {
        String report = """
                # Columba bench: seed004, 20261122-030331

                Whatever the suite said then.

                ## Run

                - A machine that is gone.

                ## Key figures

                Old figures.

                ## All results
                Old tables.
                """;
        String rewritten = MarkdownReport.rewrite(FILE, report, List.of(), new ReportCharts(directory));
        String kept = report.substring(0, report.indexOf("## Key figures"));
        assertEquals(kept, rewritten.substring(0, kept.length()));
        assertEquals("## Key figures\n\n### Seed 004: the article's figures beside Columba's\n",
                rewritten.substring(kept.length(), rewritten.indexOf("\n\n|") + 1));
        assertEquals(Suite.SEED004, MarkdownReport.suite(FILE, report));
    }

    @Test
    void aFileThatIsNotABenchReportIsRefused() {
        assertRefused("# Notes\n\n## Key figures\n", "[INVALID_ARGUMENT] " + FILE + " starts with '# Notes', not "
                + "'# Columba bench: <suite>, <yyyyMMdd-HHmmss>': not a Columba bench report");
        assertRefused("# Columba bench: seed004, 20261122-030331\n\n## Run\n", "[INVALID_ARGUMENT] " + FILE
                + " has no '## Key figures' section: not a Columba bench report");
        assertRefused("# Columba bench: seed999, 20261122-030331\n\n## Key figures\n",
                "[INVALID_ARGUMENT] unknown suite 'seed999'; suites: rowstore-scan, seed001, seed004, seed002, seed000, seed003, peers, oltp, tpch, load");
    }

    private void assertRefused(String report, String message) {
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> MarkdownReport.rewrite(FILE, report, List.of(), new ReportCharts(directory)));
        assertEquals(message, error.getMessage());
    }
}
