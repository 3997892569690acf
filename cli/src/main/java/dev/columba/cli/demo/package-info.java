/**
 * {@code columba demo}: seed 000 replayed in SQL through the JDBC driver on an embedded database,
 * with the driver's messages printed as they come and a comparison of the cold runs. It uses only
 * the public JDBC surface (plus {@code ColumbaStatement}'s typed statistics); it owns no engine code.
 */
package dev.columba.cli.demo;
