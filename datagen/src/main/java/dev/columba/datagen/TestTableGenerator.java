package dev.columba.datagen;

import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;

/**
 * Seed 000's {@code dbo.TestTable}, the table behind its read-ahead and random-prefetch
 * experiments:
 *
 * <pre>
 * ID          INT          NOT NULL  IDENTITY(1,1), the unique clustered key: row index + 1
 * IDvarchar   VARCHAR(50)  NOT NULL  CAST(ID AS varchar(50)) PERSISTED
 * intcolumn   INT                    s1.number of spt_values s1 CROSS JOIN spt_values s2
 * NAME        VARCHAR(50)  NOT NULL  'Some Random Data..'
 * Age         INT          NOT NULL  s1.number % 10 + 25
 * Randomvalue BIGINT                 CAST(RAND(CHECKSUM(NEWID())) * ID AS int): uniform in [0, ID)
 * </pre>
 *
 * <p>{@code intcolumn}: the seed fills it from {@code master.dbo.spt_values}, whose type 'P' rows
 * hold the numbers 0..2047 (its other few hundred rows hold assorted small codes), and the cross
 * join repeats the inner side's numbers for every row of the outer side. This generator keeps
 * that shape and leaves out the irregular rows: {@code intcolumn = (ID - 1) % 2048}, cycling 0, 1,
 * ..., 2047, 0, 1, ..., so {@code Age} cycles through 25..34. It is never NULL although the seed
 * declares it nullable.
 *
 * <p>{@code Randomvalue} is the seed's {@code RAND() * ID} truncated, with the per-row random
 * number derived from (seed, ID) instead of {@code NEWID()}. The seed later runs {@code ALTER COLUMN
 * Randomvalue int NOT NULL}; the column stays BIGINT here as declared, never NULL.
 */
public final class TestTableGenerator implements TableGenerator {
    public static final String TABLE_NAME = "TestTable";

    /**
     * About the seed's row count: {@code spt_values} has about 2,500 rows, so its cross join with
     * itself gave about 6.25 million.
     */
    public static final long SEED_ROW_COUNT = 2_500L * 2_500L;

    /** The count of {@code spt_values} numbers of type 'P' (0..2047) that {@code intcolumn} cycles through. */
    public static final int INTCOLUMN_CYCLE = 2048;

    public static final String NAME_VALUE = "Some Random Data..";

    private static final TableSchema SCHEMA = TableSchema.of(
            Column.notNull("ID", SqlType.INT),
            Column.notNull("IDvarchar", SqlType.varchar(50)),
            Column.nullable("intcolumn", SqlType.INT),
            Column.notNull("NAME", SqlType.varchar(50)),
            Column.notNull("Age", SqlType.INT),
            Column.nullable("Randomvalue", SqlType.BIGINT));

    /** The random stream of {@code Randomvalue}; see {@link RowRandom}. */
    private static final long RANDOMVALUE_STREAM = 1;

    private final long rowCount;
    private final long seed;

    /**
     * @param rowCount rows to generate, 0 to {@link Integer#MAX_VALUE} (ID is an INT identity)
     * @param seed seeds {@code Randomvalue}, the only column that is random
     */
    public TestTableGenerator(long rowCount, long seed) {
        RowRanges.checkRowCount(TABLE_NAME, rowCount, Integer.MAX_VALUE);
        this.rowCount = rowCount;
        this.seed = seed;
    }

    @Override
    public String tableName() {
        return TABLE_NAME;
    }

    @Override
    public TableSchema schema() {
        return SCHEMA;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    public long seed() {
        return seed;
    }

    @Override
    public RowCursor cursor(long fromRow, long toRow) {
        RowRanges.checkRange(TABLE_NAME, rowCount, fromRow, toRow);
        RowRandom random = new RowRandom(seed, RANDOMVALUE_STREAM);
        return new IndexedRowCursor(SCHEMA.size(), fromRow, toRow, (rowIndex, row) -> {
            int id = (int) (rowIndex + 1);
            int number = (int) (rowIndex % INTCOLUMN_CYCLE);
            random.startRow(rowIndex);
            row[0] = id;
            row[1] = Integer.toString(id);
            row[2] = number;
            row[3] = NAME_VALUE;
            row[4] = number % 10 + 25;
            row[5] = random.nextLong(id);
        });
    }
}
