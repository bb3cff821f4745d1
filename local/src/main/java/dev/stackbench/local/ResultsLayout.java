package dev.stackbench.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Where an invocation writes its results: one directory per invocation (default results/&lt;timestamp&gt;),
 * one sub-directory per run, and the comparison report at the top.
 */
public record ResultsLayout(Path root) {

    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().enable(SerializationFeature.INDENT_OUTPUT);

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    /** Attempts at a free name for one timestamp: more runs than this starting in one second is not plausible. */
    private static final int NAME_ATTEMPTS = 1000;

    /**
     * Creates a new directory results/&lt;timestamp&gt; for this invocation, or &lt;timestamp&gt;-2, -3, ... when
     * another invocation (a run refused meanwhile, a run of another checkout's CLI) took that second's name first: the
     * directory is created atomically, so two invocations never share one.
     */
    public static ResultsLayout createUnderDefaultDirectory(Path repoRoot, ZonedDateTime now) throws IOException {
        Path parent = Files.createDirectories(repoRoot.resolve("results"));
        String stamp = STAMP.format(now.withZoneSameInstant(ZoneOffset.UTC));
        for (int attempt = 1; attempt <= NAME_ATTEMPTS; attempt++) {
            Path candidate = parent.resolve(attempt == 1 ? stamp : stamp + "-" + attempt);
            try {
                return new ResultsLayout(Files.createDirectory(candidate));
            } catch (FileAlreadyExistsException taken) {
                // Someone else's: try the next name.
            }
        }
        throw new IOException("could not create a results directory under " + parent + ": " + stamp + " and "
                + (NAME_ATTEMPTS - 1) + " numbered names after it all exist; remove old results or pass"
                + " --results-dir");
    }

    /** The directory of the n-th run (1-based) of this invocation, named so a listing keeps the order. */
    public Path run(int index, String runName) {
        return root.resolve(String.format(Locale.ROOT, "%02d-%s", index, runName.replaceAll("[^A-Za-z0-9._-]", "_")));
    }

    public Path report() {
        return root.resolve("report.html");
    }

    public Path comparisonTable() {
        return root.resolve("summary.txt");
    }

    /** The statistics of repeated runs (run --repetitions): medians, intervals, shifts and verdicts. */
    public Path repetitionStatistics() {
        return root.resolve("comparison.txt");
    }

    /** A comparison's status as the operator would write it (JSON). */
    public Path comparisonStatus() {
        return root.resolve("comparison.json");
    }

    public Path comparisonStatuses() {
        return root.resolve("statuses.json");
    }

    /** Files of one run. */
    public record RunFiles(Path dir) {
        public Path status() {
            return dir.resolve("status.json");
        }

        public Path spec() {
            return dir.resolve("benchmarkrun.yaml");
        }

        public Path environment() {
            return dir.resolve("environment.json");
        }

        public Path k6Script() {
            return dir.resolve("k6-script.js");
        }

        /** A custom scenario's module, beside the script that imports it. */
        public Path customModule() {
            return dir.resolve("custom.js");
        }

        public Path k6Summary() {
            return dir.resolve("k6-summary.json");
        }

        /** Per-second figures of k6's stackbench output, one JSON line per second ({@link K6PerSecondFile}). */
        public Path k6PerSecond() {
            return dir.resolve("k6-per-second.ndjson");
        }

        public Path k6Log() {
            return dir.resolve("k6.log");
        }

        public Path metrics() {
            return dir.resolve("target-metrics.csv");
        }

        public Path timeline() {
            return dir.resolve("requests-per-second.csv");
        }

        /** The warmup's requests per second, its seconds counted back from the measured window's start (negative). */
        public Path warmupTimeline() {
            return dir.resolve("warmup-requests-per-second.csv");
        }

        /** The measured window's latency distribution as a percentile table (HdrHistogram's percentile spectrum). */
        public Path latencyPercentiles() {
            return dir.resolve("latency-percentiles.csv");
        }

        /** Requests, failures and latency of each request name over the measured window. */
        public Path requestsByName() {
            return dir.resolve("requests-by-name.csv");
        }

        /** What made the results: the stackbench build, k6 and this machine. */
        public Path provenance() {
            return dir.resolve("provenance.json");
        }

        public Path scrapes() {
            return dir.resolve("prometheus-scrapes.txt");
        }

        public Path targetLog() {
            return dir.resolve("target.log");
        }

        public Path delayServiceLog() {
            return dir.resolve("delay-service.log");
        }

        /** What the requests sent before the load showed of the target's work per request. */
        public Path verification() {
            return dir.resolve("verification.json");
        }

        /** The verification's k6 scripts, summaries and logs. */
        public Path verificationDir() {
            return dir.resolve("verification");
        }

        public Path postgresDir() {
            return dir.resolve("postgres");
        }
    }

    /** Writes a results file as indented JSON, creating its directory. */
    static void writeJson(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + file + ": " + e.getMessage(), e);
        }
    }
}
