package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import dev.columba.columnstore.build.TrimReason;
import dev.columba.columnstore.file.DictionaryFileFormat;
import dev.columba.columnstore.table.RowgroupEntry;
import dev.columba.columnstore.views.ColumnstoreViews;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code columba inspect} on a healthy database with columnstore tables: the rowgroup directory,
 * rowgroup files, dictionary files and the per-column summary, compared with what the columnstore
 * itself says ({@link ColumnstoreFixture.Facts}: its directory and {@code sys.column_store_segments}).
 */
class InspectColumnstoreTest {
    @TempDir
    static Path directory;
    static ColumnstoreFixture.Facts facts;

    @TempDir
    Path work;

    @BeforeAll
    static void createDatabase() {
        facts = ColumnstoreFixture.createDatabase(directory);
    }

    private static String[] tokens(String line) {
        return line.trim().split("\\s+");
    }

    /** The line of a table listing whose first cell is {@code first}, exactly one. */
    private static String row(Run run, String first, String... parts) {
        List<String> lines = run.lines().stream()
                .filter(line -> line.trim().startsWith(first + " ") && List.of(parts).stream().allMatch(line::contains))
                .toList();
        assertEquals(1, lines.size(), () -> "one line starting with '" + first + "' and " + List.of(parts) + " in\n" + run);
        return lines.getFirst();
    }

    @Test
    void directorySummaryListsEveryRowgroupWithItsTrimReasonAndTheFiles() throws Exception {
        Run run = inspect(directory);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals("no problems found", run.lines().getLast());
        assertEquals(1, run.linesWith("  table " + facts.salesId() + " sales: 4 rowgroups (1 OPEN, 3 COMPRESSED), "
                + (ColumnstoreFixture.SALES_ROWS + ColumnstoreFixture.SALES_DELTA_ROWS) + " rows, 2 deleted").size(), run::toString);
        // A delete from a delta rowgroup removes the row and counts it, as a compressed rowgroup's does.
        assertEquals(1, facts.salesRowgroups().get(3).deletedRows());
        for (RowgroupEntry entry : facts.salesRowgroups()) {
            String[] cells = tokens(row(run, String.valueOf(entry.rowgroupId()), " " + entry.state() + " ",
                    ValueText.micros(entry.createdMicros())));
            assertEquals(List.of(entry.state().name(), String.valueOf(entry.totalRows()), String.valueOf(entry.deletedRows()),
                    String.valueOf(entry.sizeBytes()), entry.trimReason().name()), List.of(cells).subList(1, 6));
        }
        assertEquals(List.of(TrimReason.NO_TRIM, TrimReason.NO_TRIM, TrimReason.BULKLOAD, TrimReason.NO_TRIM),
                facts.salesRowgroups().stream().map(RowgroupEntry::trimReason).toList());
        assertTrue(row(run, "3", " OPEN ").endsWith("delta B+tree, root page " + facts.salesRowgroups().get(3).deltaRoot()));

        // The trimmed table: every rowgroup but the last cut short by the dictionary cap.
        List<RowgroupEntry> trimmed = facts.trimmedRowgroups();
        assertTrue(trimmed.size() >= 3, trimmed::toString);
        long trimmedLines = run.linesWith(" COMPRESSED ", " DICTIONARY_SIZE ").size();
        assertEquals(trimmed.size() - 1, trimmedLines, run::toString);
        assertEquals(TrimReason.BULKLOAD, trimmed.getLast().trimReason());
        assertEquals(1, run.linesWith("  table " + facts.trimmedId() + " trimmed: " + trimmed.size() + " rowgroups ("
                + trimmed.size() + " COMPRESSED), " + ColumnstoreFixture.TRIMMED_ROWS + " rows, 0 deleted").size(), run::toString);

        // The files: each live rowgroup file checked OK, the primary dictionaries named.
        Path salesFiles = ColumnstoreFixture.tableDirectory(directory, facts.salesId());
        assertEquals(1, run.linesWith("    files in " + salesFiles).size(), run::toString);
        for (int rowgroup = 0; rowgroup < 3; rowgroup++) {
            long size = Files.size(salesFiles.resolve(rowgroup + ".crg"));
            String[] cells = tokens(row(run, rowgroup + ".crg", "rowgroup " + rowgroup + ": "
                    + facts.salesRowgroups().get(rowgroup).totalRows() + " rows"));
            assertEquals(List.of(String.valueOf(size), "OK", "rowgroup", rowgroup + ":"), List.of(cells).subList(1, 5));
        }
        assertEquals(1, run.linesWith("dict-1.cdict", " OK ", "primary dictionary of column 1 region: 5 entries").size(),
                run::toString);
        assertEquals(0, run.linesWith("orphan").size(), run::toString);
    }

    @Test
    void dataFileSummaryCountsEveryTreeOfAColumnstoreTableAsItsPages() throws Exception {
        Run run = inspect(directory);
        assertEquals(1, run.linesWith(" " + facts.salesId() + "  sales ", " columnstore table ").size(), run::toString);
        // The directory, the delete bitmap and the open delta rowgroup: three trees, three allocation maps.
        String[] sales = tokens(run.linesWith(" sales ", " columnstore table ").getFirst());
        assertEquals("3", sales[sales.length - 1], "allocation maps of sales\n" + run);

        Run pages = inspect(directory, "--pages", "--object", "sales");
        assertEquals(Inspect.OK, pages.exitCode(), pages::toString);
        assertTrue(pages.linesWith(" sales ").size() >= 6, pages::toString);
        assertEquals(0, pages.linesWith(" sales ", " free ").size(), "no page of sales is taken for free\n" + pages);
    }

    @Test
    void pageDetailTellsTheTreesOfAColumnstoreTableApart() throws Exception {
        Run directoryLeaf = inspect(directory, "--page", facts.salesDirectoryRoot());
        assertEquals(Inspect.OK, directoryLeaf.exitCode(), directoryLeaf::toString);
        assertEquals(1, directoryLeaf.linesWith("B+tree leaf of table " + facts.salesId() + " sales's rowgroup directory: ")
                .size(), directoryLeaf::toString);
        for (RowgroupEntry entry : facts.salesRowgroups()) {
            assertEquals(1, directoryLeaf.linesWith("  rowgroup " + entry.rowgroupId() + "  ", "  " + entry.state() + ", "
                    + entry.totalRows() + " rows, " + entry.deletedRows() + " deleted, " + entry.sizeBytes() + " bytes, "
                    + entry.trimReason()).size(), directoryLeaf::toString);
        }
        String record = directoryLeaf.linesWith("ff ff ff ff ff", "table record").getFirst();
        long deleteBitmapRoot = Long.parseLong(record.substring(record.indexOf("delete bitmap root page ")
                + "delete bitmap root page ".length()).split(",")[0]);

        Run bitmap = inspect(directory, "--page", deleteBitmapRoot);
        assertEquals(Inspect.OK, bitmap.exitCode(), bitmap::toString);
        assertEquals(1, bitmap.linesWith("00 00 00 00 00 00 00 04  rowgroup 0, row 4", "deleted").size(), bitmap::toString);

        Run delta = inspect(directory, "--page", facts.salesRowgroups().get(3).deltaRoot());
        assertEquals(Inspect.OK, delta.exitCode(), delta::toString);
        for (int position = 0; position < ColumnstoreFixture.SALES_DELTA_ROWS; position++) {
            int id = ColumnstoreFixture.SALES_ROWS + 1 + position;
            int expected = position == ColumnstoreFixture.SALES_DELTA_DELETED_POSITION ? 0 : 1;
            assertEquals(expected, delta.linesWith("position " + position + " ",
                    ValueText.tuple(ColumnstoreFixture.salesRow(id))).size(), delta::toString);
        }
    }

    @Test
    void rowgroupFileDumpShowsEachColumnsEncodingMinAndMax() throws Exception {
        Path file = ColumnstoreFixture.rowgroupFile(directory, facts.salesId(), 1);
        Run run = inspect(file);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals("rowgroup file " + file, run.lines().getFirst());
        assertEquals(1, run.linesWith("  table           table " + facts.salesId() + " sales of " + directory).size(),
                run::toString);
        assertEquals(1, run.linesWith("  rows            1000").size(), run::toString);
        assertEquals(1, run.linesWith("  header checksum 0x", " OK").size(), run::toString);
        assertEquals(1, run.linesWith("  8 blobs, 0 BAD").size(), run::toString);
        List<ColumnstoreViews.SegmentRow> segments = ColumnstoreFixture.segmentsOf(facts.salesSegments(), 1);
        assertEquals(4, segments.size());
        for (ColumnstoreViews.SegmentRow segment : segments) {
            String label = segment.columnId() + " " + segment.columnName();
            String line = row(run, label, " " + segment.encoding() + " ", " " + ValueText.value(segment.min()) + " ",
                    " " + ValueText.value(segment.max()) + " ", " " + segment.fallbackReason());
            assertTrue(line.contains(" " + segment.rowCount() + " ") && line.contains(" " + segment.nullCount() + " "), line);
        }
        assertEquals(1, run.linesWith("1 region", " DICTIONARY ", " 'centre' ", " 'west' ").size(), run::toString);
        assertEquals(1, run.linesWith("2 note", " PLAIN ", " DICTIONARY_OVERFLOW").size(), run::toString);
        // The region segment uses the primary dictionary (5 entries) and this rowgroup's secondary one (3 new regions).
        String header = row(run, "1 region", " STRING ", " NULLS ");
        assertTrue(header.endsWith("0 (5)              2 (3)"), header);
        String[] dictionaryBlob = tokens(row(run, "5", "secondary dictionary of column 1 region"));
        assertEquals("OK", dictionaryBlob[4], run::toString);
        assertEquals(1, run.linesWith("secondary dictionaries").size(), run::toString);
    }

    @Test
    void columnDecodesTheFirstRowsWithThePrimaryAndTheSecondaryDictionary() throws Exception {
        Path file = ColumnstoreFixture.rowgroupFile(directory, facts.salesId(), 1);
        Run run = inspect(file, "--column", 1, "--rows", 8);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("column 1 region VARCHAR(20): rows 0 to 7 of 1000 (DICTIONARY; primary dictionary 0"
                + " from dict-1.cdict, 5 entries; secondary dictionary 2 from blob 5, 3 entries)").size(), run::toString);
        List<String> values = valuesAfter(run, "column 1 region");
        List<String> expected = java.util.stream.IntStream.range(1001, 1009)
                .mapToObj(id -> ValueText.value(ColumnstoreFixture.region(id))).toList();
        assertEquals(expected, values, run::toString);
        assertTrue(values.contains("'north-east'") && values.contains("NULL"), "both dictionaries and a NULL: " + values);

        Run notes = inspect(ColumnstoreFixture.rowgroupFile(directory, facts.salesId(), 2), "--column", 2);
        assertEquals(Inspect.OK, notes.exitCode(), notes::toString);
        assertEquals(java.util.stream.IntStream.range(2001, 2021).mapToObj(id -> "'note-" + id + "'").toList(),
                valuesAfter(notes, "column 2 note"));

        // A trimmed rowgroup starts where the one before it was cut.
        long firstId = facts.trimmedRowgroups().get(0).totalRows() + 1;
        Run tags = inspect(ColumnstoreFixture.rowgroupFile(directory, facts.trimmedId(), 1), "--column", 1, "--rows", 3);
        assertEquals(List.of("'tag-" + firstId + "'", "'tag-" + (firstId + 1) + "'", "'tag-" + (firstId + 2) + "'"),
                valuesAfter(tags, "column 1 tag"));
    }

    /** The values of the row listing that follows the line starting with {@code title}. */
    private static List<String> valuesAfter(Run run, String title) {
        List<String> lines = run.lines();
        int start = -1;
        for (int index = 0; index < lines.size(); index++) {
            if (lines.get(index).startsWith(title)) {
                start = index + 2;
            }
        }
        assertTrue(start > 0, () -> title + " in\n" + run);
        List<String> values = new java.util.ArrayList<>();
        for (String line : lines.subList(start, lines.size())) {
            if (line.isBlank()) {
                break;
            }
            String trimmed = line.trim();
            values.add(trimmed.substring(trimmed.indexOf(' ')).trim());
        }
        return values;
    }

    @Test
    void dictionaryFileDumpListsTheSortedEntriesAgainstTheCap() throws Exception {
        Path file = ColumnstoreFixture.tableDirectory(directory, facts.salesId()).resolve("dict-1.cdict");
        Run run = inspect(file);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals("dictionary file " + file, run.lines().getFirst());
        assertEquals(1, run.linesWith("  column          1 region VARCHAR(20)").size(), run::toString);
        assertEquals(1, run.linesWith("  entries         5").size(), run::toString);
        long dictionaryBytes = Files.size(file) - DictionaryFileFormat.HEADER_SIZE;
        assertEquals(1, run.linesWith("  format version  2").size(), run::toString);
        assertEquals(1, run.linesWith("  checksum        0x", " OK").size(), run::toString);
        assertEquals(1, run.linesWith("  dictionary      " + dictionaryBytes + " bytes at offset 24").size(), run::toString);
        assertEquals(1, run.linesWith("  cap             1024 bytes (the table's dictionary_cap): this dictionary is "
                + dictionaryBytes * 100 / 1024 + "% of it").size(), run::toString);
        assertEquals(1, run.linesWith("  check           OK: checksum, header").size(), run::toString);
        assertEquals(List.of("'centre'", "'east'", "'north'", "'south'", "'west'"),
                ColumnstoreFixture.REGIONS.stream().sorted().map(region -> "'" + region + "'").toList());
        List<String> entries = valuesAfter(run, "entries 0 to 4 of 5").stream()
                .map(line -> line.substring(line.indexOf('\''))).toList();
        assertEquals(List.of("'centre'", "'east'", "'north'", "'south'", "'west'"), entries, run::toString);
    }

    @Test
    void catalogAddsAPerColumnSummaryWithDictionarySizesAgainstTheCap() throws Exception {
        Run run = inspect(directory, "--catalog");
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals(2, run.linesWith("    organization    columnstore").size(), run::toString);
        assertEquals(1, run.linesWith("columns of table " + facts.salesId() + " sales: 3 compressed rowgroups; "
                + "dictionary_cap 1024 bytes, dictionary_overflow fallback").size(), run::toString);
        String region = row(run, "1 region", "VARCHAR(20)");
        assertTrue(region.contains(" DICTIONARY x3 ") && region.contains("5 entries, ")
                && region.endsWith("2, largest 63 bytes (6% of the cap)"), region);
        String note = row(run, "2 note", "VARCHAR(40)");
        assertEquals(List.of("PLAIN", "x3", "3", "-", "-"), List.of(tokens(note)).subList(5, 10), note);
        String tag = row(run, "1 tag", "VARCHAR(40)");
        long primary = Files.size(ColumnstoreFixture.dictionaryFile(directory, facts.trimmedId(), 1))
                - DictionaryFileFormat.HEADER_SIZE;
        assertTrue(tag.contains(facts.trimmedRowgroups().getFirst().totalRows() + " entries, " + primary + " bytes ("
                + primary * 100 / 1024 + "% of the cap)"), tag);
    }

    @Test
    void columnstoreOptionShowsOneTable() throws Exception {
        for (Object table : List.of("trimmed", facts.trimmedId())) {
            Run run = inspect(directory, "--columnstore", table);
            assertEquals(Inspect.OK, run.exitCode(), run::toString);
            assertEquals(0, run.linesWith("sales").size(), run::toString);
            assertEquals(facts.trimmedRowgroups().size(), run.linesWith(" COMPRESSED ").size(), run::toString);
            assertEquals(1, run.linesWith("columns of table " + facts.trimmedId() + " trimmed").size(), run::toString);
        }
    }

    @Test
    void aRowgroupFileOutOfItsDatabaseReadsWithTypesFromItsSegments() throws Exception {
        Path copy = work.resolve("copy.bin");
        Files.copy(ColumnstoreFixture.rowgroupFile(directory, facts.salesId(), 0), copy);
        Run run = inspect(copy, "--column", 0, "--rows", 2);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals("rowgroup file " + copy, run.lines().getFirst());
        assertEquals(1, run.linesWith("  table           unknown: the file does not lie in a database directory").size(),
                run::toString);
        assertEquals(1, run.linesWith("0", " INT ", " VALUE ", " 1 ", " 1000 ").size(), run::toString);
        assertEquals(List.of("1", "2"), valuesAfter(run, "column 0 INT"));
    }

    @Test
    void columnstoreOptionsMustFitTheirFiles() throws Exception {
        Path file = ColumnstoreFixture.rowgroupFile(directory, facts.salesId(), 0);
        Path dataFile = directory.resolve("data").resolve("columba.data");
        assertUsage(inspect(file, "--column", 4), "--column 4: " + file + " has 4 columns (0 to 3)");
        assertUsage(inspect(file, "--rows", 4), "--rows goes with --column N on a rowgroup file");
        assertUsage(inspect(file, "--pages"), "--pages is for the data file; " + file + " is a rowgroup file");
        assertUsage(inspect(dataFile, "--columnstore", "sales"), "--columnstore is for a database directory; " + dataFile
                + " is a data file");
        assertUsage(inspect(directory, "--column", 1), "--column is for a rowgroup file; " + directory
                + " is a database directory");
        assertUsage(inspect(directory, "--columnstore", "nosuch"), "no table or index named 'nosuch' in the catalog; it has "
                + "sales, trimmed");
        assertUsage(inspect(file, "--column", "x"), "Invalid value for option '--column': 'x' is not an int");
        assertUsage(inspect(file, "--column", "-2"), "--column needs a column number (0 or more), got -2");
    }

    private static void assertUsage(Run run, String message) {
        assertEquals(Inspect.USAGE, run.exitCode(), run::toString);
        assertTrue(run.err().startsWith("columba inspect: " + message + "\n"), run::toString);
    }
}
