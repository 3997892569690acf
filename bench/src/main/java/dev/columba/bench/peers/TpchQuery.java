package dev.columba.bench.peers;

/**
 * The suite's queries over lineitem, one SQL text that every engine runs as written: TPC-H Q1 and
 * Q6 with the specification's validation parameters (clause 2.4.1.3: DELTA = 90; 2.4.6.3: DATE =
 * 1994-01-01, DISCOUNT = 0.06, QUANTITY = 24), and an aggregate over every column, without and with
 * a filter every row passes (Columba answers the first from its footers where it can).
 */
public enum TpchQuery {
    /** Pricing summary report: eight aggregates in four groups over 98% of the rows, seven columns read. */
    Q1("TPC-H Q1", """
            SELECT l_returnflag, l_linestatus,
                   SUM(l_quantity) AS sum_qty,
                   SUM(l_extendedprice) AS sum_base_price,
                   SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
                   SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
                   AVG(l_quantity) AS avg_qty,
                   AVG(l_extendedprice) AS avg_price,
                   AVG(l_discount) AS avg_disc,
                   COUNT(*) AS count_order
            FROM lineitem
            WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY
            GROUP BY l_returnflag, l_linestatus
            ORDER BY l_returnflag, l_linestatus"""),
    /** Forecasting revenue change: one sum over 2% of the rows, four columns read. */
    Q6("TPC-H Q6", """
            SELECT SUM(l_extendedprice * l_discount) AS revenue
            FROM lineitem
            WHERE l_shipdate >= DATE '1994-01-01'
              AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
              AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
              AND l_quantity < 24"""),
    /** A full-scan aggregate: every one of the sixteen columns of every row. */
    SCAN("full-scan aggregate", Text.SCAN),
    /**
     * The full-scan aggregate with a filter every row passes ({@code l_quantity >= 0}): Columba answers
     * the unfiltered one from its rowgroups' footers and packed segments without decoding a string, which
     * this one does not allow, so it measures decoding every column of every row as the plain one once did.
     */
    SCAN_FILTERED("full-scan aggregate, filtered", Text.SCAN + "\nWHERE l_quantity >= 0");

    /** Texts more than one query shares (a class of its own: an enum's constants cannot read its static fields). */
    private static final class Text {
        static final String SCAN = """
            SELECT COUNT(*) AS row_count,
                   SUM(CAST(l_orderkey AS BIGINT)) AS sum_orderkey,
                   SUM(CAST(l_partkey AS BIGINT)) AS sum_partkey,
                   SUM(CAST(l_suppkey AS BIGINT)) AS sum_suppkey,
                   SUM(CAST(l_linenumber AS BIGINT)) AS sum_linenumber,
                   SUM(l_quantity) AS sum_quantity,
                   SUM(l_extendedprice) AS sum_extendedprice,
                   SUM(l_discount) AS sum_discount,
                   SUM(l_tax) AS sum_tax,
                   MIN(l_returnflag) AS min_returnflag,
                   MAX(l_linestatus) AS max_linestatus,
                   MIN(l_shipdate) AS min_shipdate,
                   MAX(l_commitdate) AS max_commitdate,
                   MAX(l_receiptdate) AS max_receiptdate,
                   MIN(l_shipinstruct) AS min_shipinstruct,
                   MAX(l_shipmode) AS max_shipmode,
                   MAX(l_comment) AS max_comment
            FROM lineitem""";
    }

    private final String title;
    private final String sql;

    TpchQuery(String title, String sql) {
        this.title = title;
        this.sql = sql;
    }

    public String title() {
        return title;
    }

    public String sql() {
        return sql;
    }
}
