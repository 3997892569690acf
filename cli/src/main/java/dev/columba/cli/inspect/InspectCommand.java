package dev.columba.cli.inspect;

import dev.columba.cli.Main;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code columba inspect}'s command line; {@link Inspect} runs it. */
@Command(name = "inspect", mixinStandardHelpOptions = true, versionProvider = Main.Version.class, sortOptions = false,
        description = {"Dumps a Columba database or one of its files, read-only, reporting damage where it meets it "
                + "and carrying on; ends with the list of problems."},
        footer = {"", "Which options fit which file is checked once the path's kind is known: data file options "
                + "(--pages, --page, --hex, --object, --catalog) on the data file or a database directory; --records on a "
                + "log segment, the wal directory or a database directory; --columnstore on a database directory; --column "
                + "on a rowgroup file; --rows on a rowgroup file (with --column) or a dictionary file.",
            "Exit codes: 0 nothing wrong, 1 damage found (everything readable is still printed), 2 usage error."})
public final class InspectCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<path>", description = "a database directory, its data file "
            + "(data/columba.data), a write-ahead log segment (wal/<16 hex digits>.wal) or the wal directory, the control "
            + "file, columba.properties, a rowgroup file (columnstore/<table id>/<rowgroup id>.crg) or a dictionary file "
            + "(columnstore/<table id>/dict-<column>.cdict); inspect tells which from the file's contents")
    private Path path;

    @Option(names = "--pages", description = "list every page: id, type, object, level, LSN, slots, free bytes, checksum")
    private boolean pages;

    @Option(names = "--page", paramLabel = "N", description = "dump page N in detail by its type")
    private Long page;

    @Option(names = "--hex", description = "with --page: add a hex dump of the page")
    private boolean hex;

    @Option(names = "--object", paramLabel = "ID|NAME",
            description = "limit --pages and --catalog to one table or index (implies --pages alone)")
    private String object;

    @Option(names = "--catalog", description = "list the catalog's tables and indexes (on a database directory, with a "
            + "per-column summary of each columnstore table)")
    private boolean catalog;

    @Option(names = "--records", description = "list every log record, then where the log ends")
    private boolean records;

    @Option(names = "--columnstore", paramLabel = "ID|NAME", description = "on a database directory: one columnstore "
            + "table's rowgroups, files and per-column summary (encodings, dictionary sizes against the cap)")
    private String columnstore;

    @Option(names = "--column", paramLabel = "N", description = "on a rowgroup file: decode the first rows of column N's segment")
    private Integer column;

    @Option(names = "--rows", paramLabel = "K", description = "rows --column shows, or entries of a dictionary file "
            + "(default " + InspectOptions.DEFAULT_ROWS + ")")
    private Integer rows;

    private final PrintStream out;
    private final PrintStream err;

    public InspectCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        InspectOptions options;
        try {
            options = InspectOptions.of(path, pages, page, hex, object, catalog, records, columnstore, column, rows);
        } catch (UsageException usage) {
            throw new ParameterException(spec.commandLine(), usage.getMessage());
        }
        return Inspect.run(options, out, err);
    }
}
