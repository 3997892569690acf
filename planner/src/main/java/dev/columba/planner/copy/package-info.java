/**
 * COPY's reading of CSV files: the options ({@link dev.columba.planner.copy.CopyOptions}), a
 * byte-level parser that converts fields straight to column values, and the reader that splits a
 * file into blocks parsed in parallel and hands their rows on in file order. Not the writing of
 * rows into tables, which the session's COPY command does through each store's bulk path.
 */
package dev.columba.planner.copy;
