package dev.columba.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a format whose files name and type their columns (Parquet, Arrow) must do besides round
 * trips: a damaged, empty or missing file refused with a clear error and the table left as it was;
 * columns mapped by name, a missing or extra column, a type of another family or a value that does
 * not fit refused naming the column; CSV's options and unknown options refused.
 */
abstract class SelfDescribingFormatTestBase extends FileFormatRoundTripTestBase {
    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void aDamagedFileIsRefusedAndChangesNothing(String kind) throws Exception {
        create("source", kind);
        statement.execute("INSERT INTO source VALUES " + String.join(", ", ROWS));
        Path file = directory.resolve("whole." + extension());
        statement.execute("COPY source TO '" + file + "'" + with());
        byte[] bytes = Files.readAllBytes(file);
        Path truncated = Files.write(directory.resolve("truncated." + extension()),
                Arrays.copyOf(bytes, bytes.length * 2 / 3));
        Path garbage = Files.writeString(directory.resolve("garbage." + extension()), "this is not a columnar file\n".repeat(20));
        Path empty = Files.write(directory.resolve("empty." + extension()), new byte[0]);
        create("target", kind);
        statement.execute("INSERT INTO target VALUES " + ROWS[0]);
        assertRejected("target", "22P04", "COPY target FROM '" + truncated + "'" + with(), "truncated." + extension());
        assertRejected("target", "22P04", "COPY target FROM '" + garbage + "'" + with(), "garbage." + extension());
        assertRejected("target", "22P04", "COPY target FROM '" + empty + "'" + with(), "empty." + extension());
        assertRejected("target", "58030", "COPY target FROM '" + directory.resolve("missing." + extension()) + "'" + with(),
                "missing");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rowstore", "columnstore"})
    void columnsAreMappedByNameAndMismatchesAreErrors(String kind) throws Exception {
        create("source", kind);
        statement.execute("INSERT INTO source VALUES " + String.join(", ", ROWS));
        Path file = directory.resolve("named." + extension());
        statement.execute("COPY (SELECT name, id, 'extra' AS extra FROM source) TO '" + file + "'" + with());
        Path reordered = directory.resolve("reordered." + extension());
        statement.execute("COPY (SELECT name, id FROM source) TO '" + reordered + "'" + with());
        Path typed = directory.resolve("typed." + extension());
        statement.execute("COPY (SELECT name AS id FROM source) TO '" + typed + "'" + with());
        Path tooLong = directory.resolve("long." + extension());
        statement.execute("COPY (SELECT id, name || name || name AS name FROM source) TO '" + tooLong + "'" + with());
        create("target", kind);
        statement.execute("INSERT INTO target (id) VALUES (100)");
        assertRejected("target", "42703", "COPY target (id, name) FROM '" + file + "'" + with(), "extra");
        assertRejected("target", "42703", "COPY target FROM '" + reordered + "'" + with(), "not in the file");
        assertRejected("target", "42804", "COPY target (id) FROM '" + typed + "'" + with(), "column id", "INT");
        assertRejected("target", "22001", "COPY target (id, name) FROM '" + tooLong + "'" + with(), "row 1", "column name");
        assertRejected("target", "42601", "COPY target FROM '" + file + "' WITH (FORMAT " + format() + ", COLOUR 'red')",
                "COLOUR");
        assertRejected("target", "22023", "COPY target FROM '" + file + "' WITH (FORMAT " + format() + ", DELIMITER ';')",
                "csv only");
        assertEquals(5, statement.executeUpdate("COPY target (name, id) FROM '" + reordered + "'" + with()));
        assertEquals(6, rows("target").size());
        Path never = directory.resolve("never." + extension());
        assertRejected("target", "22012", "COPY (SELECT id / (id - 3) AS x FROM source) TO '" + never + "'" + with());
        assertFalse(Files.exists(never), "a failed export writes no file");
    }
}
