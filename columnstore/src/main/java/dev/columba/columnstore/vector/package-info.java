/** Glue between Java values and Arrow vectors for the columnstore's row-at-a-time paths. */
package dev.columba.columnstore.vector;
