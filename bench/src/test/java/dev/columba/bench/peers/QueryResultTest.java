package dev.columba.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryResultTest {
    private static QueryResult of(String... row) {
        return new QueryResult(List.of(List.of(row)));
    }

    @Test
    void averagesTypedDifferentlyAgreeToTheCent() {
        // Q1's avg_qty as a DOUBLE, a wide DECIMAL and a DECIMAL(15,2) give it.
        QueryResult duckDb = of("A", "25.522005853257337");
        assertEquals(Optional.empty(), duckDb.difference(of("A", "25.5220058532573370")));
        assertEquals(Optional.empty(), duckDb.difference(of("A", "25.52")));
        assertEquals(Optional.of("row 1, column 2: 25.522005853257337 against 25.54"),
                duckDb.difference(of("A", "25.54")));
    }

    @Test
    void largeSumsAgreeWithinATrillionthOtherwiseExactly() {
        assertEquals(Optional.empty(), of("53348382088.1234").difference(of("53348382088.1634")));
        assertEquals(Optional.of("row 1, column 1: 53348382088.1234 against 53348382088.2234"),
                of("53348382088.1234").difference(of("53348382088.2234")));
        assertEquals(Optional.empty(), of("53348382088.12").difference(of("53348382088.13")));
        assertEquals(Optional.of("row 1, column 1: 53348382088.12 against 53348382188.12"),
                of("53348382088.12").difference(of("53348382188.12")));
        assertEquals(Optional.of("row 1, column 1: 6001215 against 6001214"), of("6001215").difference(of("6001214")));
    }

    @Test
    void textAndDatesMustBeEqualAndShapesMustMatch() {
        assertEquals(Optional.of("row 1, column 1: 1998-12-01 against 1998-12-02"),
                of("1998-12-01").difference(of("1998-12-02")));
        assertEquals(Optional.of("row 1, column 1: N against O"), of("N").difference(of("O")));
        assertEquals(Optional.of("1 rows against 0"), of("N").difference(new QueryResult(List.of())));
        assertEquals(Optional.of("row 1 has 1 columns against 2"), of("N").difference(of("N", "O")));
    }

    @Test
    void jsonRoundTripsAndBadJsonNamesWhereItCameFrom() {
        QueryResult result = new QueryResult(List.of(List.of("A", "F", "1.5"), List.of("N", "O", "NULL")));
        assertEquals(result, QueryResult.fromJson(result.toJson(), "test"));
        ColumbaException error = assertThrows(ColumbaException.class,
                () -> QueryResult.fromJson("{\"rows\": 1}", "expected.Q1 in marker"));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.errorCode());
        assertEquals(true, error.getMessage().contains("expected.Q1 in marker"), error.getMessage());
    }
}
