package dev.columba.datagen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 000's TestTable: the seed's column definitions hold on every row. */
class TestTableGeneratorTest extends TableGeneratorContractTest {

    @Override
    protected List<TableGenerator> newGenerators() {
        return List.of(new TestTableGenerator(5_000, seed), new TestTableGenerator(0, seed), new TestTableGenerator(1, seed));
    }

    @Test
    void everyRowFollowsTheSeedsDefinitions() {
        TestTableGenerator generator = new TestTableGenerator(100_000, seed);
        RowCursor cursor = generator.cursor();
        double randomFractionSum = 0;
        while (cursor.next()) {
            Object[] row = cursor.row();
            int id = (Integer) row[0];
            String context = "ID " + id + ", " + TestSeed.describe(seed);
            assertEquals(cursor.rowIndex() + 1, id, context);
            assertEquals(String.valueOf(id), row[1], context);
            int number = (Integer) row[2];
            assertEquals((id - 1) % TestTableGenerator.INTCOLUMN_CYCLE, number, context);
            assertEquals("Some Random Data..", row[3], context);
            assertEquals(number % 10 + 25, row[4], context);
            long randomValue = (Long) row[5];
            assertTrue(randomValue >= 0 && randomValue < id, context + ": Randomvalue " + randomValue);
            randomFractionSum += (randomValue + 0.5) / id;
        }
        // RAND() * ID is uniform in [0, ID): the mean fraction is 1/2, with a standard error of 0.001 here.
        double meanFraction = randomFractionSum / generator.rowCount();
        assertEquals(0.5, meanFraction, 0.01, TestSeed.describe(seed));
    }

    @Test
    void intcolumnCyclesThroughTheSptValuesNumbers() {
        List<Object[]> rows = collect(new TestTableGenerator(4_100, seed).cursor());
        assertEquals(0, rows.get(0)[2]);
        assertEquals(2047, rows.get(2047)[2]);
        assertEquals(0, rows.get(2048)[2]);
        assertEquals(3, rows.get(4_099)[2]);
        assertEquals(25, rows.get(2048)[4]);
        assertEquals(32, rows.get(2047)[4]);
    }

    @Test
    void aShorterTableIsAPrefixOfALongerOne() {
        List<Object[]> shorter = collect(new TestTableGenerator(1_000, seed).cursor());
        List<Object[]> longer = collect(new TestTableGenerator(3_000, seed).cursor(0, 1_000));
        assertSameRows(shorter, longer, TestSeed.describe(seed));
    }

    @Test
    void theSeedChoosesRandomvalue() {
        List<Object[]> one = collect(new TestTableGenerator(1_000, 1).cursor());
        List<Object[]> other = collect(new TestTableGenerator(1_000, 2).cursor());
        int differing = 0;
        for (int rowIndex = 0; rowIndex < one.size(); rowIndex++) {
            if (!one.get(rowIndex)[5].equals(other.get(rowIndex)[5])) {
                differing++;
            }
        }
        assertTrue(differing > 900, differing + " of 1000 Randomvalues differ between seeds 1 and 2");
    }

    /** Pins the values: a change here changes every test, benchmark and demo that used them. */
    @Test
    void valuesArePinnedForAFixedSeed() {
        List<Object[]> rows = collect(new TestTableGenerator(1_000_000, 42).cursor(999_990, 1_000_000));
        StringBuilder actual = new StringBuilder();
        for (Object[] row : rows) {
            actual.append(row[5]).append(' ');
        }
        assertEquals(PINNED_RANDOMVALUES_SEED_42, actual.toString().trim());
    }

    private static final String PINNED_RANDOMVALUES_SEED_42 =
            "224663 947813 965880 11282 328268 147905 330591 649873 834296 158695";

    @Test
    void rowCountsAnIntIdentityCannotHoldAreRejected() {
        ColumbaException error = assertThrows(ColumbaException.class, () -> new TestTableGenerator(1L << 31, 1));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals("[INVALID_ARGUMENT] row count 2147483648 for table TestTable must be between 0 and 2147483647",
                error.getMessage());
        assertThrows(ColumbaException.class, () -> new TestTableGenerator(-1, 1));
    }
}
