package dev.columba.datagen;

/**
 * The length budget of a comment's text, drawn from a log-normal distribution clamped to
 * [min, max] by table lookup: one uniform draw per row instead of a logarithm, a cosine and an
 * exponential. The table holds the budget at {@value #QUANTILES} evenly spaced quantiles; it is
 * built once with {@link StrictMath}, so it is identical on every platform.
 */
final class CommentLengths {
    static final int QUANTILES = 1 << 16;

    private final int[] budgetByQuantile = new int[QUANTILES];

    CommentLengths(double median, double sigma, int minLength, int maxLength) {
        // cumulative[length - minLength]: the probability of a budget of at most length characters;
        // lengths below the minimum fold into it, and those above the maximum into that.
        double[] cumulative = new double[maxLength - minLength + 1];
        double logMedian = StrictMath.log(median);
        for (int length = minLength; length < maxLength; length++) {
            cumulative[length - minLength] = normalCdf((StrictMath.log(length + 0.5) - logMedian) / sigma);
        }
        cumulative[maxLength - minLength] = 1.0;
        int length = minLength;
        for (int quantile = 0; quantile < QUANTILES; quantile++) {
            double probability = (quantile + 0.5) / QUANTILES;
            while (cumulative[length - minLength] < probability) {
                length++;
            }
            budgetByQuantile[quantile] = length;
        }
    }

    int draw(RowRandom random) {
        return budgetByQuantile[random.nextInt(QUANTILES)];
    }

    /** The standard normal distribution function, by Abramowitz and Stegun 7.1.26 (error below 1.5e-7). */
    static double normalCdf(double x) {
        double z = Math.abs(x) / StrictMath.sqrt(2.0);
        double t = 1.0 / (1.0 + 0.3275911 * z);
        double polynomial = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double erf = 1.0 - polynomial * StrictMath.exp(-z * z);
        return x >= 0 ? 0.5 * (1.0 + erf) : 0.5 * (1.0 - erf);
    }
}
