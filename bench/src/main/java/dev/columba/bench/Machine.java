package dev.columba.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A one-line description of the machine a run measured, for its report: processors, memory,
 * kernel, JVM, and the block device under the data directory with the queue settings that shape
 * sequential reads. Whatever cannot be read is reported as unknown; a report never fails for it.
 */
final class Machine {
    private Machine() {
    }

    static String describe(Path dataDirectory) {
        return String.format(Locale.ROOT, "%d processors, %s memory, %s %s, JDK %s (%s); data directory on %s",
                Runtime.getRuntime().availableProcessors(), memory(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.version"), System.getProperty("java.vm.name"),
                device(dataDirectory));
    }

    private static String memory() {
        String total = read(Path.of("/proc/meminfo"));
        for (String line : total.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                String[] fields = line.trim().split("\\s+");
                try {
                    return String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(fields[1]) / (1024.0 * 1024));
                } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                    return "unknown";
                }
            }
        }
        return "unknown";
    }

    /** The block device holding {@code directory} (Linux: its {@code dev_t} in {@code /sys/dev/block}). */
    private static String device(Path directory) {
        long device;
        try {
            Path existing = directory.toAbsolutePath();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null) {
                return "an unknown device";
            }
            device = ((Number) Files.getAttribute(existing, "unix:dev")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "an unknown device";
        }
        long major = ((device >>> 8) & 0xfff) | ((device >>> 32) & ~0xfffL);
        long minor = (device & 0xff) | ((device >>> 12) & ~0xffL);
        Path block = Path.of("/sys/dev/block/" + major + ":" + minor);
        Path queue = Files.isDirectory(block.resolve("queue")) ? block.resolve("queue") : block.resolve("../queue");
        String name;
        try {
            name = block.toRealPath().getFileName().toString();
        } catch (IOException e) {
            name = major + ":" + minor;
        }
        return String.format(Locale.ROOT, "%s (scheduler %s, read_ahead_kb %s, max_sectors_kb %s, rotational %s)", name,
                read(queue.resolve("scheduler")).strip(), read(queue.resolve("read_ahead_kb")).strip(),
                read(queue.resolve("max_sectors_kb")).strip(), read(queue.resolve("rotational")).strip());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException | SecurityException e) {
            return "unknown";
        }
    }
}
