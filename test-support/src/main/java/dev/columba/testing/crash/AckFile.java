package dev.columba.testing.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The child's record of what returned: one line per unit of work (a commit, a checkpoint), written
 * after the engine's call returned and made durable ({@code fsync}) before the child starts the next
 * unit. The parent counts a unit as acknowledged only if its line is whole in the file, so a kill
 * between the commit and the line leaves a unit "in flight": allowed to be there whole or not at all,
 * never half. Also for the intent of the unit about to start, so the parent knows which unit that is.
 *
 * <p>Not thread-safe: one writer, the child's workload thread.
 */
public final class AckFile implements AutoCloseable {
    private final FileChannel channel;

    private AckFile(FileChannel channel) {
        this.channel = channel;
    }

    /** Opens {@code path} for appending, creating it (and syncing its directory) if missing. */
    public static AckFile append(Path path) {
        try {
            boolean created = !Files.exists(path);
            FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            if (created) {
                channel.force(true);
                try (FileChannel directory = FileChannel.open(path.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                    directory.force(true);
                }
            }
            return new AckFile(channel);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the acknowledgement file " + path, e);
        }
    }

    /** Appends {@code record} as one line and returns once it is durable. */
    public void write(String record) {
        if (record.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("an acknowledgement is one line, got " + record);
        }
        ByteBuffer bytes = ByteBuffer.wrap((record + "\n").getBytes(StandardCharsets.UTF_8));
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the acknowledgement " + record, e);
        }
    }

    /** The whole lines of {@code path} in order; a last line without its newline (cut by the kill) is not one. Empty if there is no file. */
    public static List<String> read(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the acknowledgement file " + path, e);
        }
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
            lines.add(text.substring(start, end));
            start = end + 1;
        }
        return lines;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the acknowledgement file", e);
        }
    }
}
