package dev.columba.cli.inspect;

import java.nio.file.Path;
import java.util.List;

/**
 * The parsed command line of {@code columba inspect <path> [options]}. Which options fit which
 * kind of file is checked once the path's kind is known ({@link #checkFits}).
 *
 * @param page   the page {@code --page} asks for, or -1
 * @param object the {@code --object} id or name, or null for every object
 */
record InspectOptions(Path path, boolean pages, long page, boolean hex, String object, boolean catalog,
                      boolean records) {

    static final String USAGE = """
            usage: columba inspect <path> [options]
              <path> is a database directory, its data file (data/columba.data), a write-ahead log
              segment (wal/<16 hex digits>.wal) or the wal directory, the control file, or
              columba.properties; inspect tells which from the file's contents.
            data file options (also on a database directory):
              --pages            list every page: id, type, object, level, LSN, slots, free bytes, checksum
              --page N           dump page N in detail by its type
              --hex              with --page: add a hex dump of the page
              --object ID|NAME   limit --pages and --catalog to one table or index (implies --pages alone)
              --catalog          list the catalog's tables and indexes
            log options (on a segment, the wal directory or a database directory):
              --records          list every record, then where the log ends
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
        for (int index = 0; index < args.size(); index++) {
            String arg = args.get(index);
            switch (arg) {
                case "--pages" -> pages = true;
                case "--hex" -> hex = true;
                case "--catalog" -> catalog = true;
                case "--records" -> records = true;
                case "--page" -> page = pageNumber(valueOf(args, ++index, arg));
                case "--object" -> object = valueOf(args, ++index, arg);
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
        return new InspectOptions(path, pages, page, hex, object, catalog, records);
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

    boolean dataFileOptions() {
        return pages || page >= 0 || catalog;
    }

    /** Any option asking for a particular view rather than the summary. */
    boolean anyView() {
        return dataFileOptions() || records;
    }

    /** Refuses the options that make no sense for the kind of file found at the path. */
    void checkFits(Target.Kind kind) throws UsageException {
        switch (kind) {
            case DATABASE_DIRECTORY -> {
            }
            case DATA_FILE -> {
                if (records) {
                    throw new UsageException("--records is for the write-ahead log; " + path + " is a data file");
                }
            }
            case LOG_SEGMENT, LOG_DIRECTORY -> {
                if (dataFileOptions()) {
                    throw new UsageException(firstDataFileOption() + " is for the data file; " + path
                            + " is " + kind.description());
                }
            }
            case CONTROL_FILE, PROPERTIES_FILE -> {
                if (anyView()) {
                    throw new UsageException((records ? "--records" : firstDataFileOption()) + " does not apply to "
                            + kind.description() + " (" + path + "); it has no options");
                }
            }
        }
    }

    private String firstDataFileOption() {
        if (page >= 0) {
            return "--page";
        }
        return pages ? (object != null ? "--object" : "--pages") : "--catalog";
    }
}
