package dev.columba.datagen;

/**
 * Writes the text of one comment into a {@code StringBuilder} reused from row to row: an optional
 * {@code @mention}, then sentences of words with commas, and now and then a code token in
 * backticks, a number or a URL, until the next token would pass the row's length budget.
 *
 * <p>The budget comes from {@link CommentsGenerator}'s length distribution, so the text ends
 * within a word of it and never past it. Numbers, mention digits and the sheer number of word
 * sequences make the texts essentially all distinct, which is the property seed 001 depends on:
 * a column whose dictionary cannot stay small. Nothing is allocated but the text itself.
 *
 * <p>One instance per cursor. A builder that took a character beyond Latin-1 keeps two bytes per
 * character for good, which halves the speed of every later append, so such a builder is
 * replaced after its row (one row in a hundred or so).
 */
final class CommentText {
    private static final int CAPACITY = 1024;
    /** After this many tokens that do not fit, the text is as long as it will get... */
    private static final int MAX_MISFITS = 4;
    /** ...unless it is still short, then it keeps trying short words, up to this many times. */
    private static final int MAX_MISFITS_WHEN_SHORT = 64;

    private StringBuilder out = new StringBuilder(CAPACITY);
    /** Whether {@link #out} took a character beyond Latin-1 in this row. */
    private boolean wide;

    /**
     * The text of the row {@code random} was started on: at most {@code maxLength} characters
     * and, barring a long run of bad luck, at least {@code shortLength}.
     */
    String write(RowRandom random, int maxLength, int shortLength) {
        out.setLength(0);
        if (random.chance(0.18)) {
            appendMention(random);
        }
        int misfits = 0;
        boolean sentenceStart = true;
        int wordsLeftInSentence = sentenceLength(random);
        while (maxLength - out.length() > 1
                && (misfits < MAX_MISFITS || out.length() < shortLength && misfits < MAX_MISFITS_WHEN_SHORT)) {
            int mark = out.length();
            if (mark > 0) {
                out.append(' ');
            }
            int tokenStart = out.length();
            if (misfits < MAX_MISFITS) {
                appendToken(random);
            } else {
                out.append(pick(random, CommentVocabulary.FUNCTION_WORDS));
            }
            if (sentenceStart) {
                out.setCharAt(tokenStart, Character.toUpperCase(out.charAt(tokenStart)));
            } else if (random.chance(0.07)) {
                out.append(',');
            }
            boolean sentenceEnds = wordsLeftInSentence == 1;
            if (sentenceEnds) {
                out.append(pick(random, CommentVocabulary.TERMINATORS));
            }
            if (out.length() > maxLength) {
                out.setLength(mark);
                misfits++;
            } else if (sentenceEnds) {
                sentenceStart = true;
                wordsLeftInSentence = sentenceLength(random);
            } else {
                sentenceStart = false;
                wordsLeftInSentence--;
            }
        }
        finishSentence(random, maxLength);
        String text = out.toString();
        if (wide) {
            out = new StringBuilder(CAPACITY);
            wide = false;
        }
        return text;
    }

    /** Ends the text as a person would: no dangling comma, and a terminator when there is room. */
    private void finishSentence(RowRandom random, int maxLength) {
        if (out.isEmpty()) {
            // Only when every token drawn was longer than the whole budget.
            out.append("ok", 0, Math.min(2, maxLength));
            return;
        }
        int last = out.length() - 1;
        if (out.charAt(last) == ',') {
            out.setLength(last);
        }
        char end = out.charAt(out.length() - 1);
        if (end != '.' && end != '?' && end != '!' && end != ')' && out.length() < maxLength) {
            out.append(random.chance(0.75) ? '.' : '?');
        }
    }

    private static int sentenceLength(RowRandom random) {
        return 4 + random.nextInt(15);
    }

    private void appendToken(RowRandom random) {
        double kind = random.nextDouble();
        if (kind < 0.010) {
            appendCode(random);
        } else if (kind < 0.020) {
            appendNumber(random);
        } else if (kind < 0.023) {
            appendUrl(random);
        } else if (kind < 0.024) {
            String word = pick(random, CommentVocabulary.NON_ASCII_WORDS);
            out.append(word);
            for (int index = 0; index < word.length(); index++) {
                wide |= word.charAt(index) > 0xFF;
            }
        } else if (kind < 0.45) {
            out.append(pick(random, CommentVocabulary.FUNCTION_WORDS));
        } else {
            out.append(pick(random, CommentVocabulary.CONTENT_WORDS));
        }
    }

    private void appendMention(RowRandom random) {
        out.append('@').append(pick(random, CommentVocabulary.NAMES));
        if (random.chance(0.7)) {
            out.append(random.nextInt(100_000));
        }
    }

    private void appendCode(RowRandom random) {
        out.append('`').append(pick(random, CommentVocabulary.IDENTIFIERS));
        switch (random.nextInt(4)) {
            case 0 -> out.append("()");
            case 1 -> out.append('.').append(pick(random, CommentVocabulary.IDENTIFIERS));
            case 2 -> out.append('[').append(random.nextInt(10)).append(']');
            default -> {
                // a bare identifier
            }
        }
        out.append('`');
    }

    private void appendNumber(RowRandom random) {
        if (random.chance(0.3)) {
            out.append(random.nextInt(10)).append('.').append(random.nextInt(20)).append('.').append(random.nextInt(10));
        } else {
            out.append(random.nextInt(random.chance(0.5) ? 100 : 100_000));
        }
    }

    private void appendUrl(RowRandom random) {
        out.append(pick(random, CommentVocabulary.URL_PREFIXES));
        if (random.chance(0.6)) {
            out.append(1 + random.nextInt(40_000_000));
        } else {
            for (int character = 0; character < 6; character++) {
                out.append(Character.forDigit(random.nextInt(36), 36));
            }
        }
    }

    private static String pick(RowRandom random, String[] words) {
        return words[random.nextInt(words.length)];
    }
}
