/** The error-code enum and the exception that carries it; SQLSTATE mapping lives with each code. */
package dev.columba.core.error;
