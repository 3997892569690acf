package dev.columba.planner.session;

import dev.columba.planner.plan.QueryPlanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * The child process of {@link CopyCrashTest}, and the loads it makes: creates (once) a rowstore
 * table clustered on its key or a columnstore table of small rowgroups, loads the first file into
 * it with {@code COPY} and prints {@code A}; then prints {@code L}, loads the second file, and
 * prints {@code C} once that COPY has committed. The test kills it during the second COPY.
 */
public final class CopyCrashWorkload {
    static final String TABLE = "loaded";

    private CopyCrashWorkload() {
    }

    static Engine open(Path directory) {
        Properties properties = new Properties();
        // A small pool: the load's pages go to the spill file long before it commits.
        properties.setProperty("buffer_pool_size", "4MB");
        return Engine.open(directory, properties, (catalog, settings, statement, cancel) ->
                new QueryPlanner(catalog, settings).plan(statement));
    }

    /** The table, empty: a rowstore clustered on {@code id}, or a columnstore cut every 10,000 rows. */
    static void create(Session session, boolean columnstore) {
        String columns = "id BIGINT NOT NULL, name VARCHAR(40) NOT NULL, price DECIMAL(12,2), day DATE";
        session.execute(columnstore
                ? "CREATE TABLE " + TABLE + " (" + columns + ") WITH (storage = columnstore, rowgroup_max_rows = 10000)"
                : "CREATE TABLE " + TABLE + " (" + columns + ", PRIMARY KEY (id))");
    }

    static void copy(Session session, Path file) {
        session.execute("COPY " + TABLE + " FROM '" + file + "' WITH (HEADER, MAXDOP 1)");
    }

    /**
     * Writes a CSV file of the rows with ids {@code [firstId, firstId + rows)}, in an order shuffled
     * by {@code seed} (so a rowstore load sorts them), NULLs in two columns.
     */
    static void writeFile(Path file, long firstId, int rows, long seed) {
        List<Long> ids = new ArrayList<>(rows);
        for (long id = firstId; id < firstId + rows; id++) {
            ids.add(id);
        }
        Collections.shuffle(ids, new Random(seed));
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("id,name,price,day\n");
            for (long id : ids) {
                out.write(id + ",name number " + id + " ünï," + (id % 7 == 0 ? "" : (id % 100_000) + "." + id % 100) + ","
                        + (id % 5 == 0 ? "" : "2024-01-" + (1 + id % 28)) + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Arguments: database directory, {@code rowstore} or {@code columnstore}, first file, second file. */
    public static void main(String[] args) {
        Path directory = Path.of(args[0]);
        boolean columnstore = args[1].equals("columnstore");
        Engine engine = open(directory);
        Session session = engine.openSession();
        if (SessionRows.query(session, "SELECT COUNT(*) FROM sys.tables WHERE table_name = '" + TABLE + "'")
                .getFirst().getFirst().toString().equals("0")) {
            create(session, columnstore);
            copy(session, Path.of(args[2]));
        }
        System.out.println("A");
        System.out.println("L");
        System.out.flush();
        copy(session, Path.of(args[3]));
        System.out.println("C");
        System.out.flush();
        session.close();
        engine.close();
    }
}
