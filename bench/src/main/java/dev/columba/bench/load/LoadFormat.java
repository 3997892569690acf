package dev.columba.bench.load;

/** The file the load suite's COPY reads: lineitem as CSV ({@link LineitemCsv}) or as Parquet ({@link LineitemParquet}). */
public enum LoadFormat {
    CSV("CSV"),
    PARQUET("Parquet");

    private final String label;

    LoadFormat(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
