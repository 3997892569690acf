package dev.columba.bench.peers;

import java.nio.file.Path;
import java.util.Properties;

/**
 * An engine the peers suite measures, with the JDBC URL and properties its benchmark connections
 * use. Every engine gets about the same memory for its own cache ({@value #CACHE}): Columba's
 * buffer pool (2 GiB), DuckDB's {@code memory_limit} (its "2GB" is 2 x 10^9 bytes), H2's
 * {@code CACHE_SIZE} (2 GiB). DuckDB runs one thread, as Columba and H2
 * run a query on one; the peers' databases are opened read-only, so that nothing a query does writes.
 */
public enum Peer {
    COLUMBA_COLUMNSTORE("Columba CS", "columba-columnstore"),
    COLUMBA_ROWSTORE("Columba RS", "columba-rowstore"),
    DUCKDB("DuckDB", "duckdb"),
    H2("H2", "h2");

    /** Each engine's cache: enough for lineitem at scale factor 1 in every engine's layout. */
    static final String CACHE = "2 GB";
    /** The peers suite's database name: the file (DuckDB) or file name prefix (H2, which adds {@code .mv.db}). */
    static final String DATABASE_FILE = "lineitem";
    static final String DUCKDB_FILE = duckDbFile(DATABASE_FILE);

    private final String label;
    private final String folder;

    Peer(String label, String folder) {
        this.label = label;
        this.folder = folder;
    }

    /** A short name for tables and charts. */
    public String label() {
        return label;
    }

    public boolean isColumba() {
        return this == COLUMBA_COLUMNSTORE || this == COLUMBA_ROWSTORE;
    }

    /** The directory of this engine's database under the suite's {@code databases} directory. */
    public Path directory(Path databases) {
        return databases.resolve(folder);
    }

    /** DuckDB's file for a database named {@code name}. */
    public static String duckDbFile(String name) {
        return name + ".duckdb";
    }

    /**
     * The URL of a benchmark connection (read-only for the peers) to the database named {@code name}
     * (DuckDB's file and H2's file name prefix; Columba's database is the directory).
     */
    String url(Path databases, String name) {
        Path directory = directory(databases).toAbsolutePath();
        return switch (this) {
            case COLUMBA_COLUMNSTORE, COLUMBA_ROWSTORE -> "jdbc:columba:" + directory;
            case DUCKDB -> "jdbc:duckdb:" + directory.resolve(duckDbFile(name));
            // CACHE_SIZE is in KB; ACCESS_MODE_DATA=r opens the file read-only. Without
            // OPTIMIZE_REUSE_RESULTS=0, H2 answers a repeated query with its previous result, unrun:
            // nothing invalidates it in a read-only database, and a warm run would measure nothing.
            case H2 -> "jdbc:h2:file:" + directory.resolve(name) + ";ACCESS_MODE_DATA=r;CACHE_SIZE=2097152"
                    + ";OPTIMIZE_REUSE_RESULTS=0";
        };
    }

    /** The properties of a benchmark connection. */
    Properties properties() {
        Properties properties = new Properties();
        switch (this) {
            case COLUMBA_COLUMNSTORE, COLUMBA_ROWSTORE -> {
                properties.setProperty("buffer_pool_size", "2GB");
                // One thread, as DuckDB's threads = 1: the suites compare one core with one unless told otherwise.
                properties.setProperty("max_dop", "1");
            }
            case DUCKDB -> {
                properties.setProperty("duckdb.read_only", "true");
                properties.setProperty("threads", "1");
                properties.setProperty("memory_limit", "2GB");
                // The instance closes with its last connection, so reopening starts with an empty buffer manager.
                properties.setProperty("jdbc_pin_db", "false");
            }
            case H2 -> {
                // Everything is in the URL.
            }
        }
        return properties;
    }
}
