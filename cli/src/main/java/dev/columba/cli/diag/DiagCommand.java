package dev.columba.cli.diag;

import dev.columba.cli.Main;
import dev.columba.columnstore.diag.DictionaryDiagnostics;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.stats.IoCounters;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.ObjectLocks;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code columba diag dictionary <db> [--table T] [--json] [--what-if name=value ...] [--chart]}:
 * dictionary-pressure diagnostics of a database's columnstore tables (see
 * {@link DictionaryDiagnostics}). Opens the database, reads only metadata, changes nothing.
 */
@Command(name = "diag", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, synopsisSubcommandLabel = "COMMAND",
        description = "Diagnostics of a database; they open it, read only metadata and change nothing.")
public final class DiagCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    private final PrintStream err;

    public DiagCommand(PrintStream err) {
        this.err = err;
    }

    /** {@code columba diag} without a diagnostic: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(err);
        return CommandLine.ExitCode.USAGE;
    }

    /** {@code columba diag dictionary}. */
    @Command(name = "dictionary", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
            description = {"Dictionary pressure of the database's columnstore tables: dictionary sizes against the cap, "
                    + "rowgroups cut short by it, and what that costs a cold scan.",
                "Exit codes: 0, 1 if there is nothing to diagnose or the database cannot be read, 2 bad usage."})
    public static final class Dictionary implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "<database directory>")
        private Path directory;

        @Option(names = "--table", paramLabel = "NAME", description = "one columnstore table only")
        private String tableName;

        @Option(names = "--json", description = "one JSON document instead of text")
        private boolean json;

        @Option(names = "--chart", description = "a histogram of rowgroup sizes per table")
        private boolean chart;

        @Option(names = "--what-if", paramLabel = "name=value",
                description = "simulate the layout under other settings, e.g. dictionary_cap=32MB (repeatable)")
        private Map<String, String> whatIf = new LinkedHashMap<>();

        private final PrintStream out;
        private final PrintStream err;

        public Dictionary(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() {
            Map<String, String> settings = new LinkedHashMap<>();
            whatIf.forEach((name, value) -> settings.put(name.trim().toLowerCase(Locale.ROOT), value.trim()));
            return run(directory, tableName, json, chart, settings, out, err);
        }
    }

    private static int run(Path directory, String tableName, boolean json, boolean chart, Map<String, String> whatIf,
            PrintStream out, PrintStream err) {
        if (!Files.isDirectory(directory) || !Files.exists(directory.resolve("control"))) {
            err.println("columba diag: " + directory + " is not a Columba database directory");
            return 2;
        }
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE)) {
            IoCounters counters = new IoCounters();
            List<ColumnstoreTable> tables = new ArrayList<>();
            for (CatalogEntry entry : database.catalog().entries(database.bufferPool(), counters)) {
                if (entry instanceof CatalogEntry.Table table && table.organization() == CatalogEntry.Organization.COLUMNSTORE
                        && (tableName == null || table.name().equalsIgnoreCase(tableName))) {
                    tables.add(ColumnstoreTable.open(database, table));
                }
            }
            if (tables.isEmpty()) {
                err.println("columba diag: " + (tableName == null ? "the database has no columnstore table"
                        : "no columnstore table named " + tableName));
                return 1;
            }
            List<String> jsonReports = new ArrayList<>();
            for (ColumnstoreTable table : tables) {
                try (ObjectLocks.Lease ignored = database.locks().shared(table.objectId())) {
                    DictionaryDiagnostics.Report report = DictionaryDiagnostics.analyze(table, database.bufferPool(), counters);
                    DictionaryDiagnostics.Layout simulated = whatIf.isEmpty() ? null
                            : DictionaryDiagnostics.simulate(table, database.bufferPool(), counters, whatIf);
                    if (json) {
                        jsonReports.add(Json.report(report, whatIf, simulated));
                        continue;
                    }
                    out.print(DictionaryDiagnostics.format(report));
                    if (simulated != null) {
                        out.printf(Locale.ROOT, "  what-if %s: %d rowgroups of %.0f rows, %.2f MB per read-ahead request,"
                                        + " cold scan %.2f s (now %.2f s)%n", whatIf, simulated.rowgroups(),
                                simulated.averageRows(), simulated.averageRequestBytes() / 1048576,
                                simulated.estimatedColdScanSeconds(), report.current().estimatedColdScanSeconds());
                    }
                    if (chart) {
                        out.print(histogram(table.rowgroups(database.bufferPool(), counters), table.options().rowgroupMaxRows()));
                    }
                    out.println();
                }
            }
            if (json) {
                out.println("[" + String.join(",\n", jsonReports) + "]");
            }
            return 0;
        } catch (ColumbaException e) {
            err.println("columba diag: " + e.getMessage());
            return 1;
        }
    }

    /** Rowgroups by rows, in ten buckets of the maximum: the rowgroup-size distribution at a glance. */
    static String histogram(List<RowgroupEntry> rowgroups, int maxRows) {
        int[] buckets = new int[10];
        for (RowgroupEntry entry : rowgroups) {
            int bucket = (int) Math.min(9, entry.totalRows() * 10 / Math.max(1, maxRows));
            buckets[bucket]++;
        }
        int largest = 1;
        for (int count : buckets) {
            largest = Math.max(largest, count);
        }
        StringBuilder text = new StringBuilder("  rowgroup sizes (share of rowgroup_max_rows):\n");
        for (int bucket = 0; bucket < 10; bucket++) {
            int bar = (int) Math.round(40.0 * buckets[bucket] / largest);
            text.append(String.format(Locale.ROOT, "    %3d-%3d%% %5d %s%n", bucket * 10, bucket * 10 + 10, buckets[bucket],
                    "#".repeat(bar)));
        }
        return text.toString();
    }
}
