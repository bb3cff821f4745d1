package dev.stackbench.api;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go/k6 duration strings ("300ms", "20s", "1m30s") to and from {@link Duration}. */
public final class Durations {

    private static final Pattern WHOLE = Pattern.compile(SpecRules.DURATION_PATTERN);
    private static final Pattern PART = Pattern.compile("([0-9]+(?:[.][0-9]+)?)(ns|us|ms|s|m|h)");

    private Durations() {}

    /** The longest duration Go and k6 represent (int64 nanoseconds), as they print it. */
    public static final String LONGEST = "2562047h47m16.854775807s";

    /**
     * True when {@link #parse} reads the text: it matches {@link SpecRules#DURATION_PATTERN} and is no longer than
     * {@link #LONGEST}. The pattern alone admits durations Go cannot hold, so validation asks this, never the pattern.
     */
    public static boolean isValid(String text) {
        return tryParse(text).isPresent();
    }

    /** The duration, or empty when {@link #parse} would refuse the text; never throws. */
    public static Optional<Duration> tryParse(String text) {
        if (text == null || !WHOLE.matcher(text).matches()) {
            return Optional.empty();
        }
        BigInteger nanos = nanos(text);
        return nanos.bitLength() < Long.SIZE ? Optional.of(Duration.ofNanos(nanos.longValue())) : Optional.empty();
    }

    /**
     * Parses a duration matching {@link SpecRules#DURATION_PATTERN} as Go does: parts add up, and what is below a
     * nanosecond is dropped ("20.5ns" is 20 ns). Throws, saying what to write, for anything else.
     */
    public static Duration parse(String text) {
        if (text == null || !WHOLE.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write a number with a unit (ns, us,"
                    + " ms, s, m, h), e.g. 300ms, 20s or 1m30s");
        }
        return tryParse(text)
                .orElseThrow(() -> new IllegalArgumentException(
                        "'" + text + "' is longer than the longest duration k6 accepts (" + LONGEST + ")"));
    }

    private static BigInteger nanos(String text) {
        Matcher part = PART.matcher(text);
        BigDecimal nanos = BigDecimal.ZERO;
        while (part.find()) {
            nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit(part.group(2)))));
        }
        return nanos.setScale(0, RoundingMode.DOWN).toBigIntegerExact();
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
