/**
 * Password verifiers and the SCRAM-SHA-256 computations (RFC 5802, RFC 7677) that both the SQL
 * layer (CREATE LOGIN stores a verifier, never the password) and the wire server (which checks a
 * client's proof against it) use. It holds no state and does no I/O.
 */
package dev.columba.core.auth;
