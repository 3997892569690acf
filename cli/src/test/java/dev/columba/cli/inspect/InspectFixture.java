package dev.columba.cli.inspect;

import dev.columba.cli.Main;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.stats.IoCounters;
import dev.columba.core.type.SqlType;
import dev.columba.storage.alloc.Allocator;
import dev.columba.storage.alloc.ExtentEntry;
import dev.columba.storage.buffer.Access;
import dev.columba.storage.buffer.PageRef;
import dev.columba.storage.catalog.CatalogEntry;
import dev.columba.storage.db.Database;
import dev.columba.storage.io.NativeFilesFacade;
import dev.columba.storage.page.Page;
import dev.columba.storage.table.TableStore;
import dev.columba.storage.table.Tables;
import dev.columba.storage.txn.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A small real database for the inspect tests, and a way to run {@code columba inspect} in-process
 * through the command's own dispatch with captured output.
 *
 * <p>The database: {@code orders} (clustered on {@code id}, unique; {@value #ORDER_ROWS} rows, so a
 * root with several leaves), an index {@code orders_by_customer} on it, and the heap
 * {@code events} with one value large enough to go to overflow pages. Each table is loaded in its
 * own transaction, so the log holds several commit groups.
 */
final class InspectFixture {
    static final int ORDER_ROWS = 3000;
    static final int EVENT_ROWS = 200;

    private InspectFixture() {
    }

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return Arrays.asList(out.split("\n"));
        }

        /** The lines containing every one of {@code parts}. */
        List<String> linesWith(String... parts) {
            List<String> found = new ArrayList<>();
            for (String line : lines()) {
                boolean all = true;
                for (String part : parts) {
                    all &= line.contains(part);
                }
                if (all) {
                    found.add(line);
                }
            }
            return found;
        }

        /** The closing list of problems, without their marks; empty when none were found. */
        List<String> problems() {
            List<String> lines = lines();
            for (int index = lines.size() - 1; index >= 0; index--) {
                if (lines.get(index).endsWith(" found:")) {
                    List<String> problems = new ArrayList<>();
                    for (String line : lines.subList(index + 1, lines.size())) {
                        problems.add(line.substring("  ! ".length()));
                    }
                    return problems;
                }
            }
            return List.of();
        }

        /** The problems that start with {@code prefix}. */
        List<String> problemsStartingWith(String prefix) {
            return problems().stream().filter(problem -> problem.startsWith(prefix)).toList();
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
        }
    }

    static Run inspect(Object... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = "inspect";
        for (int index = 0; index < args.length; index++) {
            command[index + 1] = args[index].toString();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exitCode;
        try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exitCode = Main.run(command, outStream, errStream);
        }
        return new Run(exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String customer(int id) {
        return "customer-" + (id % 97);
    }

    /**
     * What storage itself says about the database {@link #createDatabase} made, for the tests to
     * compare inspect's output with.
     *
     * @param pagesByObject  pages in use per table or index name, from its allocation map
     * @param firstOrderLeaf the first leaf of {@code orders}' B+tree (its keys are 1, 2, 3, ...)
     * @param firstIndexLeaf the first leaf of {@code orders_by_customer}
     * @param transactionIds the ids of the transactions that loaded the tables, in commit order
     */
    record Facts(Map<String, Integer> pagesByObject, long firstOrderLeaf, long firstIndexLeaf, List<Long> transactionIds) {
    }

    /** Creates the database in {@code directory} and closes it cleanly. */
    static Facts createDatabase(Path directory) {
        Properties properties = new Properties();
        properties.setProperty("buffer_pool_size", "16MB");
        IoCounters counters = new IoCounters();
        List<Long> transactionIds = new ArrayList<>();
        try (Database database = Database.open(directory, properties, NativeFilesFacade.INSTANCE)) {
            Tables tables = new Tables(database);
            try (Transaction transaction = database.begin()) {
                transactionIds.add(transaction.id());
                TableSchema schema = TableSchema.of(Column.notNull("id", SqlType.INT),
                        Column.nullable("customer", SqlType.varchar(40)), Column.nullable("amount", SqlType.decimal(10, 2)));
                TableStore orders = tables.createTable(transaction, "orders", schema, List.of(0), true, Map.of());
                for (int id = 1; id <= ORDER_ROWS; id++) {
                    orders.insert(transaction, 
                            new Object[] {id, customer(id), BigDecimal.valueOf(id * 25L, 2)}, counters);
                }
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                transactionIds.add(transaction.id());
                tables.createIndex(transaction, "orders", "orders_by_customer", List.of(1), false);
                transaction.commit();
            }
            try (Transaction transaction = database.begin()) {
                transactionIds.add(transaction.id());
                TableSchema schema = TableSchema.of(Column.notNull("at", SqlType.BIGINT),
                        Column.nullable("note", SqlType.varchar(100_000)));
                TableStore events = tables.createTable(transaction, "events", schema, List.of(), false, Map.of());
                for (int number = 0; number < EVENT_ROWS; number++) {
                    String note = number == 7 ? "x".repeat(20_000) : "event " + number;
                    events.insert(transaction, new Object[] {(long) number, note}, counters);
                }
                transaction.commit();
            }
            Map<String, Integer> pages = new TreeMap<>();
            long firstOrderLeaf = 0;
            long firstIndexLeaf = 0;
            for (CatalogEntry entry : database.catalog().entries(database.bufferPool(), counters)) {
                int count = 0;
                for (ExtentEntry extent : Allocator.extents(database.bufferPool(), entry.firstOamPage(), counters)) {
                    count += extent.allocatedPages();
                }
                pages.put(entry.name(), count);
                switch (entry) {
                    case CatalogEntry.Table table when table.name().equals("orders") ->
                            firstOrderLeaf = firstLeaf(database, table.rootPage());
                    case CatalogEntry.Index index -> firstIndexLeaf = firstLeaf(database, index.rootPage());
                    default -> {
                    }
                }
            }
            return new Facts(pages, firstOrderLeaf, firstIndexLeaf, transactionIds);
        }
    }

    private static long firstLeaf(Database database, long rootPage) {
        long pageId = rootPage;
        while (true) {
            try (PageRef ref = database.bufferPool().read(pageId, Access.RANDOM, new IoCounters())) {
                if (Page.level(ref.page()) == 0) {
                    return pageId;
                }
                pageId = Page.special(ref.page());
            }
        }
    }

    /** Copies a database directory (closed) so that a test can damage its own copy. */
    static Path copy(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path copy = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(file, copy);
                }
            }
        }
        return target;
    }

    /** Writes {@code bytes} at {@code offset} of {@code file}, in place. */
    static void overwrite(Path file, long offset, byte... bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    /** Flips every bit of the byte at {@code offset} of {@code file}. */
    static void flipByte(Path file, long offset) throws IOException {
        byte value;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(1);
            channel.read(buffer, offset);
            value = buffer.get(0);
        }
        overwrite(file, offset, (byte) ~value);
    }

    /** Cuts {@code file} to {@code length} bytes. */
    static void truncate(Path file, long length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        }
    }
}
