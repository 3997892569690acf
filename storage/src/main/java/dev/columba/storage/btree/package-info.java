/**
 * B+trees of memcomparable keys on 8 KB pages: clustered and secondary indexes and the catalog,
 * their cursors and the index-order read-ahead that follows the level above the leaves. Knows
 * nothing of rows or types: keys and values are bytes.
 */
package dev.columba.storage.btree;
