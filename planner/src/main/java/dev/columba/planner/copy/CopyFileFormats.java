package dev.columba.planner.copy;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.util.ServiceLoader;

/**
 * Finds the {@link CopyFileFormat} of a {@link CopyOptions.FileFormat}: Arrow IPC is built in;
 * Parquet is a {@link ServiceLoader} provider in module {@code columba-formats}, which brings
 * parquet-java and two Hadoop jars (about 20 MB) and so is not a dependency of the JDBC driver:
 * an application that wants Parquet adds it, and without it COPY says so (0A000).
 */
public final class CopyFileFormats {
    /** The Maven coordinates named in the error when Parquet support is missing. */
    public static final String FORMATS_MODULE = "dev.columba:columba-formats";

    private CopyFileFormats() {
    }

    /**
     * The implementation of {@code format} (not CSV, which COPY reads with {@link CsvReader}).
     *
     * @throws ColumbaException FEATURE_NOT_SUPPORTED if it is not on the class path
     */
    public static CopyFileFormat of(CopyOptions.FileFormat format) {
        return switch (format) {
            case CSV -> throw new IllegalArgumentException("CSV is read by CsvReader and written by CsvWriter");
            case ARROW -> new ArrowFileFormat();
            case PARQUET -> ServiceLoader.load(CopyFileFormat.class, CopyFileFormat.class.getClassLoader()).stream()
                    .map(ServiceLoader.Provider::get).filter(provider -> provider.format() == format).findFirst()
                    .orElseThrow(() -> new ColumbaException(ErrorCode.FEATURE_NOT_SUPPORTED, "COPY FORMAT parquet needs "
                            + FORMATS_MODULE + " (and its dependencies) on the class path; it is not there"));
        };
    }
}
