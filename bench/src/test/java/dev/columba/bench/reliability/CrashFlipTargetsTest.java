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
                CrashFlipTargets.FILE_HEADER);
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
}
