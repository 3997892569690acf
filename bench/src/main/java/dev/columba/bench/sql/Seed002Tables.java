package dev.columba.bench.sql;

import dev.columba.bench.harness.PreparedDatabase;
import dev.columba.bench.load.LineitemCsv;
import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Seed 002's LineItem three times in one database, as the article lays it out: (a) {@code
 * lineitem_one} on a filegroup of one file, (b) {@code lineitem_two} on a filegroup of two files,
 * (c) {@code lineitem_hash}, hash-partitioned on {@code l_orderkey} into {@code partitions}
 * partitions spread over {@code filegroups} filegroups of one file each (the article: 96 partitions
 * over 24 filegroups on 96 cores; here 2 x cores over cores filegroups by default), and (d) {@code
 * lineitem_page}, (c) again with {@code DATA_COMPRESSION = PAGE} on the same filegroups. Each is a heap
 * loaded by COPY from TPC-H lineitem at the scale factor, so a {@code SELECT COUNT(*)} scans its
 * pages in allocation order, file by file.
 *
 * <p>The database lives in {@code <dataDirectory>/seed002-sf<scale>-p<partitions>-fg<filegroups>}
 * and is reused by later runs ({@link PreparedDatabase}).
 */
public final class Seed002Tables {
    public static final String ONE_FILE = "lineitem_one";
    public static final String TWO_FILES = "lineitem_two";
    public static final String HASH_PARTITIONED = "lineitem_hash";
    /** (d): (c) with DATA_COMPRESSION = PAGE, on the same filegroups. */
    public static final String PAGE_COMPRESSED = "lineitem_page";
    /** The file (a)'s table lies in: the device read runs over it. */
    public static final String ONE_FILE_PATH = "single/one.data";
    /** Changes whenever the tables or their rows change, so that older databases are reloaded. */
    static final String SHAPE = "seed002-v2";
    private static final String LOAD_POOL = "512MB";

    private Seed002Tables() {
    }

    /** What a prepared database holds; persisted in its marker file. */
    public record Description(Path directory, double scaleFactor, long rows, int partitions, int filegroups,
                              long pagesOneFile, long pagesTwoFiles, long pagesHash, long pagesPage, boolean loadedNow,
                              double loadSeconds) {
        /** The file of (a), read sequentially for the device's speed. */
        public Path oneFile() {
            return directory.resolve(ONE_FILE_PATH);
        }
    }

    /**
     * The tables at {@code scaleFactor} under {@code dataDirectory}: reused if a previous run
     * finished loading them with the current shape, loaded otherwise (progress on {@code progress}).
     */
    public static Description prepare(Path dataDirectory, double scaleFactor, int partitions, int filegroups,
                                      PrintStream progress) {
        if (partitions < 1 || filegroups < 1) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT, "seed002 needs at least one partition and filegroup,"
                    + " got " + partitions + " and " + filegroups);
        }
        String scale = LineitemCsv.scaleText(scaleFactor);
        PreparedDatabase database = PreparedDatabase.in(dataDirectory, "seed002-sf" + scale + "-p" + partitions
                + "-fg" + filegroups);
        Map<String, String> identity = Map.of("shape", SHAPE, "scaleFactor", scale, "partitions",
                String.valueOf(partitions), "filegroups", String.valueOf(filegroups));
        Properties recorded = database.reusable(identity);
        if (recorded != null) {
            return describe(database, scaleFactor, partitions, filegroups, recorded, false);
        }
        LineitemCsv.Description csv = LineitemCsv.prepare(dataDirectory, scaleFactor, progress);
        database.startLoad(identity);
        Properties loaded = load(database.directory(), csv, partitions, filegroups, progress);
        database.finishLoad(identity, loaded, "seed 002's LineItem in one file, two files and hash partitions");
        return describe(database, scaleFactor, partitions, filegroups, loaded, true);
    }

    private static Properties load(Path directory, LineitemCsv.Description csv, int partitions, int filegroups,
                                   PrintStream progress) {
        long start = System.nanoTime();
        Properties settings = new Properties();
        settings.setProperty("buffer_pool_size", LOAD_POOL);
        String columns = columns(csv.schema());
        String file = csv.file().toAbsolutePath().toString().replace("'", "''");
        try (SqlDatabase sql = SqlDatabase.open(directory, settings)) {
            sql.execute("ALTER DATABASE CURRENT ADD FILEGROUP single");
            sql.execute("ALTER DATABASE CURRENT ADD FILE (NAME = single_file, FILENAME = '" + ONE_FILE_PATH + "') TO FILEGROUP single");
            sql.execute("ALTER DATABASE CURRENT ADD FILEGROUP striped");
            sql.execute("ALTER DATABASE CURRENT ADD FILE (NAME = two_a, FILENAME = 'striped/a.data'),"
                    + " (NAME = two_b, FILENAME = 'striped/b.data') TO FILEGROUP striped");
            List<String> groups = new ArrayList<>();
            for (int group = 1; group <= filegroups; group++) {
                sql.execute("ALTER DATABASE CURRENT ADD FILEGROUP part" + group);
                sql.execute("ALTER DATABASE CURRENT ADD FILE (NAME = part" + group + ", FILENAME = 'part" + group
                        + "/part.data') TO FILEGROUP part" + group);
                groups.add("part" + group);
            }
            sql.execute("CREATE TABLE " + ONE_FILE + " (" + columns + ") ON single");
            sql.execute("CREATE TABLE " + TWO_FILES + " (" + columns + ") ON striped");
            sql.execute("CREATE TABLE " + HASH_PARTITIONED + " (" + columns + ") PARTITION BY HASH (l_orderkey) PARTITIONS "
                    + partitions + " ON (" + String.join(", ", groups) + ")");
            sql.execute("CREATE TABLE " + PAGE_COMPRESSED + " (" + columns + ") PARTITION BY HASH (l_orderkey) PARTITIONS "
                    + partitions + " ON (" + String.join(", ", groups) + ") WITH (DATA_COMPRESSION = PAGE)");
            Properties loaded = new Properties();
            for (String table : new String[] {ONE_FILE, TWO_FILES, HASH_PARTITIONED, PAGE_COMPRESSED}) {
                progress.printf(Locale.ROOT, "bench: COPY %,d rows of lineitem into %s of %s%n", csv.rows(), table, directory);
                sql.execute("COPY " + table + " FROM '" + file + "' WITH (HEADER)");
                sql.execute("CHECKPOINT");
                long counted = sql.execute("SELECT COUNT(*) FROM " + table).sumOfFirstColumn();
                if (counted != csv.rows()) {
                    throw new ColumbaException(ErrorCode.INTERNAL, "loaded " + csv.rows() + " rows into " + table + " of "
                            + directory + " but it counts " + counted);
                }
                loaded.setProperty("pages." + table, String.valueOf(pages(sql, table)));
                progress.printf(Locale.ROOT, "bench: %s loaded (%.0f s)%n", table, (System.nanoTime() - start) / 1e9);
            }
            loaded.setProperty("rows", String.valueOf(csv.rows()));
            loaded.setProperty("loadSeconds", String.format(Locale.ROOT, "%.1f", (System.nanoTime() - start) / 1e9));
            return loaded;
        }
    }

    /** The pages a cold scan of {@code table} reads from storage (its allocation maps included). */
    private static long pages(SqlDatabase sql, String table) {
        sql.dropCleanBuffers();
        return sql.execute("SELECT COUNT(*) FROM " + table + " OPTION (MAXDOP 1)").statistics().total().pagesFromStorage();
    }

    static String columns(TableSchema schema) {
        List<String> columns = new ArrayList<>();
        for (Column column : schema.columns()) {
            columns.add(column.name() + " " + column.type().sqlName() + (column.nullable() ? "" : " NOT NULL"));
        }
        return String.join(", ", columns);
    }

    private static Description describe(PreparedDatabase database, double scaleFactor, int partitions, int filegroups,
                                        Properties recorded, boolean loadedNow) {
        return new Description(database.directory(), scaleFactor, database.wholeNumber(recorded, "rows"), partitions,
                filegroups, database.wholeNumber(recorded, "pages." + ONE_FILE),
                database.wholeNumber(recorded, "pages." + TWO_FILES), database.wholeNumber(recorded, "pages." + HASH_PARTITIONED),
                database.wholeNumber(recorded, "pages." + PAGE_COMPRESSED), loadedNow, database.number(recorded, "loadSeconds"));
    }
}
