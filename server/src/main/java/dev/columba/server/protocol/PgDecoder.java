package dev.columba.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Frames and decodes the client's bytes into {@link FrontendMessage}s. The connection starts in the startup
 * phase, whose packets are an int32 length (counting itself) and an int32 code with no type byte; an SSL or GSS
 * encryption request keeps it there (the client sends its StartupMessage next, on the same socket), and a
 * StartupMessage moves it to the normal phase, where every message is a type byte, an int32 length (counting
 * itself, not the type byte) and the body. A message longer than the limit, or a malformed one, fails with a
 * {@link ProtocolException}: the stream cannot be resynchronized after it.
 */
public final class PgDecoder extends ByteToMessageDecoder {
    /** Startup packets are small; PostgreSQL refuses ones over 10,000 bytes. */
    static final int MAX_STARTUP_LENGTH = 10_000;
    static final int SSL_REQUEST_CODE = 80877103;
    static final int GSSENC_REQUEST_CODE = 80877104;
    static final int CANCEL_REQUEST_CODE = 80877102;
    static final int PROTOCOL_3_0 = 196608;

    private final int maxMessageLength;
    private boolean startupPhase = true;

    /** @param maxMessageLength the longest normal-phase message accepted, in bytes */
    public PgDecoder(int maxMessageLength) {
        if (maxMessageLength < 1024) {
            throw new IllegalArgumentException("the message length limit must be at least 1024 bytes, got "
                    + maxMessageLength);
        }
        this.maxMessageLength = maxMessageLength;
    }

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf in, List<Object> out) {
        if (startupPhase) {
            decodeStartup(in, out);
        } else {
            decodeNormal(in, out);
        }
    }

    private void decodeStartup(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_LENGTH) {
            throw new ProtocolException("invalid startup packet length " + length);
        }
        if (in.readableBytes() < length) {
            return;
        }
        in.skipBytes(4);
        ByteBuf body = in.readSlice(length - 4);
        int code = body.readInt();
        FrontendMessage message = switch (code) {
            case SSL_REQUEST_CODE -> new FrontendMessage.SslRequest();
            case GSSENC_REQUEST_CODE -> new FrontendMessage.GssEncRequest();
            case CANCEL_REQUEST_CODE -> {
                if (body.readableBytes() != 8) {
                    throw new ProtocolException("a CancelRequest has 16 bytes, got " + length);
                }
                yield new FrontendMessage.CancelRequest(body.readInt(), body.readInt());
            }
            default -> {
                if (code >>> 16 != 3) {
                    throw new ProtocolException("unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xFFFF)
                            + ": the server supports 3.0");
                }
                Map<String, String> parameters = new LinkedHashMap<>();
                while (true) {
                    String name = readString(body);
                    if (name.isEmpty()) {
                        break;
                    }
                    parameters.put(name, readString(body));
                }
                startupPhase = false;
                yield new FrontendMessage.Startup(code, parameters);
            }
        };
        out.add(message);
    }

    private void decodeNormal(ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 5) {
            return;
        }
        int start = in.readerIndex();
        byte type = in.getByte(start);
        int length = in.getInt(start + 1);
        if (length < 4) {
            throw new ProtocolException("invalid message length " + length + " for message type '" + (char) type + "'");
        }
        if (length > maxMessageLength) {
            throw new ProtocolException("message of type '" + (char) type + "' is " + length
                    + " bytes, more than the limit of " + maxMessageLength);
        }
        if (in.readableBytes() < 1 + length) {
            return;
        }
        in.skipBytes(5);
        ByteBuf body = in.readSlice(length - 4);
        FrontendMessage message = decodeBody(type, body);
        if (body.isReadable()) {
            throw new ProtocolException("message of type '" + (char) type + "' has " + body.readableBytes()
                    + " bytes after its end");
        }
        out.add(message);
    }

    private static FrontendMessage decodeBody(byte type, ByteBuf body) {
        return switch (type) {
            case 'Q' -> new FrontendMessage.Query(readString(body));
            case 'P' -> {
                String name = readString(body);
                String query = readString(body);
                int count = readCount(body, 4);
                List<Integer> types = new ArrayList<>(count);
                for (int index = 0; index < count; index++) {
                    types.add(body.readInt());
                }
                yield new FrontendMessage.Parse(name, query, types);
            }
            case 'B' -> {
                String portal = readString(body);
                String statement = readString(body);
                List<FrontendMessage.Format> parameterFormats = readFormats(body);
                int count = readCount(body, 4);
                List<byte[]> values = new ArrayList<>(count);
                for (int index = 0; index < count; index++) {
                    int valueLength = body.readInt();
                    if (valueLength == -1) {
                        values.add(null);
                    } else if (valueLength < 0 || valueLength > body.readableBytes()) {
                        throw new ProtocolException("parameter " + (index + 1) + " has invalid length " + valueLength);
                    } else {
                        byte[] value = new byte[valueLength];
                        body.readBytes(value);
                        values.add(value);
                    }
                }
                yield new FrontendMessage.Bind(portal, statement, parameterFormats, values, readFormats(body));
            }
            case 'D' -> {
                FrontendMessage.Target target = FrontendMessage.Target.of(readByte(body));
                yield new FrontendMessage.Describe(target, readString(body));
            }
            case 'E' -> {
                String portal = readString(body);
                yield new FrontendMessage.Execute(portal, readInt(body));
            }
            case 'C' -> {
                FrontendMessage.Target target = FrontendMessage.Target.of(readByte(body));
                yield new FrontendMessage.Close(target, readString(body));
            }
            case 'p' -> {
                byte[] payload = new byte[body.readableBytes()];
                body.readBytes(payload);
                yield new FrontendMessage.PasswordMessage(payload);
            }
            case 'd' -> {
                byte[] data = new byte[body.readableBytes()];
                body.readBytes(data);
                yield new FrontendMessage.CopyData(data);
            }
            case 'c' -> new FrontendMessage.CopyDone();
            case 'f' -> new FrontendMessage.CopyFail(readString(body));
            case 'S' -> new FrontendMessage.Sync();
            case 'H' -> new FrontendMessage.Flush();
            case 'X' -> new FrontendMessage.Terminate();
            default -> {
                body.skipBytes(body.readableBytes());
                yield new FrontendMessage.Unsupported((char) type);
            }
        };
    }

    private static List<FrontendMessage.Format> readFormats(ByteBuf body) {
        int count = readCount(body, 2);
        List<FrontendMessage.Format> formats = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            formats.add(FrontendMessage.Format.of(body.readShort()));
        }
        return formats;
    }

    /** An int16 count of items of {@code itemSize} bytes at least, checked against what the message holds. */
    private static int readCount(ByteBuf body, int itemSize) {
        if (body.readableBytes() < 2) {
            throw new ProtocolException("message ends before a count");
        }
        int count = body.readUnsignedShort();
        if ((long) count * itemSize > body.readableBytes()) {
            throw new ProtocolException("count " + count + " exceeds the message's remaining "
                    + body.readableBytes() + " bytes");
        }
        return count;
    }

    private static byte readByte(ByteBuf body) {
        if (!body.isReadable()) {
            throw new ProtocolException("message ends before a byte");
        }
        return body.readByte();
    }

    private static int readInt(ByteBuf body) {
        if (body.readableBytes() < 4) {
            throw new ProtocolException("message ends before an int32");
        }
        return body.readInt();
    }

    /** A NUL-terminated UTF-8 string. */
    private static String readString(ByteBuf body) {
        int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new ProtocolException("string without its terminating NUL byte");
        }
        String text = body.toString(body.readerIndex(), end - body.readerIndex(), StandardCharsets.UTF_8);
        body.readerIndex(end + 1);
        return text;
    }
}
