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

    /**
     * The options as {@link InspectCommand} parsed them, checked against each other; {@code page},
     * {@code column} and {@code rows} are null when not given.
     */
    static InspectOptions of(Path path, boolean pages, Long page, boolean hex, String object, boolean catalog,
            boolean records, String columnstore, Integer column, Integer rows) throws UsageException {
        if (page != null && page < 0) {
            throw new UsageException("--page needs a page number (0 or more), got " + page);
        }
        if (column != null && column < 0) {
            throw new UsageException("--column needs a column number (0 or more), got " + column);
        }
        if (rows != null && rows < 0) {
            throw new UsageException("--rows needs a number of rows (0 or more), got " + rows);
        }
        if (hex && page == null) {
            throw new UsageException("--hex goes with --page N");
        }
        boolean pageList = pages || object != null && !catalog && page == null;
        return new InspectOptions(path, pageList, page == null ? -1 : page, hex, object, catalog, records, columnstore,
                column == null ? -1 : column, rows == null ? DEFAULT_ROWS : rows, rows != null);
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
