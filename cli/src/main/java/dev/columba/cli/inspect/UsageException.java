package dev.columba.cli.inspect;

/**
 * The command line asks for something inspect cannot do (an unknown option, a page past the end
 * of the file, a path that is no Columba file): exit code 2, with a message naming the problem.
 */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
