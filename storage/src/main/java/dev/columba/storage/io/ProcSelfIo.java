package dev.columba.storage.io;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A snapshot of this process's I/O counters from {@code /proc/self/io}: the referee Columba's own
 * read counters are checked against. The counters cover the whole process, every thread past and
 * present, so a difference of two snapshots is exact only when no other thread did I/O in between.
 * Field names spell out the kernel's ({@code Documentation/filesystems/proc.rst}).
 *
 * @param charactersRead      {@code rchar}: bytes that read-like system calls returned, from the
 *                            page cache or storage alike (including the read of this file)
 * @param charactersWritten   {@code wchar}: bytes passed to write-like system calls
 * @param readCalls           {@code syscr}: read-like system calls
 * @param writeCalls          {@code syscw}: write-like system calls
 * @param readBytes           {@code read_bytes}: bytes this process caused to be read from storage,
 *                            counted when the read is submitted: buffered and {@code O_DIRECT}
 *                            reads, page faults, {@code WILLNEED} read-ahead
 * @param writeBytes          {@code write_bytes}: bytes this process caused to be written to storage,
 *                            counted when pages are dirtied
 * @param cancelledWriteBytes {@code cancelled_write_bytes}: of those, bytes never written because
 *                            the file was truncated or deleted first
 */
public record ProcSelfIo(long charactersRead, long charactersWritten, long readCalls, long writeCalls, long readBytes,
                         long writeBytes, long cancelledWriteBytes) {

    private static final Path FILE = Path.of("/proc/self/io");

    /** Counters never go down, so a negative value can only be a difference taken backwards. */
    public ProcSelfIo {
        requireNotNegative("charactersRead", charactersRead);
        requireNotNegative("charactersWritten", charactersWritten);
        requireNotNegative("readCalls", readCalls);
        requireNotNegative("writeCalls", writeCalls);
        requireNotNegative("readBytes", readBytes);
        requireNotNegative("writeBytes", writeBytes);
        requireNotNegative("cancelledWriteBytes", cancelledWriteBytes);
    }

    /** Whether this operating system offers {@code /proc/self/io} (Linux with task I/O accounting). */
    public static boolean available() {
        return Availability.AVAILABLE;
    }

    /** Reads the counters now. */
    public static ProcSelfIo read() {
        String text;
        try {
            text = new String(Files.readAllBytes(FILE), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new ColumbaException(ErrorCode.IO_ERROR, "cannot read " + FILE + ": " + e.getMessage(), e);
        }
        return parse(text);
    }

    /** The counts since {@code earlier}, a snapshot taken before this one. */
    public ProcSelfIo minus(ProcSelfIo earlier) {
        return new ProcSelfIo(charactersRead - earlier.charactersRead, charactersWritten - earlier.charactersWritten,
                readCalls - earlier.readCalls, writeCalls - earlier.writeCalls, readBytes - earlier.readBytes,
                writeBytes - earlier.writeBytes, cancelledWriteBytes - earlier.cancelledWriteBytes);
    }

    /** Parses the {@code name: value} lines of {@code /proc/<pid>/io}; lines of unknown names are skipped. */
    static ProcSelfIo parse(String text) {
        String[] names = {"rchar", "wchar", "syscr", "syscw", "read_bytes", "write_bytes", "cancelled_write_bytes"};
        long[] values = new long[names.length];
        boolean[] found = new boolean[names.length];
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            for (int field = 0; field < names.length; field++) {
                if (names[field].equals(name)) {
                    String value = line.substring(colon + 1).strip();
                    try {
                        values[field] = Long.parseLong(value);
                        found[field] = true;
                    } catch (NumberFormatException e) {
                        throw new ColumbaException(ErrorCode.IO_ERROR,
                                FILE + ": field " + name + " has the value '" + value + "', not a number", e);
                    }
                }
            }
        }
        for (int field = 0; field < names.length; field++) {
            if (!found[field]) {
                throw new ColumbaException(ErrorCode.IO_ERROR, FILE + " has no field " + names[field]);
            }
        }
        return new ProcSelfIo(values[0], values[1], values[2], values[3], values[4], values[5], values[6]);
    }

    private static void requireNotNegative(String name, long value) {
        if (value < 0) {
            throw new ColumbaException(ErrorCode.INVALID_ARGUMENT,
                    name + " is " + value + ": I/O counters never decrease (was a difference taken backwards?)");
        }
    }

    /** Decided once, on first use: the file's presence does not change while the process runs. */
    private static final class Availability {
        static final boolean AVAILABLE = probe();

        private static boolean probe() {
            if (!Files.isReadable(FILE)) {
                return false;
            }
            try {
                read();
                return true;
            } catch (ColumbaException e) {
                return false;
            }
        }
    }
}
