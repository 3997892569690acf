package dev.columba.datagen;

/**
 * The words comments are made of: fixed arrays, so a word's index means the same thing on every
 * run (the generators never iterate a hash structure). Roughly the register of StackOverflow
 * comments: function words, programming vocabulary, names for mentions, identifiers for code.
 * A few entries are not ASCII, so the text exercises multi-byte UTF-8 like the seed's NVARCHAR.
 */
final class CommentVocabulary {
    private CommentVocabulary() {
    }

    /** Function words, drawn often, as in any English text. */
    static final String[] FUNCTION_WORDS = {
        "the", "a", "an", "is", "it", "to", "of", "and", "in", "that", "you", "this", "for", "not", "be", "with",
        "on", "if", "but", "or", "are", "as", "do", "can", "your", "have", "was", "what", "so", "I", "my", "at",
        "there", "should", "would", "does", "from", "by", "then", "just", "all", "no", "when", "which", "will",
        "also", "only", "than", "more", "why", "how", "me", "we", "any", "some", "one", "into", "out", "about",
    };

    /** Content words of programming questions and answers, ASCII. */
    static final String[] CONTENT_WORDS = {
        "answer", "question", "code", "error", "exception", "function", "method", "class", "object", "array",
        "string", "value", "variable", "list", "loop", "index", "query", "table", "column", "row", "database",
        "server", "client", "request", "response", "file", "path", "directory", "version", "library", "package",
        "module", "import", "compile", "compiler", "runtime", "thread", "process", "memory", "pointer", "reference",
        "null", "type", "cast", "parse", "format", "output", "input", "result", "return", "call", "callback",
        "event", "handler", "listener", "button", "form", "page", "browser", "script", "style", "layout", "view",
        "model", "controller", "template", "component", "element", "attribute", "property", "field", "key", "map",
        "hash", "set", "queue", "stack", "tree", "node", "graph", "edge", "regex", "pattern", "match",
        "replace", "split", "join", "sort", "filter", "reduce", "iterate", "recursion", "performance",
        "faster", "slower", "slow", "fast", "works", "working", "worked", "broken", "fixed", "fix", "bug", "issue",
        "problem", "solution", "approach", "example", "sample", "snippet", "documentation", "docs", "tutorial",
        "link", "post", "edit", "update", "comment", "duplicate", "related", "similar", "different", "same",
        "correct", "wrong", "right", "better", "best", "worse", "simple", "simpler", "complex", "easy", "hard",
        "possible", "impossible", "sure", "maybe", "probably", "actually", "really", "exactly", "basically",
        "instead", "because", "though", "however", "anyway", "already", "still", "again", "never", "always",
        "sometimes", "usually", "first", "second", "last", "next", "previous", "new", "old", "current", "default",
        "custom", "global", "local", "static", "dynamic", "public", "private", "abstract", "interface", "generic",
        "async", "await", "promise", "future", "lock", "mutex", "deadlock", "race", "condition", "timeout",
        "connection", "socket", "port", "host", "network", "proxy", "cache", "cached", "config", "configuration",
        "setting", "option", "flag", "argument", "parameter", "signature", "overload", "override", "inherit",
        "instance", "constructor", "destructor", "allocate", "free", "leak", "garbage", "collector", "heap",
        "buffer", "byte", "bytes", "bit", "integer", "float", "double", "decimal", "boolean", "char", "encoding",
        "unicode", "utf-8", "ascii", "escape", "quote", "bracket", "semicolon", "syntax", "operator", "expression",
        "statement", "block", "scope", "closure", "lambda", "stream", "iterator", "generator", "yield", "test",
        "tests", "unit", "mock", "debug", "debugger", "breakpoint", "log", "logging", "trace", "warning", "message",
        "install", "installed", "upgrade", "downgrade", "dependency", "build", "deploy", "release", "branch",
        "commit", "repository", "merge", "conflict", "user", "users", "admin", "permission", "access", "denied",
        "login", "password", "token", "session", "cookie", "header", "body", "json", "xml", "html", "css", "api",
        "endpoint", "service", "container", "image", "docker", "cloud", "machine", "windows", "linux", "mac",
        "android", "device", "screen", "mobile", "app", "application", "project", "framework", "engine", "plugin",
        "extension", "tool", "command", "shell", "terminal", "console", "environment", "workaround",
        "thanks", "please", "help", "helpful", "try", "tried", "trying", "see", "check", "checked", "look",
        "looks", "seems", "mean", "means", "think", "know", "need", "want", "use", "used", "using", "get", "got",
        "make", "made", "change", "changed", "add", "added", "remove", "removed", "create", "created", "delete",
        "deleted", "read", "write", "open", "close", "save", "load", "run", "running", "start", "stop", "show",
        "shows", "explain", "understand", "clarify", "mention", "mentioned", "suggest", "suggested", "accept",
        "accepted", "upvote", "downvote", "vote", "reopen",
    };

    /** Words beyond ASCII, drawn rarely, so some texts take more UTF-8 bytes than characters. */
    static final String[] NON_ASCII_WORDS = {
        "naïve", "café", "résumé", "façade", "déjà", "über", "–", "…", "→", "™",
    };

    /** User names for {@code @mentions}; digits are appended per mention. */
    static final String[] NAMES = {
        "john", "maria", "alex", "sam", "chris", "kim", "lee", "nguyen", "patel", "garcia", "smith", "müller",
        "dev", "coder", "hacker", "ninja", "guru", "wizard", "newbie", "user", "admin", "jon", "mark", "paul",
        "anna", "olga", "ivan", "li", "wang", "chen", "sato", "ali", "omar", "sara", "tom", "jane", "bob", "eve",
    };

    /** Identifiers for code-like tokens, e.g. {@code `parseInt()`} or {@code `list.size`}. */
    static final String[] IDENTIFIERS = {
        "foo", "bar", "baz", "x", "i", "n", "obj", "list", "map", "items", "data", "result", "value", "count",
        "size", "length", "name", "id", "parseInt", "toString", "equals", "hashCode", "getElementById",
        "addEventListener", "querySelector", "printf", "malloc", "strlen", "len", "append", "push", "pop",
        "split", "join", "substring", "indexOf", "main", "init", "self", "this", "args", "argv", "config",
        "NullPointerException", "IndexError", "undefined", "NaN", "std::vector", "HashMap", "ArrayList",
        "async", "await", "yield", "SELECT", "WHERE", "GROUP BY", "ORDER BY", "JOIN", "int", "char*", "void",
    };

    /** URL prefixes; a number or a short id follows. */
    static final String[] URL_PREFIXES = {
        "https://stackoverflow.com/questions/", "https://stackoverflow.com/a/", "http://stackoverflow.com/q/",
        "http://jsfiddle.net/", "https://github.com/", "https://docs.python.org/3/library/",
        "https://developer.mozilla.org/en-US/docs/Web/API/", "http://msdn.microsoft.com/en-us/library/",
        "https://en.wikipedia.org/wiki/", "http://php.net/manual/en/function.",
    };

    /** Ends of sentences, with the more frequent repeated. */
    static final String[] TERMINATORS = {".", ".", ".", ".", ".", ".", "?", "?", "?", "!", " :)", "...",};
}
