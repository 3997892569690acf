/**
 * Space management: extents from the global allocation map, objects' allocation-map chains, and
 * the allocation order of an object's pages. Knows page headers, not what objects store.
 */
package dev.columba.storage.alloc;
