package dev.columba.formats;

/** COPY's Arrow IPC format (built into the planner), held to {@link SelfDescribingFormatTestBase}. */
class ArrowRoundTripTest extends SelfDescribingFormatTestBase {
    @Override
    String format() {
        return "arrow";
    }

    @Override
    String extension() {
        return "arrow";
    }
}
