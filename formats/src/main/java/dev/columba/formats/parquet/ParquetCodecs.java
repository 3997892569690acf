package dev.columba.formats.parquet;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Parquet's page codecs without Hadoop's: parquet-hadoop's own factory builds a Hadoop
 * {@code Configuration} and Hadoop codec classes, which need much of Hadoop's class path. These
 * call the compression libraries parquet-java brings (snappy-java, zstd-jni, aircompressor) and the
 * JDK's gzip directly, on heap arrays. UNCOMPRESSED, SNAPPY, ZSTD, GZIP and LZ4_RAW are read and
 * written; LZO, BROTLI and the Hadoop-framed LZ4 are not ({@link UnsupportedCodecException}).
 */
final class ParquetCodecs implements CompressionCodecFactory {
    /** A page compressed with a codec these do not read. */
    static final class UnsupportedCodecException extends IOException {
        final CompressionCodecName codec;

        UnsupportedCodecException(CompressionCodecName codec) {
            super("pages compressed with " + codec + ", which COPY does not read (UNCOMPRESSED, SNAPPY, ZSTD, GZIP,"
                    + " LZ4_RAW are read)");
            this.codec = codec;
        }
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        return new BytesInputCompressor() {
            @Override
            public BytesInput compress(BytesInput input) throws IOException {
                byte[] raw = input.toByteArray();
                return switch (codec) {
                    case UNCOMPRESSED -> BytesInput.from(raw);
                    case SNAPPY -> BytesInput.from(Snappy.compress(raw));
                    case ZSTD -> BytesInput.from(Zstd.compress(raw, 3));
                    case GZIP -> {
                        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
                        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                            gzip.write(raw);
                        }
                        yield BytesInput.from(out.toByteArray());
                    }
                    case LZ4_RAW -> {
                        Lz4Compressor compressor = new Lz4Compressor();
                        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
                        int length = compressor.compress(raw, 0, raw.length, out, 0, out.length);
                        yield BytesInput.from(out, 0, length);
                    }
                    default -> throw new UnsupportedCodecException(codec);
                };
            }

            @Override
            public CompressionCodecName getCodecName() {
                return codec;
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput input, int uncompressedSize) throws IOException {
                if (codec == CompressionCodecName.UNCOMPRESSED) {
                    return input;
                }
                byte[] raw = input.toByteArray();
                byte[] out = new byte[uncompressedSize];
                int length = switch (codec) {
                    case SNAPPY -> Snappy.uncompress(raw, 0, raw.length, out, 0);
                    case ZSTD -> {
                        long written = Zstd.decompressByteArray(out, 0, out.length, raw, 0, raw.length);
                        if (Zstd.isError(written)) {
                            throw new IOException("zstd: " + Zstd.getErrorName(written));
                        }
                        yield (int) written;
                    }
                    case GZIP -> {
                        try (GZIPInputStream gzip = new GZIPInputStream(new java.io.ByteArrayInputStream(raw))) {
                            yield gzip.readNBytes(out, 0, out.length);
                        }
                    }
                    case LZ4_RAW -> new Lz4Decompressor().decompress(raw, 0, raw.length, out, 0, out.length);
                    default -> throw new UnsupportedCodecException(codec);
                };
                if (length != uncompressedSize) {
                    throw new IOException(codec + " page decompressed to " + length + " bytes, its header says "
                            + uncompressedSize);
                }
                return BytesInput.from(out);
            }

            @Override
            public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                    throws IOException {
                byte[] raw = new byte[compressedSize];
                input.get(raw);
                output.put(decompress(BytesInput.from(raw), uncompressedSize).toByteBuffer());
            }

            @Override
            public void release() {
            }
        };
    }

    @Override
    public void release() {
    }
}
