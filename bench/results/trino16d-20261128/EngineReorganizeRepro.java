// The driver-only reproduction of the REORGANIZE failure noticed while writing LiveDatabaseOnTrinoTest
// (bench/results/trino16d-20261128.md). Ran as a JUnit test in the trino module's test sources
// (it needs only the driver): a columnstore table of 2,048-row delta rowgroups, 250 inserts of 64 rows
// with a 10-row delete after every third, the engine's tuple mover compressing as deltas close; then
// ALTER INDEX ALL ON live REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON) and a count.
package dev.columba.trino;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineReorganizeRepro {
    @Test
    void repro(@TempDir Path directory) throws Exception {
        try (Connection engine = DriverManager.getConnection("jdbc:columba:" + directory.resolve("live"));
             Statement statement = engine.createStatement()) {
            statement.execute("CREATE TABLE live (id BIGINT NOT NULL, v BIGINT NOT NULL, note VARCHAR(40) NOT NULL)"
                    + " WITH (storage = columnstore, rowgroup_max_rows = 2048, bulk_min_rows = 1000000)");
            long next = 1;
            for (long round = 0; round < 250; round++) {
                statement.executeUpdate("INSERT INTO live SELECT n, n * 7, 'row ' || CAST(n AS VARCHAR(20))"
                        + " FROM generate_series(CAST(" + next + " AS BIGINT), " + (next + 63) + ") AS g(n)");
                next += 64;
                if (round % 3 == 2) {
                    long first = Math.max(1, next - 40 * 64 + round % 64);
                    statement.executeUpdate("DELETE FROM live WHERE id BETWEEN " + first + " AND " + (first + 9));
                }
            }
            statement.execute("ALTER INDEX ALL ON live REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)");
            // Fails: [INVALID_ARGUMENT] selection 0..1723 is outside the 1664 rows read from row 0 of .../15.crg column 1
            try (ResultSet rows = statement.executeQuery("SELECT count(*), count(DISTINCT id), sum(v) FROM live")) {
                rows.next();
            }
        }
    }
}
