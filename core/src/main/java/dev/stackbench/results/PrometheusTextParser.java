package dev.stackbench.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the Prometheus text exposition format (what Spring Boot's /actuator/prometheus and cAdvisor serve). Comment
 * lines are skipped; a line that cannot be read is reported with its number.
 */
public final class PrometheusTextParser {

    private PrometheusTextParser() {}

    public static PrometheusScrape parse(String text) {
        List<PrometheusScrape.Sample> samples = new ArrayList<>();
        String[] lines = text.split("\\R");
        for (int number = 0; number < lines.length; number++) {
            String line = lines[number].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                samples.add(parseLine(line));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "line " + (number + 1) + " of the Prometheus metrics is not a" + " sample (" + e.getMessage()
                                + "): " + line,
                        e);
            }
        }
        return new PrometheusScrape(samples);
    }

    private static PrometheusScrape.Sample parseLine(String line) {
        int nameEnd = 0;
        while (nameEnd < line.length() && isNameChar(line.charAt(nameEnd))) {
            nameEnd++;
        }
        if (nameEnd == 0) {
            throw new IllegalArgumentException("no metric name");
        }
        String name = line.substring(0, nameEnd);
        Map<String, String> labels = new LinkedHashMap<>();
        int position = nameEnd;
        if (position < line.length() && line.charAt(position) == '{') {
            position = parseLabels(line, position + 1, labels);
        }
        String[] rest = line.substring(position).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty()) {
            throw new IllegalArgumentException("no value");
        }
        Long timestamp = rest.length > 1 ? Long.valueOf(rest[1]) : null;
        return new PrometheusScrape.Sample(name, Map.copyOf(labels), parseValue(rest[0]), timestamp);
    }

    /** Reads label pairs up to the closing brace; returns the position after it. */
    private static int parseLabels(String line, int position, Map<String, String> labels) {
        while (true) {
            while (position < line.length() && (line.charAt(position) == ' ' || line.charAt(position) == ',')) {
                position++;
            }
            if (position >= line.length()) {
                throw new IllegalArgumentException("labels are not closed");
            }
            if (line.charAt(position) == '}') {
                return position + 1;
            }
            int equals = line.indexOf('=', position);
            if (equals < 0 || equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
                throw new IllegalArgumentException("label without a quoted value");
            }
            String key = line.substring(position, equals).strip();
            StringBuilder value = new StringBuilder();
            int i = equals + 2;
            for (; i < line.length() && line.charAt(i) != '"'; i++) {
                char c = line.charAt(i);
                if (c == '\\' && i + 1 < line.length()) {
                    char next = line.charAt(++i);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            if (i >= line.length()) {
                throw new IllegalArgumentException("label value is not closed");
            }
            labels.put(key, value.toString());
            position = i + 1;
        }
    }

    private static double parseValue(String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':';
    }
}
