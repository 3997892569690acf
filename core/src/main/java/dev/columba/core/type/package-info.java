/**
 * The SQL types Columba stores and their Java and Arrow representations. Owns no storage format:
 * how a type is laid out on a page or in a segment belongs to storage and columnstore.
 */
package dev.columba.core.type;
