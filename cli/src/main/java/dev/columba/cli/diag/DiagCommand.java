package dev.columba.cli.diag;

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

/**
 * {@code columba diag dictionary <db> [--table T] [--json] [--what-if name=value ...] [--chart]}:
 * dictionary-pressure diagnostics of a database's columnstore tables (see
 * {@link DictionaryDiagnostics}). Opens the database, reads only metadata, changes nothing.
 */
public final class DiagCommand {
    private DiagCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || !args[0].equals("dictionary")) {
            err.println("usage: columba diag dictionary <database directory> [--table NAME] [--json]"
                    + " [--what-if name=value ...] [--chart]");
            return 2;
        }
        Path directory = Path.of(args[1]);
        String tableName = null;
        boolean json = false;
        boolean chart = false;
        Map<String, String> whatIf = new LinkedHashMap<>();
        for (int index = 2; index < args.length; index++) {
            switch (args[index]) {
                case "--table" -> tableName = args[++index];
                case "--json" -> json = true;
                case "--chart" -> chart = true;
                case "--what-if" -> {
                    String[] setting = args[++index].split("=", 2);
                    if (setting.length != 2) {
                        err.println("columba diag: --what-if takes name=value, e.g. dictionary_cap=32MB");
                        return 2;
                    }
                    whatIf.put(setting[0].trim().toLowerCase(Locale.ROOT), setting[1].trim());
                }
                default -> {
                    err.println("columba diag: unknown option '" + args[index] + "'");
                    return 2;
                }
            }
        }
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
