package dev.stackbench.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The file of timestamped target scrapes local mode keeps beside a run's results ({@code prometheus-scrapes.txt}):
 * every scrape as the target answered it, each preceded by a line {@code # scraped at <ISO-8601 instant>}. The
 * marker is a Prometheus comment, so the file stays readable by any Prometheus text tool. This class is the one place
 * that writes and reads that format.
 */
public final class ScrapeLog {

    static final String MARKER = "# scraped at ";

    private ScrapeLog() {}

    public static String format(List<TimedScrape> entries) {
        StringBuilder text = new StringBuilder();
        for (TimedScrape entry : entries) {
            text.append(MARKER).append(entry.at()).append('\n').append(entry.prometheusText());
            if (!entry.prometheusText().endsWith("\n")) {
                text.append('\n');
            }
        }
        return text.toString();
    }

    public static void write(Path file, List<TimedScrape> entries) {
        try {
            Files.writeString(file, format(entries));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the target scrapes to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The scrapes in the order they appear. Text before the first marker is refused, naming its line. */
    public static List<TimedScrape> parse(String text) {
        List<TimedScrape> entries = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        Instant at = null;
        StringBuilder body = new StringBuilder();
        for (int number = 0; number < lines.length; number++) {
            String line = lines[number];
            if (line.startsWith(MARKER)) {
                if (at != null) {
                    entries.add(entry(at, body));
                }
                at = instant(line.substring(MARKER.length()).strip(), number + 1);
                body.setLength(0);
            } else if (at != null) {
                body.append(line).append('\n');
            } else if (!line.isBlank()) {
                throw new IllegalArgumentException("line " + (number + 1) + " of the scrape log comes before any '"
                        + MARKER.strip() + " <instant>' line; a scrape log starts with one: " + line);
            }
        }
        if (at != null) {
            entries.add(entry(at, body));
        }
        return entries;
    }

    private static TimedScrape entry(Instant at, StringBuilder body) {
        return new TimedScrape(at, body.toString().stripTrailing() + "\n");
    }

    public static List<TimedScrape> read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the target scrapes in " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static Instant instant(String text, int line) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "line " + line + " of the scrape log has no ISO-8601 instant after '" + MARKER.strip()
                            + "' (e.g. 2026-01-01T10:00:00.123Z): " + text,
                    e);
        }
    }
}
