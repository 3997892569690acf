/** Heaps: unordered row pages addressed by stable row ids, scanned in allocation order. */
package dev.columba.storage.heap;
