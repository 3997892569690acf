package dev.columba.storage.catalog;

import dev.columba.core.error.ColumbaException;
import dev.columba.core.error.ErrorCode;
import dev.columba.core.schema.Column;
import dev.columba.core.schema.TableSchema;
import dev.columba.core.type.SqlType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The serialized form of catalog entries (docs/format/catalog.md): big-endian, a version byte, a
 * kind byte, then the fields. Shared by writer and reader.
 */
public final class CatalogFormat {
    private CatalogFormat() {
    }

    /**
     * The newest entry version this build reads. Tables and indexes are written as version 1, views
     * as 2, partition functions and schemes as 3, an index with a descending key column as 4, logins as 5,
     * a login in a server role as 6, a table or view with a VARBINARY, BINARY or UUID column as 7.
     */
    public static final int VERSION = 7;
    /** The version tables and indexes are written in, unchanged since version 1, so older builds read them. */
    static final int VERSION_TABLES_AND_INDEXES = 1;
    /** The first version with views. */
    static final int VERSION_VIEWS = 2;
    static final int KIND_TABLE = 1;
    static final int KIND_INDEX = 2;
    static final int KIND_VIEW = 3;
    /** The first version with partition functions and schemes. */
    static final int VERSION_PARTITIONS = 3;
    static final int KIND_PARTITION_FUNCTION = 4;
    static final int KIND_PARTITION_SCHEME = 5;
    /** The first version with a direction per index key column (an index with a DESC column is written so). */
    static final int VERSION_DESCENDING_KEYS = 4;
    static final int DIRECTION_ASCENDING = 0;
    static final int DIRECTION_DESCENDING = 1;
    /** The first version with logins. */
    static final int VERSION_LOGINS = 5;
    static final int KIND_LOGIN = 6;
    /** The first version with a login's server roles (a byte after its verifier). */
    static final int VERSION_SERVER_ROLES = 6;
    static final int ROLE_SYSADMIN = 1;
    /** The first version with the types VARBINARY, BINARY and UUID (type codes 10 to 12). */
    static final int VERSION_BINARY_TYPES = 7;
    static final int TYPE_VARBINARY = 10;
    static final int TYPE_BINARY = 11;
    static final int TYPE_UUID = 12;

    /** The catalog B+tree key of an object: its id as four big-endian bytes. */
    public static byte[] key(int objectId) {
        return new byte[] {(byte) (objectId >>> 24), (byte) (objectId >>> 16), (byte) (objectId >>> 8), (byte) objectId};
    }

    public static byte[] encode(CatalogEntry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(switch (entry) {
                case CatalogEntry.View view -> hasBinaryTypes(view.schema()) ? VERSION_BINARY_TYPES : VERSION_VIEWS;
                case CatalogEntry.PartitionObject ignored -> VERSION_PARTITIONS;
                case CatalogEntry.Login login -> login.sysadmin() ? VERSION_SERVER_ROLES : VERSION_LOGINS;
                case CatalogEntry.Table table -> hasBinaryTypes(table.schema()) ? VERSION_BINARY_TYPES
                        : VERSION_TABLES_AND_INDEXES;
                case CatalogEntry.Index index -> index.anyDescending() ? VERSION_DESCENDING_KEYS
                        : VERSION_TABLES_AND_INDEXES;
            });
            switch (entry) {
                case CatalogEntry.Table table -> {
                    out.writeByte(KIND_TABLE);
                    out.writeInt(table.objectId());
                    out.writeUTF(table.name());
                    out.writeByte(table.organization().ordinal());
                    out.writeBoolean(table.uniqueKey());
                    out.writeLong(table.rootPage());
                    out.writeLong(table.firstOamPage());
                    out.writeLong(table.rowCount());
                    writeColumns(out, table.keyColumns());
                    writeSchema(out, table.schema());
                    Map<String, String> options = new TreeMap<>(table.options());
                    out.writeShort(options.size());
                    for (Map.Entry<String, String> option : options.entrySet()) {
                        out.writeUTF(option.getKey());
                        out.writeUTF(option.getValue());
                    }
                }
                case CatalogEntry.Index index -> {
                    out.writeByte(KIND_INDEX);
                    out.writeInt(index.objectId());
                    out.writeUTF(index.name());
                    out.writeInt(index.tableId());
                    out.writeBoolean(index.unique());
                    out.writeLong(index.rootPage());
                    out.writeLong(index.firstOamPage());
                    writeColumns(out, index.keyColumns());
                    if (index.anyDescending()) {
                        for (boolean descending : index.descending()) {
                            out.writeByte(descending ? DIRECTION_DESCENDING : DIRECTION_ASCENDING);
                        }
                    }
                }
                case CatalogEntry.View view -> {
                    out.writeByte(KIND_VIEW);
                    out.writeInt(view.objectId());
                    out.writeUTF(view.name());
                    byte[] definition = view.definition().getBytes(StandardCharsets.UTF_8);
                    out.writeInt(definition.length);
                    out.write(definition);
                    writeSchema(out, view.schema());
                }
                case CatalogEntry.PartitionObject object -> {
                    out.writeByte(object.kind() == CatalogEntry.PartitionObject.Kind.FUNCTION ? KIND_PARTITION_FUNCTION
                            : KIND_PARTITION_SCHEME);
                    out.writeInt(object.objectId());
                    out.writeUTF(object.name());
                    byte[] definition = object.definition().getBytes(StandardCharsets.UTF_8);
                    out.writeInt(definition.length);
                    out.write(definition);
                }
                case CatalogEntry.Login login -> {
                    out.writeByte(KIND_LOGIN);
                    out.writeInt(login.objectId());
                    out.writeUTF(login.name());
                    out.writeUTF(login.verifier());
                    if (login.sysadmin()) {
                        out.writeByte(ROLE_SYSADMIN);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Decodes an entry.
     *
     * @throws ColumbaException FORMAT_TOO_NEW for a newer version, INDEX_CORRUPT for malformed bytes
     */
    public static CatalogEntry decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int version = in.readUnsignedByte();
            if (version > VERSION) {
                throw new ColumbaException(ErrorCode.FORMAT_TOO_NEW, "catalog entry has format version " + version
                        + ", newer than this build (" + VERSION + ")");
            }
            if (version < 1) {
                throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry has format version " + version);
            }
            int kind = in.readUnsignedByte();
            return switch (kind) {
                case KIND_TABLE -> {
                    int objectId = in.readInt();
                    String name = in.readUTF();
                    int organizationCode = in.readUnsignedByte();
                    if (organizationCode >= CatalogEntry.Organization.values().length) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry has unknown table organization "
                                + organizationCode);
                    }
                    CatalogEntry.Organization organization = CatalogEntry.Organization.values()[organizationCode];
                    boolean uniqueKey = in.readBoolean();
                    long rootPage = in.readLong();
                    long firstOamPage = in.readLong();
                    long rowCount = in.readLong();
                    List<Integer> keyColumns = readColumns(in);
                    TableSchema schema = readSchema(in, version);
                    int optionCount = in.readUnsignedShort();
                    Map<String, String> options = new TreeMap<>();
                    for (int index = 0; index < optionCount; index++) {
                        options.put(in.readUTF(), in.readUTF());
                    }
                    yield new CatalogEntry.Table(objectId, name, schema, organization, keyColumns,
                            uniqueKey, rootPage, firstOamPage, options, rowCount);
                }
                case KIND_INDEX -> {
                    int objectId = in.readInt();
                    String name = in.readUTF();
                    int tableId = in.readInt();
                    boolean unique = in.readBoolean();
                    long rootPage = in.readLong();
                    long firstOamPage = in.readLong();
                    List<Integer> keyColumns = readColumns(in);
                    List<Boolean> descending = new ArrayList<>();
                    for (int column = 0; column < keyColumns.size(); column++) {
                        int direction = version >= VERSION_DESCENDING_KEYS ? in.readUnsignedByte() : DIRECTION_ASCENDING;
                        if (direction != DIRECTION_ASCENDING && direction != DIRECTION_DESCENDING) {
                            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of index " + name
                                    + " has direction " + direction + " for key column " + column + ", not 0 or 1");
                        }
                        descending.add(direction == DIRECTION_DESCENDING);
                    }
                    yield new CatalogEntry.Index(objectId, name, tableId, keyColumns, descending, unique, rootPage,
                            firstOamPage);
                }
                case KIND_VIEW -> {
                    if (version < VERSION_VIEWS) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of version " + version
                                + " is a view, which needs version " + VERSION_VIEWS);
                    }
                    int objectId = in.readInt();
                    String name = in.readUTF();
                    int length = in.readInt();
                    if (length <= 0 || length > in.available()) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of view " + name
                                + " has a definition of " + length + " bytes, with " + in.available() + " left");
                    }
                    String definition = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                    yield new CatalogEntry.View(objectId, name, definition, readSchema(in, version));
                }
                case KIND_PARTITION_FUNCTION, KIND_PARTITION_SCHEME -> {
                    if (version < VERSION_PARTITIONS) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of version " + version
                                + " is a partition function or scheme, which needs version " + VERSION_PARTITIONS);
                    }
                    int objectId = in.readInt();
                    String name = in.readUTF();
                    int length = in.readInt();
                    if (length <= 0 || length > in.available()) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of partition object " + name
                                + " has a definition of " + length + " bytes, with " + in.available() + " left");
                    }
                    String definition = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                    yield new CatalogEntry.PartitionObject(objectId, name, kind == KIND_PARTITION_FUNCTION
                            ? CatalogEntry.PartitionObject.Kind.FUNCTION : CatalogEntry.PartitionObject.Kind.SCHEME,
                            definition);
                }
                case KIND_LOGIN -> {
                    if (version < VERSION_LOGINS) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of version " + version
                                + " is a login, which needs version " + VERSION_LOGINS);
                    }
                    int objectId = in.readInt();
                    String name = in.readUTF();
                    String verifier = in.readUTF();
                    int roles = version >= VERSION_SERVER_ROLES ? in.readUnsignedByte() : 0;
                    if ((roles & ~ROLE_SYSADMIN) != 0) {
                        throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of login " + name
                                + " has server roles " + roles + ", of which only 1 (sysadmin) is defined");
                    }
                    yield new CatalogEntry.Login(objectId, name, verifier, roles == ROLE_SYSADMIN);
                }
                default -> throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of unknown kind " + kind);
            };
        } catch (IOException | RuntimeException e) {
            if (e instanceof ColumbaException columba) {
                throw columba;
            }
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "malformed catalog entry: " + e, e);
        }
    }

    private static void writeSchema(DataOutputStream out, TableSchema schema) throws IOException {
        out.writeShort(schema.size());
        for (Column column : schema.columns()) {
            out.writeUTF(column.name());
            out.writeBoolean(column.nullable());
            writeType(out, column.type());
        }
    }

    private static TableSchema readSchema(DataInputStream in, int version) throws IOException {
        int columnCount = in.readUnsignedShort();
        List<Column> columns = new ArrayList<>(columnCount);
        for (int index = 0; index < columnCount; index++) {
            String columnName = in.readUTF();
            boolean nullable = in.readBoolean();
            columns.add(new Column(columnName, readType(in, version), nullable));
        }
        return new TableSchema(columns);
    }

    private static void writeColumns(DataOutputStream out, List<Integer> columns) throws IOException {
        out.writeShort(columns.size());
        for (int column : columns) {
            out.writeShort(column);
        }
    }

    private static List<Integer> readColumns(DataInputStream in) throws IOException {
        int count = in.readUnsignedShort();
        List<Integer> columns = new ArrayList<>(count);
        for (int index = 0; index < count; index++) {
            columns.add(in.readUnsignedShort());
        }
        return columns;
    }

    private static void writeType(DataOutputStream out, SqlType type) throws IOException {
        switch (type) {
            case SqlType.BooleanType ignored -> out.writeByte(1);
            case SqlType.IntegerType ignored -> out.writeByte(2);
            case SqlType.BigintType ignored -> out.writeByte(3);
            case SqlType.DoubleType ignored -> out.writeByte(4);
            case SqlType.DecimalType decimal -> {
                out.writeByte(5);
                out.writeByte(decimal.precision());
                out.writeByte(decimal.scale());
            }
            case SqlType.VarcharType varchar -> {
                out.writeByte(6);
                out.writeInt(varchar.maxLength());
            }
            case SqlType.CharType character -> {
                out.writeByte(7);
                out.writeInt(character.length());
            }
            case SqlType.DateType ignored -> out.writeByte(8);
            case SqlType.TimestampType ignored -> out.writeByte(9);
            case SqlType.VarbinaryType varbinary -> {
                out.writeByte(TYPE_VARBINARY);
                out.writeInt(varbinary.maxLength());
            }
            case SqlType.BinaryType binary -> {
                out.writeByte(TYPE_BINARY);
                out.writeInt(binary.length());
            }
            case SqlType.UuidType ignored -> out.writeByte(TYPE_UUID);
        }
    }

    /**
     * Whether a schema has a type of version 7: such an entry is written as version 7, which older
     * builds refuse (FORMAT_TOO_NEW) rather than failing on an unknown type code; every other table
     * and view is written in its old version, so databases without these types still open there.
     */
    private static boolean hasBinaryTypes(TableSchema schema) {
        for (Column column : schema.columns()) {
            if (column.type() instanceof SqlType.VarbinaryType || column.type() instanceof SqlType.BinaryType
                    || column.type() instanceof SqlType.UuidType) {
                return true;
            }
        }
        return false;
    }

    private static SqlType readType(DataInputStream in, int version) throws IOException {
        int code = in.readUnsignedByte();
        if (code >= TYPE_VARBINARY && code <= TYPE_UUID && version < VERSION_BINARY_TYPES) {
            throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry of version " + version + " has type code "
                    + code + ", which needs version " + VERSION_BINARY_TYPES);
        }
        return switch (code) {
            case 1 -> SqlType.BOOLEAN;
            case 2 -> SqlType.INT;
            case 3 -> SqlType.BIGINT;
            case 4 -> SqlType.DOUBLE;
            case 5 -> SqlType.decimal(in.readUnsignedByte(), in.readUnsignedByte());
            case 6 -> SqlType.varchar(in.readInt());
            case 7 -> SqlType.character(in.readInt());
            case 8 -> SqlType.DATE;
            case 9 -> SqlType.TIMESTAMP;
            case TYPE_VARBINARY -> SqlType.varbinary(in.readInt());
            case TYPE_BINARY -> SqlType.binary(in.readInt());
            case TYPE_UUID -> SqlType.UUID;
            default -> throw new ColumbaException(ErrorCode.INDEX_CORRUPT, "catalog entry has unknown type code " + code);
        };
    }
}
