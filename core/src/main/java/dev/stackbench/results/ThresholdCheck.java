package dev.stackbench.results;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A k6 threshold expression such as {@code p(95)<500}, {@code rate<0.01} or {@code avg<=200}, evaluated on a value
 * stackbench computed itself.
 *
 * @param aggregation the left side: avg, min, max, med, count, rate or p(N)
 */
public record ThresholdCheck(String aggregation, String operator, double limit) {

    private static final Pattern EXPRESSION =
            Pattern.compile("^\\s*(avg|min|max|med|count|rate|p\\((\\d+(?:\\.\\d+)?)\\))\\s*(<=|>=|===|==|!=|<|>)\\s*"
                    + "(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*$");

    /** Empty when the expression is not one stackbench evaluates (k6's own verdict is used then). */
    public static Optional<ThresholdCheck> parse(String expression) {
        Matcher matcher = EXPRESSION.matcher(expression);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        double limit = Double.parseDouble(matcher.group(4));
        return Optional.of(new ThresholdCheck(matcher.group(1), matcher.group(3), limit));
    }

    /** The percentile of a p(N) aggregation, or empty. */
    public Optional<Double> percentile() {
        return aggregation.startsWith("p(")
                ? Optional.of(Double.parseDouble(aggregation.substring(2, aggregation.length() - 1)))
                : Optional.empty();
    }

    public boolean passes(double value) {
        return switch (operator) {
            case "<" -> value < limit;
            case "<=" -> value <= limit;
            case ">" -> value > limit;
            case ">=" -> value >= limit;
            case "==", "===" -> value == limit;
            case "!=" -> value != limit;
            default -> throw new IllegalStateException("unknown operator " + operator);
        };
    }
}
