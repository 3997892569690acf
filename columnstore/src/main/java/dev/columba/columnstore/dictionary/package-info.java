/**
 * Columnstore dictionaries: the sorted, immutable {@link dev.columba.columnstore.dictionary.Dictionary}
 * (primary per table column, secondary per rowgroup) with its byte layout, the incremental
 * {@link dev.columba.columnstore.dictionary.DictionaryBuilder} that tracks the serialized size
 * against a cap, and {@link dev.columba.columnstore.dictionary.ValueKind}, the stored form of values
 * that dictionaries and segments share. Knows nothing of segments, rowgroups or files: the
 * encoding package numbers dictionary entries in segments, the rowgroup file stores the bytes.
 */
package dev.columba.columnstore.dictionary;
