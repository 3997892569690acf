/** The data behind the columnstore system views, read from the directory and the files' footers. */
package dev.columba.columnstore.views;
