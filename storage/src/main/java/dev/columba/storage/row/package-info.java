/**
 * The rowstore's value formats: {@link dev.columba.storage.row.RowCodec} lays a table row out in
 * bytes so that one column reads without decoding the others, and
 * {@link dev.columba.storage.row.KeyCodec} turns index keys into bytes whose unsigned order is the
 * SQL order. Owns no pages, slots or overflow chains: the B+tree and heap place the bytes
 * (specified in {@code docs/format/row.md}).
 */
package dev.columba.storage.row;
