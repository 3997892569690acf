package dev.columba.bench.load;

/** Where the load suite's {@code COPY} puts lineitem. */
public enum LoadTarget {
    /** A Columba columnstore table ({@code WITH (storage = columnstore)}): rowgroups built by the bulk path. */
    COLUMBA_COLUMNSTORE("Columba columnstore"),
    /** A Columba rowstore table clustered on its key {@code (l_orderkey, l_linenumber)}. */
    COLUMBA_ROWSTORE("Columba rowstore"),
    /**
     * A Columba rowstore table clustered on {@code (l_partkey, l_orderkey, l_linenumber)}, an order the
     * file's rows (by order key) are not in: the load sorts them before it builds the B+tree.
     */
    COLUMBA_ROWSTORE_UNSORTED("Columba rowstore, key not in file order"),
    /** A DuckDB table without constraints. */
    DUCKDB("DuckDB");

    private final String label;

    LoadTarget(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean isColumba() {
        return this != DUCKDB;
    }
}
