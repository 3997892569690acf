/**
 * The 8 KB page: header layout, page types and checksums shared by every page-based structure.
 * Owns no I/O and no structure within pages (B+trees, allocation maps live elsewhere).
 */
package dev.columba.storage.page;
