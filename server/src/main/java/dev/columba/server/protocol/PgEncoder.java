package dev.columba.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;

/** Writes {@link BackendMessage}s: a type byte, an int32 length counting itself, and the body. */
public final class PgEncoder extends MessageToByteEncoder<BackendMessage> {
    public PgEncoder() {
        super(BackendMessage.class);
    }

    @Override
    protected void encode(ChannelHandlerContext context, BackendMessage message, ByteBuf out) {
        encode(message, out);
    }

    /** Appends the message's bytes to {@code out}. */
    static void encode(BackendMessage message, ByteBuf out) {
        switch (message) {
            case BackendMessage.EncryptionRefused ignored -> out.writeByte('N');
            case BackendMessage.EncryptionAccepted ignored -> out.writeByte('S');
            case BackendMessage.AuthenticationOk ignored -> {
                int start = begin(out, 'R');
                out.writeInt(0);
                end(out, start);
            }
            case BackendMessage.AuthenticationSasl sasl -> {
                int start = begin(out, 'R');
                out.writeInt(10);
                for (String mechanism : sasl.mechanisms()) {
                    writeString(out, mechanism);
                }
                out.writeByte(0);
                end(out, start);
            }
            case BackendMessage.AuthenticationSaslContinue next -> {
                int start = begin(out, 'R');
                out.writeInt(11);
                out.writeBytes(next.data());
                end(out, start);
            }
            case BackendMessage.AuthenticationSaslFinal last -> {
                int start = begin(out, 'R');
                out.writeInt(12);
                out.writeBytes(last.data());
                end(out, start);
            }
            case BackendMessage.ParameterStatus status -> {
                int start = begin(out, 'S');
                writeString(out, status.name());
                writeString(out, status.value());
                end(out, start);
            }
            case BackendMessage.BackendKeyData key -> {
                int start = begin(out, 'K');
                out.writeInt(key.processId());
                out.writeInt(key.secretKey());
                end(out, start);
            }
            case BackendMessage.ReadyForQuery ready -> {
                int start = begin(out, 'Z');
                out.writeByte(ready.status().code());
                end(out, start);
            }
            case BackendMessage.RowDescription description -> {
                int start = begin(out, 'T');
                out.writeShort(description.fields().size());
                for (BackendMessage.Field field : description.fields()) {
                    writeString(out, field.name());
                    out.writeInt(0);
                    out.writeShort(0);
                    out.writeInt(field.typeOid());
                    out.writeShort(field.typeLength());
                    out.writeInt(field.typeModifier());
                    out.writeShort(field.format().code());
                }
                end(out, start);
            }
            case BackendMessage.DataRow row -> {
                int start = begin(out, 'D');
                out.writeShort(row.values().size());
                for (byte[] value : row.values()) {
                    if (value == null) {
                        out.writeInt(-1);
                    } else {
                        out.writeInt(value.length);
                        out.writeBytes(value);
                    }
                }
                end(out, start);
            }
            case BackendMessage.CommandComplete complete -> {
                int start = begin(out, 'C');
                writeString(out, complete.tag());
                end(out, start);
            }
            case BackendMessage.EmptyQueryResponse ignored -> end(out, begin(out, 'I'));
            case BackendMessage.ErrorResponse error -> {
                int start = begin(out, 'E');
                writeField(out, 'S', error.severity().name());
                writeField(out, 'V', error.severity().name());
                writeField(out, 'C', error.sqlState());
                writeField(out, 'M', error.message());
                out.writeByte(0);
                end(out, start);
            }
            case BackendMessage.NoticeResponse notice -> {
                int start = begin(out, 'N');
                writeField(out, 'S', "NOTICE");
                writeField(out, 'V', "NOTICE");
                writeField(out, 'C', notice.sqlState());
                writeField(out, 'M', notice.message());
                out.writeByte(0);
                end(out, start);
            }
            case BackendMessage.ParseComplete ignored -> end(out, begin(out, '1'));
            case BackendMessage.BindComplete ignored -> end(out, begin(out, '2'));
            case BackendMessage.CloseComplete ignored -> end(out, begin(out, '3'));
            case BackendMessage.ParameterDescription description -> {
                int start = begin(out, 't');
                out.writeShort(description.typeOids().size());
                for (int oid : description.typeOids()) {
                    out.writeInt(oid);
                }
                end(out, start);
            }
            case BackendMessage.NoData ignored -> end(out, begin(out, 'n'));
            case BackendMessage.PortalSuspended ignored -> end(out, begin(out, 's'));
            case BackendMessage.CopyInResponse response -> copyResponse(out, 'G', response.columns());
            case BackendMessage.CopyOutResponse response -> copyResponse(out, 'H', response.columns());
            case BackendMessage.CopyData data -> {
                int start = begin(out, 'd');
                out.writeBytes(data.data());
                end(out, start);
            }
            case BackendMessage.CopyDone ignored -> end(out, begin(out, 'c'));
        }
    }

    /** Writes the type byte and a length placeholder; returns where the length goes. */
    /** CopyInResponse and CopyOutResponse: text format overall and for each column. */
    private static void copyResponse(ByteBuf out, char type, int columns) {
        int start = begin(out, type);
        out.writeByte(0);
        out.writeShort(columns);
        for (int column = 0; column < columns; column++) {
            out.writeShort(0);
        }
        end(out, start);
    }

    private static int begin(ByteBuf out, char type) {
        out.writeByte(type);
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        return lengthAt;
    }

    private static void end(ByteBuf out, int lengthAt) {
        out.setInt(lengthAt, out.writerIndex() - lengthAt);
    }

    private static void writeField(ByteBuf out, char code, String value) {
        out.writeByte(code);
        writeString(out, value);
    }

    private static void writeString(ByteBuf out, String value) {
        // A NUL inside would end the string early on the client's side.
        out.writeCharSequence(value.replace('\0', ' '), StandardCharsets.UTF_8);
        out.writeByte(0);
    }
}
