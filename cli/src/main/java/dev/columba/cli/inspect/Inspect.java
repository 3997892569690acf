package dev.columba.cli.inspect;

import dev.columba.core.error.ColumbaException;
import dev.columba.storage.db.DatabaseLayout;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code columba inspect <path> [options]}: the dumper of every Columba file format (H2's
 * {@code MVStoreTool} plays this part for H2). It tells what the path is, reads it directly and
 * read-only, reports damage where it meets it and carries on, and ends with the list of problems.
 *
 * <p>Exit codes: {@value #OK} nothing wrong; {@value #DAMAGED} damage found (a bad checksum or
 * header, a torn log tail, an inconsistency between structures), everything readable still
 * printed; {@value #USAGE} a usage error, or a path that is no Columba file.
 */
public final class Inspect {
    private static final String INDENT = DataFileDump.INDENT;
    public static final int OK = 0;
    public static final int DAMAGED = 1;
    public static final int USAGE = 2;

    private final InspectOptions options;
    private final PrintStream out;
    private final Findings findings;

    private Inspect(InspectOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.findings = new Findings(out);
    }

    /** Inspects what {@code options} name; returns the exit code. {@link InspectCommand} parses the command line. */
    static int run(InspectOptions options, PrintStream out, PrintStream err) {
        Inspect inspect = new Inspect(options, out);
        try {
            Target.Kind kind = Target.detect(options.path());
            options.checkFits(kind);
            inspect.dump(kind);
        } catch (UsageException usage) {
            err.println("columba inspect: " + usage.getMessage());
            return USAGE;
        } catch (ColumbaException unreadable) {
            // An I/O error: what was printed stands, and the file could not be read to the end.
            inspect.findings.report("", "cannot read " + options.path() + ": " + unreadable.getMessage());
        }
        inspect.findings.printSummary();
        return inspect.findings.any() ? DAMAGED : OK;
    }

    private void dump(Target.Kind kind) throws UsageException {
        Path path = options.path();
        switch (kind) {
            case DATABASE_DIRECTORY -> database(path);
            case DATA_FILE -> dataFile(path, null);
            case LOG_SEGMENT -> new LogDump(out, findings, options.records()).dumpSegment(path);
            case LOG_DIRECTORY -> new LogDump(out, findings, options.records()).dumpDirectory(path);
            case CONTROL_FILE -> ControlFileDump.dump(path, out, findings);
            case PROPERTIES_FILE -> PropertiesDump.dump(path, out, findings);
            case ROWGROUP_FILE -> new RowgroupFileDump(path, out, findings).dump(options.column(), options.rows());
            case DICTIONARY_FILE -> DictionaryFileDump.dump(path, options.rows(), out, findings);
        }
    }

    /**
     * Dumps the data file with the views the options ask for; {@code database} is the directory it
     * belongs to, for the columnstore views, or null when the path named the data file alone.
     */
    private void dataFile(Path path, Path database) throws UsageException {
        try (DataFileDump dump = DataFileDump.open(path, out, findings)) {
            Integer object = options.object() == null ? null : dump.resolveObject(options.object());
            ColumnstoreTablesDump columnstore = database == null ? null : new ColumnstoreTablesDump(database, dump.catalog(),
                    dump.catalogFound(), dump.rowgroupDirectories(), out, findings);
            Integer columnstoreTable = options.columnstore() == null ? null
                    : resolveColumnstore(dump, columnstore, options.columnstore());
            if (!options.dataFileOptions() && columnstoreTable == null) {
                dump.printSummary();
            }
            if (options.catalog()) {
                dump.printCatalog(object);
                if (columnstore != null) {
                    for (int tableId : dump.rowgroupDirectories().keySet()) {
                        if (object == null || object == tableId) {
                            columnstore.printColumns(tableId);
                        }
                    }
                }
            }
            if (options.pages()) {
                dump.printPages(object);
            }
            if (options.page() >= 0) {
                dump.printPage(options.page(), options.hex());
            }
            if (columnstoreTable != null) {
                out.println();
                columnstore.printTable(columnstoreTable);
                columnstore.printColumns(columnstoreTable);
            }
        }
    }

    private static int resolveColumnstore(DataFileDump dump, ColumnstoreTablesDump columnstore, String idOrName)
            throws UsageException {
        int objectId = dump.resolveObject(idOrName);
        if (!columnstore.isColumnstoreTable(objectId)) {
            List<String> names = columnstore.tableNames();
            throw new UsageException("--columnstore " + idOrName + ": object " + dump.catalog().label(objectId)
                    + " is no columnstore table; " + (names.isEmpty() ? "the catalog has none"
                    : "the catalog has " + String.join(", ", names)));
        }
        return objectId;
    }

    private void database(Path directory) throws UsageException {
        Path dataFile = DatabaseLayout.dataFile(directory);
        Path logDirectory = DatabaseLayout.logDirectory(directory);
        if (options.anyView()) {
            boolean dataFileViews = options.dataFileOptions() || options.columnstore() != null;
            if (dataFileViews) {
                if (present(dataFile, "the data file")) {
                    dataFile(dataFile, directory);
                }
            }
            if (options.records()) {
                if (dataFileViews) {
                    out.println();
                }
                new LogDump(out, findings, true).dumpDirectory(logDirectory);
            }
            return;
        }
        out.println("database " + directory);
        out.println();
        Path properties = DatabaseLayout.propertiesFile(directory);
        if (present(properties, DatabaseLayout.PROPERTIES_FILE)) {
            PropertiesDump.dump(properties, out, findings);
            out.println();
        }
        Path manifest = DatabaseLayout.fileManifest(directory);
        if (Files.exists(manifest)) {
            PropertiesDump.dump(manifest, out, findings);
            out.println();
        }
        Path control = DatabaseLayout.controlFile(directory);
        ControlFileDump.Fields controlFields = null;
        if (present(control, "the control file")) {
            controlFields = ControlFileDump.dump(control, out, findings);
            out.println();
        }
        DataFileReader.FileHeader dataHeader = null;
        ColumnstoreTablesDump columnstore = new ColumnstoreTablesDump(directory, CatalogView.unreadable(), false,
                Map.of(), out, findings);
        if (present(dataFile, "the data file")) {
            try (DataFileDump dump = DataFileDump.open(dataFile, out, findings)) {
                dump.printSummary();
                dataHeader = dump.header();
                columnstore = new ColumnstoreTablesDump(directory, dump.catalog(), dump.catalogFound(),
                        dump.rowgroupDirectories(), out, findings);
            }
            out.println();
        }
        columnstore.printSummary();
        out.println();
        LogDump.Summary log = new LogDump(out, findings, false).dumpDirectory(logDirectory);
        crossCheck(controlFields, dataHeader, log);
    }

    /** Whether a file the database must have is there; reports it missing otherwise. */
    private boolean present(Path file, String what) {
        if (Files.exists(file)) {
            return true;
        }
        findings.report("", what + " " + file + " is missing");
        return false;
    }

    /** The control file must name the data file's database and point into the log that exists. */
    private void crossCheck(ControlFileDump.Fields control, DataFileReader.FileHeader dataHeader, LogDump.Summary log) {
        if (control == null) {
            return;
        }
        out.println();
        out.println("across files");
        if (dataHeader != null) {
            if (control.databaseId().equals(dataHeader.databaseId())) {
                out.println(INDENT + "database id     the control file and the data file agree");
            } else {
                findings.report(INDENT, "the control file belongs to database " + control.databaseId()
                        + ", the data file to " + dataHeader.databaseId());
            }
        }
        if (log.end() == null) {
            return;
        }
        long start = log.startLsn();
        long end = log.end().lsn();
        if (control.redoLsn() >= start && control.redoLsn() <= end) {
            out.println(INDENT + "redo LSN        " + control.redoLsn() + " lies in the log (" + start + " to " + end + ")");
        } else {
            findings.report(INDENT, "the control file's redo LSN " + control.redoLsn() + " lies outside the log, which runs "
                    + "from " + start + " to " + end + ": recovery cannot start there");
        }
        if (control.checkpointLsn() >= start && control.checkpointLsn() < end) {
            out.println(INDENT + "checkpoint LSN  " + control.checkpointLsn() + " lies in the log");
        } else {
            findings.report(INDENT, "the control file's checkpoint LSN " + control.checkpointLsn() + " lies outside the "
                    + "log, which runs from " + start + " to " + end);
        }
    }
}
