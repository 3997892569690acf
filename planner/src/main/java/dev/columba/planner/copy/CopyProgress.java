package dev.columba.planner.copy;

/**
 * How far a running {@code COPY ... FROM} a CSV file is, as the reader reports it every {@value
 * CsvReader#PROGRESS_EVERY} rows (a shell prints it; {@code Session.setCopyProgress}).
 *
 * @param rows      rows handed to the table so far
 * @param bytesRead bytes read from the file so far (the reader reads ahead of the rows by at most a
 *                  few blocks of 2 MB, one per parse worker)
 * @param fileBytes the file's size when the COPY opened it
 */
public record CopyProgress(long rows, long bytesRead, long fileBytes) {
    public CopyProgress {
        if (rows < 0 || bytesRead < 0 || fileBytes < 0) {
            throw new IllegalArgumentException("negative progress: " + rows + " rows, " + bytesRead + " of " + fileBytes
                    + " bytes");
        }
    }

    /** The share of the file read, 0 to 100; 100 for an empty file. */
    public double percentOfFile() {
        return fileBytes == 0 ? 100 : Math.min(100, 100.0 * bytesRead / fileBytes);
    }
}
