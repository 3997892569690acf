package dev.columba.formats;

/**
 * COPY's CSV format held to the same round trip of every type as the columnar formats (its own
 * option and error cases are the JDBC module's {@code CopyTest}).
 */
class CsvRoundTripTest extends FileFormatRoundTripTestBase {
    @Override
    String format() {
        return "csv";
    }

    @Override
    String extension() {
        return "csv";
    }
}
