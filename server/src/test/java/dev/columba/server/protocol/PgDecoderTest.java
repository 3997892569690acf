package dev.columba.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decoder fed the bytes real clients send, whole and in every fragmentation. */
class PgDecoderTest {

    /** What pgJDBC sends first: SSLRequest, then (after 'N') the StartupMessage, then a pipelined extended query. */
    private static byte[] conversation() {
        ByteBuf bytes = Unpooled.buffer();
        bytes.writeInt(8).writeInt(80877103);
        startup(bytes, Map.of("user", "columba", "database", "db", "client_encoding", "UTF8"));
        // Parse("", "SELECT $1", [23])
        message(bytes, 'P', body -> {
            cstring(body, "");
            cstring(body, "SELECT $1");
            body.writeShort(1).writeInt(23);
        });
        // Bind("", "", [binary], [int4 42, NULL], [text])
        message(bytes, 'B', body -> {
            cstring(body, "");
            cstring(body, "");
            body.writeShort(1).writeShort(1);
            body.writeShort(2).writeInt(4).writeInt(42).writeInt(-1);
            body.writeShort(1).writeShort(0);
        });
        message(bytes, 'D', body -> {
            body.writeByte('P');
            cstring(body, "");
        });
        message(bytes, 'E', body -> {
            cstring(body, "");
            body.writeInt(0);
        });
        message(bytes, 'S', body -> { });
        message(bytes, 'Q', body -> cstring(body, "SELECT 'é'; SELECT 2"));
        message(bytes, 'X', body -> { });
        byte[] array = new byte[bytes.readableBytes()];
        bytes.readBytes(array);
        return array;
    }

    private static void checkConversation(List<FrontendMessage> messages) {
        assertEquals(9, messages.size(), messages.toString());
        assertInstanceOf(FrontendMessage.SslRequest.class, messages.get(0));
        FrontendMessage.Startup startup = assertInstanceOf(FrontendMessage.Startup.class, messages.get(1));
        assertEquals(196608, startup.protocolVersion());
        assertEquals("columba", startup.parameters().get("user"));
        assertEquals("UTF8", startup.parameters().get("client_encoding"));
        assertEquals(new FrontendMessage.Parse("", "SELECT $1", List.of(23)), messages.get(2));
        FrontendMessage.Bind bind = assertInstanceOf(FrontendMessage.Bind.class, messages.get(3));
        assertEquals(List.of(FrontendMessage.Format.BINARY), bind.parameterFormats());
        assertEquals(2, bind.values().size());
        assertEquals(List.of((byte) 0, (byte) 0, (byte) 0, (byte) 42), toList(bind.values().get(0)));
        assertNull(bind.values().get(1));
        assertEquals(List.of(FrontendMessage.Format.TEXT), bind.resultFormats());
        assertEquals(new FrontendMessage.Describe(FrontendMessage.Target.PORTAL, ""), messages.get(4));
        assertEquals(new FrontendMessage.Execute("", 0), messages.get(5));
        assertInstanceOf(FrontendMessage.Sync.class, messages.get(6));
        assertEquals(new FrontendMessage.Query("SELECT 'é'; SELECT 2"), messages.get(7));
        assertInstanceOf(FrontendMessage.Terminate.class, messages.get(8));
    }

    @Test
    void decodesAWholeConversation() {
        checkConversation(decode(List.of(conversation())));
    }

    @Test
    void decodesTheConversationOneByteAtATime() {
        byte[] bytes = conversation();
        List<byte[]> pieces = new ArrayList<>();
        for (byte single : bytes) {
            pieces.add(new byte[] {single});
        }
        checkConversation(decode(pieces));
    }

    @Test
    void decodesTheConversationCutAtEveryPosition() {
        byte[] bytes = conversation();
        for (int cut = 1; cut < bytes.length; cut++) {
            byte[] first = java.util.Arrays.copyOfRange(bytes, 0, cut);
            byte[] second = java.util.Arrays.copyOfRange(bytes, cut, bytes.length);
            checkConversation(decode(List.of(first, second)));
        }
    }

    @Test
    void decodesACancelRequest() {
        ByteBuf bytes = Unpooled.buffer().writeInt(16).writeInt(80877102).writeInt(7).writeInt(-123456);
        EmbeddedChannel channel = new EmbeddedChannel(new PgDecoder(1 << 20));
        channel.writeInbound(bytes);
        assertEquals(new FrontendMessage.CancelRequest(7, -123456), channel.readInbound());
    }

    @Test
    void anUnknownMessageTypeIsReportedNotSkippedSilently() {
        ByteBuf bytes = Unpooled.buffer();
        startup(bytes, Map.of("user", "u"));
        // A function call ('F'), which the server does not do.
        message(bytes, 'F', body -> body.writeInt(1234).writeShort(0).writeShort(0).writeShort(0));
        message(bytes, 'S', body -> { });
        List<FrontendMessage> messages = decode(List.of(toArray(bytes)));
        assertEquals(new FrontendMessage.Unsupported('F'), messages.get(1));
        assertInstanceOf(FrontendMessage.Sync.class, messages.get(2));
    }

    @Test
    void copyDataDoneAndFailAreDecoded() {
        ByteBuf bytes = Unpooled.buffer();
        startup(bytes, Map.of("user", "u"));
        message(bytes, 'd', body -> body.writeBytes("1\t2\n".getBytes(StandardCharsets.UTF_8)));
        message(bytes, 'c', body -> { });
        message(bytes, 'f', body -> body.writeBytes("gave up\0".getBytes(StandardCharsets.UTF_8)));
        List<FrontendMessage> messages = decode(List.of(toArray(bytes)));
        FrontendMessage.CopyData data = assertInstanceOf(FrontendMessage.CopyData.class, messages.get(1));
        assertEquals("1\t2\n", new String(data.data(), StandardCharsets.UTF_8));
        assertInstanceOf(FrontendMessage.CopyDone.class, messages.get(2));
        assertEquals(new FrontendMessage.CopyFail("gave up"), messages.get(3));
    }

    @Test
    void aMessageOverTheLimitFailsBeforeItIsBuffered() {
        ByteBuf bytes = Unpooled.buffer();
        startup(bytes, Map.of("user", "u"));
        bytes.writeByte('Q').writeInt(10_000_000);
        EmbeddedChannel channel = new EmbeddedChannel(new PgDecoder(1 << 20));
        DecoderException failure = assertThrows(DecoderException.class, () -> channel.writeInbound(bytes));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, failure.getCause());
        assertTrue(cause.getMessage().contains("10000000"), cause.getMessage());
    }

    @Test
    void malformedMessagesFailWithTheReason() {
        assertProtocolError("invalid startup packet length 4", Unpooled.buffer().writeInt(4).writeInt(0));
        assertProtocolError("unsupported frontend protocol 2.0: the server supports 3.0", Unpooled.buffer().writeInt(8).writeInt(2 << 16));
        ByteBuf unterminated = Unpooled.buffer();
        startup(unterminated, Map.of("user", "u"));
        unterminated.writeByte('Q').writeInt(4 + 3).writeBytes("abc".getBytes(StandardCharsets.US_ASCII));
        assertProtocolError("string without its terminating NUL byte", unterminated);
        ByteBuf badFormat = Unpooled.buffer();
        startup(badFormat, Map.of("user", "u"));
        message(badFormat, 'B', body -> {
            cstring(body, "");
            cstring(body, "");
            body.writeShort(1).writeShort(7);
            body.writeShort(0);
            body.writeShort(0);
        });
        assertProtocolError("format code must be 0 (text) or 1 (binary), got 7", badFormat);
        ByteBuf lyingCount = Unpooled.buffer();
        startup(lyingCount, Map.of("user", "u"));
        message(lyingCount, 'P', body -> {
            cstring(body, "");
            cstring(body, "SELECT 1");
            body.writeShort(1000);
        });
        assertProtocolError("count 1000 exceeds the message's remaining 0 bytes", lyingCount);
    }

    private static void assertProtocolError(String expected, ByteBuf bytes) {
        EmbeddedChannel channel = new EmbeddedChannel(new PgDecoder(1 << 20));
        DecoderException failure = assertThrows(DecoderException.class, () -> channel.writeInbound(bytes));
        assertEquals(expected, assertInstanceOf(ProtocolException.class, failure.getCause()).getMessage());
    }

    private static List<FrontendMessage> decode(List<byte[]> pieces) {
        EmbeddedChannel channel = new EmbeddedChannel(new PgDecoder(1 << 20));
        for (byte[] piece : pieces) {
            channel.writeInbound(Unpooled.wrappedBuffer(piece));
        }
        List<FrontendMessage> messages = new ArrayList<>();
        FrontendMessage message;
        while ((message = channel.readInbound()) != null) {
            messages.add(message);
        }
        return messages;
    }

    static void startup(ByteBuf out, Map<String, String> parameters) {
        int start = out.writerIndex();
        out.writeInt(0).writeInt(196608);
        parameters.forEach((name, value) -> {
            cstring(out, name);
            cstring(out, value);
        });
        out.writeByte(0);
        out.setInt(start, out.writerIndex() - start);
    }

    static void message(ByteBuf out, char type, java.util.function.Consumer<ByteBuf> body) {
        out.writeByte(type);
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        body.accept(out);
        out.setInt(lengthAt, out.writerIndex() - lengthAt);
    }

    static void cstring(ByteBuf out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    private static byte[] toArray(ByteBuf bytes) {
        byte[] array = new byte[bytes.readableBytes()];
        bytes.readBytes(array);
        return array;
    }

    private static List<Byte> toList(byte[] bytes) {
        List<Byte> list = new ArrayList<>();
        for (byte single : bytes) {
            list.add(single);
        }
        return list;
    }
}
