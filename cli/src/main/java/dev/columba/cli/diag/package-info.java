/** {@code columba diag}: diagnostics front ends (dictionary pressure of columnstore tables). */
package dev.columba.cli.diag;
