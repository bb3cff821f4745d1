package dev.stackbench.api;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go/k6 duration strings ("300ms", "20s", "1m30s") to and from {@link Duration}. */
public final class Durations {

    private static final Pattern WHOLE = Pattern.compile(SpecRules.DURATION_PATTERN);
    private static final Pattern PART = Pattern.compile("([0-9]+(?:[.][0-9]+)?)(ns|us|ms|s|m|h)");

    private Durations() {}

    public static boolean isValid(String text) {
        return text != null && WHOLE.matcher(text).matches();
    }

    /** Parses a duration matching {@link SpecRules#DURATION_PATTERN}; throws with an example otherwise. */
    public static Duration parse(String text) {
        if (!isValid(text)) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write a number with a unit (ns, us,"
                    + " ms, s, m, h), e.g. 300ms, 20s or 1m30s");
        }
        Matcher part = PART.matcher(text);
        BigDecimal nanos = BigDecimal.ZERO;
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit(part.group(2)))));
        }
        return Duration.ofNanos(nanos.longValueExact());
    }

    /** Formats in the style k6 and Go accept, e.g. 90 s -> "1m30s", 0.3 s -> "300ms", 1.5 s -> "1500ms". */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        long nanos = duration.toNanos();
        if (nanos % 1_000_000 != 0) {
            return nanos % 1_000 == 0 ? nanos / 1_000 + "us" : nanos + "ns";
        }
        long millis = duration.toMillis();
        if (millis % 1_000 != 0) {
            return millis + "ms";
        }
        StringBuilder text = new StringBuilder();
        if (duration.toHours() > 0) {
            text.append(duration.toHours()).append('h');
        }
        if (duration.toMinutesPart() > 0) {
            text.append(duration.toMinutesPart()).append('m');
        }
        if (duration.toSecondsPart() > 0) {
            text.append(duration.toSecondsPart()).append('s');
        }
        return text.toString();
    }

    /** Fractional seconds, for rates and Little's law. */
    public static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    private static long nanosPerUnit(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new IllegalArgumentException("unknown duration unit " + unit);
        };
    }
}
