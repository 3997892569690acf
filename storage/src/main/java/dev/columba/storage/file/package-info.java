/**
 * The data files: their header, their page I/O for the buffer pool, the constants of their
 * allocation structures, and the manifest that lists the files beyond the primary one
 * ({@code data/files.properties}), a checksummed properties text ({@link
 * dev.columba.storage.file.SealedPropertiesFile}, which {@code columba.properties} shares). Owns
 * bytes on disk, not what the pages mean.
 */
package dev.columba.storage.file;
