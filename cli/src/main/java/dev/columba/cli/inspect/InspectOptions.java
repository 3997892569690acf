package dev.columba.cli.inspect;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed command line of {@code columba inspect <path> [options]}. Which options fit which
 * kind of file is checked once the path's kind is known ({@link #checkFits}).
 *
 * @param page        the page {@code --page} asks for, or -1
 * @param object      the {@code --object} id or name, or null for every object
 * @param columnstore the {@code --columnstore} table's id or name, or null
 * @param column      the rowgroup file column {@code --column} decodes, or -1
 * @param rows        how many rows or dictionary entries to show ({@code --rows})
 * @param rowsGiven   whether {@code --rows} was given, rather than defaulted
 */
record InspectOptions(Path path, boolean pages, long page, boolean hex, String object, boolean catalog,
                      boolean records, String columnstore, int column, int rows, boolean rowsGiven) {

    /** Rows of a segment or entries of a dictionary shown without {@code --rows}. */
    static final int DEFAULT_ROWS = 20;

    static final String USAGE = """
            usage: columba inspect <path> [options]
              <path> is a database directory, its data file (data/columba.data), a write-ahead log
              segment (wal/<16 hex digits>.wal) or the wal directory, the control file,
              columba.properties, a rowgroup file (columnstore/<table id>/<rowgroup id>.crg) or a
              dictionary file (columnstore/<table id>/dict-<column>.cdict); inspect tells which from
              the file's contents.
            data file options (also on a database directory):
              --pages            list every page: id, type, object, level, LSN, slots, free bytes, checksum
              --page N           dump page N in detail by its type
              --hex              with --page: add a hex dump of the page
              --object ID|NAME   limit --pages and --catalog to one table or index (implies --pages alone)
              --catalog          list the catalog's tables and indexes (on a database directory, with
                                 a per-column summary of each columnstore table)
            log options (on a segment, the wal directory or a database directory):
              --records          list every record, then where the log ends
            columnstore options:
              --columnstore ID|NAME  on a database directory: one columnstore table's rowgroups, files
                                 and per-column summary (encodings, dictionary sizes against the cap)
              --column N         on a rowgroup file: decode the first rows of column N's segment
              --rows K           rows --column shows, or entries of a dictionary file (default 20)
            exit codes: 0 nothing wrong, 1 damage found (everything readable is still printed),
              2 usage error""";

    /** Parses the arguments after {@code inspect}. */
    static InspectOptions parse(List<String> args) throws UsageException {
        Path path = null;
        boolean pages = false;
        long page = -1;
        boolean hex = false;
        String object = null;
        boolean catalog = false;
        boolean records = false;
        String columnstore = null;
        int column = -1;
        int rows = DEFAULT_ROWS;
        boolean rowsGiven = false;
        for (int index = 0; index < args.size(); index++) {
            String arg = args.get(index);
            switch (arg) {
                case "--pages" -> pages = true;
                case "--hex" -> hex = true;
                case "--catalog" -> catalog = true;
                case "--records" -> records = true;
                case "--page" -> page = pageNumber(valueOf(args, ++index, arg));
                case "--object" -> object = valueOf(args, ++index, arg);
                case "--columnstore" -> columnstore = valueOf(args, ++index, arg);
                case "--column" -> column = count(valueOf(args, ++index, arg), arg, "a column number");
                case "--rows" -> {
                    rows = count(valueOf(args, ++index, arg), arg, "a number of rows");
                    rowsGiven = true;
                }
                default -> {
                    if (arg.startsWith("-")) {
                        throw new UsageException("unknown option " + arg);
                    }
                    if (path != null) {
                        throw new UsageException("one path at a time: got " + path + " and " + arg);
                    }
                    path = Path.of(arg);
                }
            }
        }
        if (path == null) {
            throw new UsageException("no path given");
        }
        if (hex && page < 0) {
            throw new UsageException("--hex goes with --page N");
        }
        if (object != null && !catalog && page < 0) {
            pages = true;
        }
        return new InspectOptions(path, pages, page, hex, object, catalog, records, columnstore, column, rows, rowsGiven);
    }

    private static String valueOf(List<String> args, int index, String option) throws UsageException {
        if (index >= args.size() || args.get(index).startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args.get(index);
    }

    private static long pageNumber(String text) throws UsageException {
        try {
            long page = Long.parseLong(text);
            if (page >= 0) {
                return page;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below with the text that was given.
        }
        throw new UsageException("--page needs a page number (0 or more), got '" + text + "'");
    }

    private static int count(String text, String option, String what) throws UsageException {
        try {
            int value = Integer.parseInt(text);
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException notANumber) {
            // Reported below with the text that was given.
        }
        throw new UsageException(option + " needs " + what + " (0 or more), got '" + text + "'");
    }

    boolean dataFileOptions() {
        return pages || page >= 0 || catalog;
    }

    /** Any option asking for a particular view rather than the summary. */
    boolean anyView() {
        return dataFileOptions() || records || columnstore != null;
    }

    /** The kinds of path an option is for. */
    private enum Scope {
        DATA_FILE("the data file"),
        LOG("the write-ahead log"),
        DATABASE("a database directory"),
        ROWGROUP_FILE("a rowgroup file"),
        ROWS("a rowgroup file (with --column) or a dictionary file");

        private final String home;

        Scope(String home) {
            this.home = home;
        }

        boolean fits(Target.Kind kind) {
            return switch (kind) {
                case DATABASE_DIRECTORY -> this == DATA_FILE || this == LOG || this == DATABASE;
                case DATA_FILE -> this == DATA_FILE;
                case LOG_SEGMENT, LOG_DIRECTORY -> this == LOG;
                case ROWGROUP_FILE -> this == ROWGROUP_FILE || this == ROWS;
                case DICTIONARY_FILE -> this == ROWS;
                case CONTROL_FILE, PROPERTIES_FILE -> false;
            };
        }
    }

    /** An option given on the command line, by the name the user typed. */
    private record Given(String name, Scope scope) {
    }

    /** Refuses the options that make no sense for the kind of file found at the path. */
    void checkFits(Target.Kind kind) throws UsageException {
        for (Given option : given()) {
            if (!option.scope().fits(kind)) {
                boolean none = kind == Target.Kind.CONTROL_FILE || kind == Target.Kind.PROPERTIES_FILE;
                throw new UsageException(none ? option.name() + " does not apply to " + kind.description() + " (" + path
                        + "); it has no options" : option.name() + " is for " + option.scope().home + "; " + path + " is "
                        + kind.description());
            }
        }
        if (kind == Target.Kind.ROWGROUP_FILE && rowsGiven && column < 0) {
            throw new UsageException("--rows goes with --column N on a rowgroup file");
        }
    }

    /** The options given; the data-file options are named by the first of them. */
    private List<Given> given() {
        List<Given> given = new ArrayList<>();
        if (dataFileOptions()) {
            given.add(new Given(firstDataFileOption(), Scope.DATA_FILE));
        }
        if (records) {
            given.add(new Given("--records", Scope.LOG));
        }
        if (columnstore != null) {
            given.add(new Given("--columnstore", Scope.DATABASE));
        }
        if (column >= 0) {
            given.add(new Given("--column", Scope.ROWGROUP_FILE));
        }
        if (rowsGiven) {
            given.add(new Given("--rows", Scope.ROWS));
        }
        return given;
    }

    private String firstDataFileOption() {
        if (page >= 0) {
            return "--page";
        }
        return pages ? (object != null ? "--object" : "--pages") : "--catalog";
    }
}
