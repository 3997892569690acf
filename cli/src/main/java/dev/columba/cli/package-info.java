/** The {@code columba} command line: subcommand dispatch and each subcommand's front end. */
package dev.columba.cli;
