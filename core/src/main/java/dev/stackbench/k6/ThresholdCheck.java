package dev.stackbench.k6;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A k6 threshold expression such as {@code p(95)<500}, {@code rate<0.01} or {@code avg<=200}: the one grammar
 * stackbench uses both to refuse a malformed threshold before a run starts and to evaluate a threshold on the
 * figures it combined from several runners.
 *
 * <p>The grammar is k6's: {@code <aggregation> <operator> <number>}, spaces allowed around the operator, where the
 * aggregation is avg, min, max, med or p(N) (trends), count or rate (counters), rate (rates) or value (gauges), the
 * operator one of {@code < <= > >= == === !=}, and the number plain (no unit; durations are milliseconds).
 *
 * @param aggregation the left side: avg, min, max, med, count, rate, value or p(N)
 */
public record ThresholdCheck(String aggregation, String operator, double limit) {

    /** How to write a threshold, for messages. */
    public static final String GRAMMAR = "a threshold is <aggregation><operator><number>, e.g. p(95)<500,"
            + " rate<0.01, avg<200, max<1000, count>0 (durations in milliseconds, rates between 0 and 1)";

    private static final String NUMBER = "[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?";
    private static final Pattern EXPRESSION = Pattern.compile("^\\s*(avg|min|max|med|count|rate|value|p\\((" + NUMBER
            + ")\\))\\s*(<=|>=|===|==|!=|<|>)\\s*(" + NUMBER + ")\\s*$");
    /** The first comparison operator: splits an expression into its two sides. */
    private static final Pattern OPERATOR = Pattern.compile("<=|>=|===|==|!=|<|>");

    private static final Pattern LEFT = Pattern.compile("^(avg|min|max|med|count|rate|value|p\\((.*)\\))$");
    private static final Pattern NUMBER_ONLY = Pattern.compile("^" + NUMBER + "$");

    /** The expression, or empty when it does not follow the grammar (see {@link #problem}). */
    public static Optional<ThresholdCheck> parse(String expression) {
        if (expression == null) {
            return Optional.empty();
        }
        Matcher matcher = EXPRESSION.matcher(expression);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String aggregation = matcher.group(1);
        if (matcher.group(2) != null) {
            double percentile = Double.parseDouble(matcher.group(2));
            if (percentile < 0 || percentile > 100) {
                return Optional.empty();
            }
        }
        return Optional.of(new ThresholdCheck(aggregation, matcher.group(3), Double.parseDouble(matcher.group(4))));
    }

    /**
     * What is wrong with an expression, as a sentence naming the part to change; empty when it follows the grammar.
     */
    public static Optional<String> problem(String expression) {
        if (expression == null || expression.isBlank()) {
            return Optional.of("the expression is empty");
        }
        if (parse(expression).isPresent()) {
            return Optional.empty();
        }
        Matcher operator = OPERATOR.matcher(expression);
        if (!operator.find()) {
            return Optional.of("it has no comparison (<, <=, >, >=, ==, !=)");
        }
        String left = expression.substring(0, operator.start()).strip();
        String right = expression.substring(operator.end()).strip();
        if (right.startsWith("=") || right.startsWith("<") || right.startsWith(">")) {
            return Optional.of("'" + expression.substring(operator.start(), operator.end()) + right.charAt(0)
                    + "' is not a comparison: use <, <=, >, >=, == or !=");
        }
        Matcher aggregation = LEFT.matcher(left);
        if (!aggregation.matches()) {
            return Optional.of("'" + left + "' is not an aggregation: use avg, min, max, med or p(N) on a trend"
                    + " such as http_req_duration, rate on a rate such as http_req_failed, count or rate on a"
                    + " counter such as http_reqs, value on a gauge such as vus");
        }
        if (aggregation.group(2) != null) {
            String percentile = aggregation.group(2);
            if (!NUMBER_ONLY.matcher(percentile).matches()
                    || Double.parseDouble(percentile) < 0
                    || Double.parseDouble(percentile) > 100) {
                return Optional.of("'" + left + "' is not a percentile: write p(N) with N from 0 to 100, e.g. p(95)"
                        + " or p(99.9)");
            }
        }
        if (!NUMBER_ONLY.matcher(right).matches()) {
            return Optional.of("the limit '" + right + "' is not a plain number: thresholds compare numbers"
                    + " without units (durations are milliseconds: write 1000 for 1s)");
        }
        return Optional.of("it does not follow the grammar");
    }

    /** The percentile of a p(N) aggregation, or empty. */
    public Optional<Double> percentile() {
        return aggregation.startsWith("p(")
                ? Optional.of(Double.parseDouble(aggregation.substring(2, aggregation.length() - 1)))
                : Optional.empty();
    }

    /** The aggregation without its percentile: p for p(N), otherwise the aggregation itself. */
    public String method() {
        return aggregation.startsWith("p(") ? "p" : aggregation;
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
