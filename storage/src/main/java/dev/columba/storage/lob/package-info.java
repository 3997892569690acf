/** Out-of-row storage for large values: chains of overflow pages, counted as lob reads. */
package dev.columba.storage.lob;
