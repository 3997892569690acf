package dev.columba.formats;

/** COPY's Parquet format (this module), held to {@link SelfDescribingFormatTestBase}. */
class ParquetRoundTripTest extends SelfDescribingFormatTestBase {
    @Override
    String format() {
        return "parquet";
    }

    @Override
    String extension() {
        return "parquet";
    }
}
