package dev.columba.cli.inspect;

import static dev.columba.cli.inspect.InspectFixture.inspect;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.cli.inspect.InspectFixture.Run;
import dev.columba.columnstore.file.RowgroupFile;
import dev.columba.columnstore.file.RowgroupFileFormat;
import dev.columba.storage.io.NativeFilesFacade;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged columnstore files: inspect reports each problem with its file and offset, keeps dumping
 * what it can, and exits with 1, never with a stack trace. Orphan files are flagged but are no
 * damage.
 */
class InspectColumnstoreCorruptionTest {
    @TempDir
    static Path pristine;
    static ColumnstoreFixture.Facts facts;

    @TempDir
    Path work;

    @BeforeAll
    static void createDatabase() {
        facts = ColumnstoreFixture.createDatabase(pristine);
    }

    private Path copy() throws IOException {
        return InspectFixture.copy(pristine, work.resolve("db"));
    }

    /** Where blob {@code blob} of a healthy rowgroup file starts, as the columnstore's reader says. */
    private static long blobOffset(Path file, int blob) {
        try (RowgroupFile rowgroup = RowgroupFile.open(NativeFilesFacade.INSTANCE, file)) {
            return rowgroup.segmentOffset(blob);
        }
    }

    /** Where the footer of a healthy rowgroup file starts, as its trailer says. */
    private static long footerOffset(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return ByteBuffer.wrap(bytes, bytes.length - RowgroupFileFormat.TRAILER_SIZE, 8).order(ByteOrder.LITTLE_ENDIAN)
                .getLong();
    }

    private static String blobLine(Run run, int blob) {
        for (String line : run.lines()) {
            String trimmed = line.trim();
            if (trimmed.startsWith(blob + " ") && (trimmed.contains(" OK ") || trimmed.contains(" BAD "))
                    && trimmed.contains("0x")) {
                return line;
            }
        }
        throw new AssertionError("no line for blob " + blob + " in\n" + run);
    }

    private static void assertDamaged(Run run) {
        assertEquals(Inspect.DAMAGED, run.exitCode(), run::toString);
        assertEquals("", run.err(), run::toString);
    }

    @Test
    void flippedByteInASegmentMarksThatBlobBadAndTheRestStillDumps() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 1);
        long offset = blobOffset(file, 2);
        InspectFixture.flipByte(file, offset + 100);

        Run run = inspect(file);
        assertDamaged(run);
        assertTrue(blobLine(run, 2).contains(" BAD "), blobLine(run, 2));
        for (int blob : new int[] {0, 1, 3, 5}) {
            assertTrue(blobLine(run, blob).contains(" OK "), blobLine(run, blob));
        }
        assertEquals(1, run.linesWith("  8 blobs, 1 BAD").size(), run::toString);
        assertEquals(1, run.problems().size(), run::toString);
        assertTrue(run.problems().getFirst().startsWith(file + " (offset " + offset + "): blob 2 (segment of column 2 note)"
                + " checksum BAD: stored 0x"), run::toString);
        assertEquals(2, run.linesWith("3 amount", " VALUE ").size(), "the other segments are still shown\n" + run);

        // The directory summary finds it too, and its --column still decodes what is left.
        Run summary = inspect(database);
        assertDamaged(summary);
        assertEquals(1, summary.linesWith("1.crg", " BAD ", "rowgroup 1: ").size(), summary::toString);
        assertEquals(run.problems(), summary.problems(), summary::toString);
        Run column = inspect(file, "--column", 1, "--rows", 2);
        assertDamaged(column);
        assertEquals(1, column.linesWith("column 1 region VARCHAR(20): rows 0 to 1 of 1000").size(), column::toString);
    }

    @Test
    void strayRowgroupFileIsFlaggedAsAnOrphanButIsNoDamage() throws Exception {
        Path database = copy();
        Path tableDirectory = ColumnstoreFixture.tableDirectory(database, facts.salesId());
        Files.copy(tableDirectory.resolve("0.crg"), tableDirectory.resolve("9.crg"));
        Files.write(tableDirectory.resolve("4.crg.tmp"), new byte[100]);

        Run run = inspect(database);
        assertEquals(Inspect.OK, run.exitCode(), run::toString);
        assertEquals(1, run.linesWith("      9.crg ", " orphan: no compressed rowgroup 9 in the directory refers to it").size(),
                run::toString);
        assertEquals(1, run.linesWith("      4.crg.tmp ", " orphan: a file whose write was interrupted").size(), run::toString);
        assertEquals(1, run.linesWith("(orphans are left by a rolled-back or killed build").size(), run::toString);

        Run file = inspect(tableDirectory.resolve("9.crg"));
        assertEquals(1, file.linesWith("  directory       no rowgroup 9 in the rowgroup directory: an orphan").size(),
                file::toString);
        assertEquals(List.of(tableDirectory.resolve("9.crg") + " (offset 16): rowgroup id 0, but the file's name says 9"),
                file.problems(), file::toString);
    }

    @Test
    void compressedRowgroupWhoseFileIsMissingIsCorruption() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 2);
        Files.delete(file);
        Run run = inspect(database);
        assertDamaged(run);
        assertEquals(List.of("table " + facts.salesId() + " sales: rowgroup 2 is COMPRESSED but its file " + file
                + " is missing"), run.problems(), run::toString);
        assertEquals(1, run.linesWith("      2.crg ", " MISSING ").size(), run::toString);
    }

    @Test
    void truncatedFileReportsTheLostTrailerAndListsTheSegmentsItStillHolds() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 1);
        long secondSegment = blobOffset(file, 1);
        long length = secondSegment + 200;
        InspectFixture.truncate(file, length);

        Run run = inspect(file);
        assertDamaged(run);
        assertEquals(1, run.problemsStartingWith(file + " (offset " + (length - 8) + "): the file ends with 0x").size(),
                run::toString);
        assertEquals(1, run.problemsStartingWith(file + " is " + length + " bytes long, the rowgroup directory says ").size(),
                run::toString);
        assertEquals(1, run.linesWith("the footer cannot be found: 2 segments and dictionaries found at 8192-byte boundaries")
                .size(), run::toString);
        assertEquals(1, run.linesWith("8192", "segment 0?", "VALUE INT, 1000 rows, 0 nulls").size(), run::toString);
        assertEquals(1, run.linesWith(secondSegment + "", "segment 1?", "DICTIONARY STRING, 1000 rows").size(), run::toString);

        for (long shorter : new long[] {RowgroupFileFormat.HEADER_SIZE + 10, 10, 0}) {
            InspectFixture.truncate(file, shorter);
            Run cut = inspect(file, "--column", 1);
            assertDamaged(cut);
            assertTrue(cut.problems().stream().anyMatch(problem -> problem.startsWith(file + " is " + shorter
                    + " bytes long, shorter than ") && problem.endsWith("the file is cut short")), cut::toString);
        }
    }

    @Test
    void badMagicAndBadHeaderChecksumAreReportedWithTheirOffsets() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 0);
        InspectFixture.overwrite(file, 0, "NOTARGRP".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Run run = inspect(file);
        assertDamaged(run);
        assertEquals(1, run.problemsStartingWith(file + " (offset 0): magic 0x5052475241544f4e, expected "
                + "0x50524752424d4c43 (\"CLMBRGRP\")").size(), run::toString);
        assertEquals(1, run.problemsStartingWith(file + " (offset 60): header checksum BAD: stored 0x").size(), run::toString);
        assertEquals(1, run.linesWith("  8 blobs, 0 BAD").size(), "the footer still finds the blobs\n" + run);

        Path other = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 2);
        InspectFixture.flipByte(other, 20);
        Run header = inspect(other);
        assertDamaged(header);
        assertEquals(1, header.problems().size(), header::toString);
        assertTrue(header.problems().getFirst().startsWith(other + " (offset 60): header checksum BAD: stored 0x"),
                header::toString);
        assertEquals(1, header.linesWith("  header checksum 0x", " BAD, computed 0x").size(), header::toString);
    }

    @Test
    void badFooterChecksumIsReportedAndItsEntriesShownAsFound() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.trimmedId(), 1);
        long footer = footerOffset(file);
        InspectFixture.flipByte(file, footer + 40);
        Run run = inspect(file);
        assertDamaged(run);
        assertEquals(1, run.problemsStartingWith(file + " (offset " + footer + "): footer checksum BAD: stored 0x").size(),
                run::toString);
        assertEquals(1, run.linesWith("  footer          offset " + footer + ", ", " BAD, computed 0x").size(), run::toString);
    }

    @Test
    void damagedDictionaryFileIsReportedWithTheOffsetOfItsDamage() throws Exception {
        Path database = copy();
        Path file = ColumnstoreFixture.tableDirectory(database, facts.salesId()).resolve("dict-1.cdict");
        // Entry 0 is 'centre': make it 'zentre', after every other entry.
        long dataStart = 24 + 4L * ColumnstoreFixture.REGIONS.size();
        InspectFixture.overwrite(file, dataStart, (byte) 'z');
        Run run = inspect(file);
        assertDamaged(run);
        assertEquals(1, run.problemsStartingWith(file + ": dictionary entry 1 at offset ").size(), run::toString);
        assertTrue(run.problems().getFirst().contains("does not sort after entry 0"), run::toString);
        assertEquals(1, run.linesWith("(the entries are not listed: the dictionary does not read)").size(), run::toString);

        Run summary = inspect(database);
        assertDamaged(summary);
        assertEquals(1, summary.linesWith("dict-1.cdict", " BAD ").size(), summary::toString);

        InspectFixture.truncate(file, 10);
        Run cut = inspect(file);
        assertDamaged(cut);
        assertEquals(List.of(file + " is 10 bytes long, shorter than the 24-byte dictionary header: the file is cut short"),
                cut.problems(), cut::toString);
    }

    /**
     * Random damage in the header, footer, trailer and segments of a rowgroup file and anywhere in
     * its dictionary: every dump ends with exit code 0 or 1 and nothing on stderr, never an
     * exception. Half the rounds stamp the checksums again, as a buggy writer would leave them, so
     * that the damage reaches the decoders behind the checksums. The seed is printed and replays
     * with {@code -Dinspect.seed=N}.
     */
    @Test
    void randomDamageNeverStopsTheDump() throws Exception {
        long seed = Long.getLong("inspect.seed", System.nanoTime());
        Random random = new Random(seed);
        Path database = copy();
        Path file = ColumnstoreFixture.rowgroupFile(database, facts.salesId(), 1);
        Path dictionary = ColumnstoreFixture.tableDirectory(database, facts.salesId()).resolve("dict-1.cdict");
        byte[] original = Files.readAllBytes(file);
        byte[] originalDictionary = Files.readAllBytes(dictionary);
        long[] hotSpots = {0, blobOffset(file, 0), blobOffset(file, 1), blobOffset(file, 2), blobOffset(file, 5),
            footerOffset(file), original.length - RowgroupFileFormat.TRAILER_SIZE};
        int damaged = 0;
        for (int round = 0; round < 24; round++) {
            byte[] bytes = original.clone();
            for (int change = 0; change < 1 + random.nextInt(8); change++) {
                long base = hotSpots[random.nextInt(hotSpots.length)];
                int offset = (int) Math.min(bytes.length - 1, base + random.nextInt(64));
                bytes[offset] = (byte) random.nextInt(256);
            }
            if (random.nextBoolean()) {
                stampChecksums(bytes);
            }
            Files.write(file, random.nextInt(6) == 0 ? Arrays.copyOf(bytes, random.nextInt(bytes.length)) : bytes);
            byte[] dictionaryBytes = originalDictionary.clone();
            dictionaryBytes[random.nextInt(dictionaryBytes.length)] = (byte) random.nextInt(256);
            Files.write(dictionary, dictionaryBytes);
            String context = "seed " + seed + " (replay with -Dinspect.seed=" + seed + "), round " + round;
            for (Run run : List.of(inspect(file, "--column", random.nextInt(4)), inspect(dictionary), inspect(database))) {
                assertTrue(run.exitCode() == Inspect.OK || run.exitCode() == Inspect.DAMAGED, () -> context + "\n" + run);
                assertEquals("", run.err(), () -> context + "\n" + run);
                if (run.exitCode() == Inspect.DAMAGED) {
                    damaged++;
                }
            }
        }
        assertTrue(damaged > 0, "seed " + seed + ": the damage was never noticed");
        System.out.println("randomDamageNeverStopsTheDump: seed " + seed);
    }

    /**
     * Computes every checksum of a rowgroup file's bytes again (header, each blob the footer names,
     * footer), as far as the trailer and footer still lead to them.
     */
    private static void stampChecksums(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(60, crc(bytes, 0, 60));
        int trailer = bytes.length - RowgroupFileFormat.TRAILER_SIZE;
        long footer = buffer.getLong(trailer);
        int footerLength = buffer.getInt(trailer + 8);
        if (footer < RowgroupFileFormat.HEADER_SIZE || footerLength < 0 || footer + footerLength != trailer) {
            return;
        }
        for (int at = (int) footer; at + 24 <= trailer; ) {
            long offset = buffer.getLong(at);
            long length = buffer.getLong(at + 8);
            int metadata = buffer.getInt(at + 16 + 4);
            if (offset < 0 || length < 0 || offset + length > footer || metadata < 0 || metadata > trailer - at - 24) {
                break;
            }
            buffer.putInt(at + 16, crc(bytes, (int) offset, (int) length));
            at += 24 + metadata;
        }
        buffer.putInt(trailer + 12, crc(bytes, (int) footer, footerLength));
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
