package dev.columba.bench.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where flips after a crash land: a database with a rowstore and a compressed columnstore table has
 * places of every kind the golden list names for them, each place is inside its file, and the
 * kinds take turns, so that a run of as many flips as there are kinds hits every kind the database
 * has.
 */
class CrashFlipTargetsTest {
    @TempDir
    Path directory;

    @Test
    void everyFileAndPageKindOfTheDatabaseIsFoundAndTakesItsTurn() throws Exception {
        Path database = directory.resolve("db");
        FileDamageCampaign.build(database);
        Map<String, ?> places = CrashFlipTargets.places(database);
        List<String> expected = List.of(CrashFlipTargets.WAL, CrashFlipTargets.CONTROL, CrashFlipTargets.PROPERTIES,
                CrashFlipTargets.CATALOG, CrashFlipTargets.TABLE_LEAF, CrashFlipTargets.TABLE_INTERNAL,
                CrashFlipTargets.COLUMNSTORE_METADATA, CrashFlipTargets.ROWGROUP, CrashFlipTargets.DICTIONARY,
                CrashFlipTargets.OBJECT_ALLOCATION_MAP, CrashFlipTargets.BOOT, CrashFlipTargets.GLOBAL_ALLOCATION_MAP,
                CrashFlipTargets.FILE_HEADER, CrashFlipTargets.FILE_MANIFEST);
        for (String kind : expected) {
            assertTrue(places.containsKey(kind), kind + " found among " + places.keySet());
        }
        assertTrue(CrashFlipTargets.KINDS.containsAll(places.keySet()), "every kind found is in the golden list: "
                + places.keySet());

        Set<String> hit = new HashSet<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int index = 0; index < CrashFlipTargets.KINDS.size(); index++) {
            CrashFlipTargets.Target target = CrashFlipTargets.choose(database, index, random);
            hit.add(target.kind());
            long size = Files.size(database.resolve(target.file()));
            assertTrue(target.offset() >= 0 && target.offset() < size, target + " inside its file of " + size + " bytes");
            if (target.kind().startsWith("data page:")) {
                assertTrue(target.file().toString().endsWith(".data"), target::toString);
            }
        }
        assertEquals(places.keySet(), hit, "one turn of the kinds hits every kind the database has");
    }

    /**
     * The checksummed kinds, on whose flips the campaigns insist on detection with the file named,
     * are files of the golden list that the campaign's database has; a flip in any byte of the two
     * text files among them (eight each, at random) makes the opening through JDBC fail naming it.
     */
    @Test
    void aFlipInAChecksummedFileRefusesTheOpeningNamingTheFile() throws Exception {
        Path database = directory.resolve("db");
        FileDamageCampaign.build(database);
        Map<String, List<CrashFlipTargets.Place>> places = CrashFlipTargets.places(database);
        assertEquals(Set.of(CrashFlipTargets.CONTROL, CrashFlipTargets.PROPERTIES, CrashFlipTargets.FILE_MANIFEST),
                CrashFlipTargets.CHECKSUMMED);
        for (String kind : CrashFlipTargets.CHECKSUMMED) {
            assertTrue(CrashFlipTargets.KINDS.contains(kind), kind);
            assertEquals(List.of(Path.of(kind)), places.get(kind).stream().map(CrashFlipTargets.Place::file).toList());
        }
        SplittableRandom random = new SplittableRandom(11);
        for (String kind : List.of(CrashFlipTargets.PROPERTIES, CrashFlipTargets.FILE_MANIFEST)) {
            byte[] pristine = Files.readAllBytes(database.resolve(kind));
            for (int flip = 0; flip < 8; flip++) {
                Path copy = directory.resolve("flip-" + kind.replace('/', '-') + "-" + flip);
                FileDamageCampaign.copyRecursively(database, copy);
                byte[] damaged = pristine.clone();
                int offset = random.nextInt(damaged.length);
                damaged[offset] ^= (byte) (1 << random.nextInt(8));
                Path file = copy.resolve(kind);
                Files.write(file, damaged);
                java.sql.SQLException refused = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                        () -> java.sql.DriverManager.getConnection("jdbc:columba:" + copy).close(), kind + " offset " + offset);
                assertTrue(refused.getMessage().contains(file.toString()), refused::getMessage);
                assertTrue(java.util.Arrays.equals(damaged, Files.readAllBytes(file)), "the damaged file is left as it was");
            }
        }
    }

    /**
     * A filegroup's files are data files wherever ADD FILE put them (here at the database's top):
     * their pages are classified like the primary file's, so a table on a filegroup gets flips in
     * its B+tree pages, and no file of theirs is a kind outside the golden list.
     */
    @Test
    void aFilegroupsFilesArePagesOfTheirKinds() throws Exception {
        Path database = directory.resolve("fg");
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection("jdbc:columba:" + database);
             java.sql.Statement statement = connection.createStatement()) {
            statement.execute("ALTER DATABASE CURRENT ADD FILEGROUP fg");
            statement.execute("ALTER DATABASE CURRENT ADD FILE (NAME = f1, FILENAME = 'fg1.data') TO FILEGROUP fg");
            statement.execute("CREATE TABLE r (id BIGINT PRIMARY KEY, s VARCHAR(40)) ON fg");
            statement.executeUpdate("INSERT INTO r SELECT generate_series, 'row' FROM generate_series(1, 20000)");
        }
        Map<String, List<CrashFlipTargets.Place>> places = CrashFlipTargets.places(database);
        assertTrue(CrashFlipTargets.KINDS.containsAll(places.keySet()), "every kind found is in the golden list: "
                + places.keySet());
        assertTrue(places.get(CrashFlipTargets.TABLE_LEAF).stream().anyMatch(place -> place.file().toString().equals("fg1.data")),
                "leaf pages of the table on the filegroup: " + places.get(CrashFlipTargets.TABLE_LEAF));
    }
}
