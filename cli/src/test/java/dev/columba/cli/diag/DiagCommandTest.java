package dev.columba.cli.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.Main;
import dev.columba.columnstore.table.ColumnstoreTable;
import dev.columba.datagen.CommentsGenerator;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.txn.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiagCommandTest {
    @TempDir
    Path directory;

    @Test
    void diagnosesDictionaryPressureAsTextAndJson() {
        try (Database database = Database.open(directory, new Properties(), NativeFilesFacade.INSTANCE);
             Transaction transaction = database.begin()) {
            CommentsGenerator generator = CommentsGenerator.withText(40_000, 2);
            ColumnstoreTable table = ColumnstoreTable.create(database, transaction, "Comments", generator.schema(),
                    Map.of("rowgroup_max_rows", "16384", "bulk_min_rows", "100", "dictionary_cap", "256KB",
                            "dictionary_overflow", "trim"));
            table.bulkInsert(transaction, generator.rows());
            transaction.commit();
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"diag", "dictionary", directory.toString(), "--what-if", "dictionary_cap=512KB",
            "--chart"}, new PrintStream(text, true, StandardCharsets.UTF_8), new PrintStream(errors, true, StandardCharsets.UTF_8));
        String output = text.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, errors.toString(StandardCharsets.UTF_8));
        assertTrue(output.contains("cause: dictionary pressure from Text"), output);
        assertTrue(output.contains("dictionary_overflow = fallback"), output);
        assertTrue(output.contains("what-if {dictionary_cap=512KB}"), output);
        assertTrue(output.contains("rowgroup sizes"), output);

        ByteArrayOutputStream json = new ByteArrayOutputStream();
        assertEquals(0, Main.run(new String[] {"diag", "dictionary", directory.toString(), "--json"},
                new PrintStream(json, true, StandardCharsets.UTF_8), new PrintStream(errors, true, StandardCharsets.UTF_8)));
        String document = json.toString(StandardCharsets.UTF_8);
        assertTrue(document.startsWith("[{\"table\":\"Comments\"") && document.contains("\"culprits\":[\"Text\"]"), document);

        assertEquals(2, Main.run(new String[] {"diag", "dictionary", directory.resolve("nothing").toString()},
                new PrintStream(json, true, StandardCharsets.UTF_8), new PrintStream(errors, true, StandardCharsets.UTF_8)));
    }
}
