package dev.stackbench.local;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.Durations;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.report.GaugePoint;
import dev.stackbench.report.LatencyPercentile;
import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RequestTimeline;
import dev.stackbench.report.RunDetails;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One run read back from its results directory alone (the files {@link ResultsLayout.RunFiles} names), so a report
 * can be rendered again later, of runs from different invocations, or of a cluster run written into the same layout.
 * Only benchmarkrun.yaml and status.json are required; every other file adds what it holds, and a missing one leaves
 * its part of the report empty.
 *
 * @param run the BenchmarkRun with its status
 * @param report what the report shows of it
 * @param provenance what made it, or null when the directory does not say (written before provenance.json existed)
 */
public record RunResults(BenchmarkRun run, ReportRun report, Provenance provenance) {

    private static final ObjectMapper JSON =
            new ObjectMapper().findAndRegisterModules().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The files that make a directory a run's results. */
    static final List<String> REQUIRED = List.of("benchmarkrun.yaml", "status.json");

    /** Raw files the report links to, in this order, when the directory has them. */
    private static final List<String> LINKED = List.of(
            "benchmarkrun.yaml",
            "status.json",
            "environment.json",
            "provenance.json",
            "requests-per-second.csv",
            "warmup-requests-per-second.csv",
            "latency-percentiles.csv",
            "requests-by-name.csv",
            "target-metrics.csv",
            "k6-summary.json",
            "k6-script.js",
            "k6.log",
            "target.log",
            "delay-service.log",
            "prometheus-scrapes.txt");

    /** Whether the directory holds a run's results. */
    public static boolean isRunDirectory(Path dir) {
        return REQUIRED.stream().allMatch(name -> Files.isRegularFile(dir.resolve(name)));
    }

    /**
     * Reads the run in {@code dir}.
     *
     * @throws IllegalArgumentException when a required file is missing or unreadable, saying which and what to pass
     */
    public static RunResults read(Path dir) {
        ResultsLayout.RunFiles files = new ResultsLayout.RunFiles(dir);
        List<String> missing = REQUIRED.stream()
                .filter(name -> !Files.isRegularFile(dir.resolve(name)))
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(dir + " is not a run's results directory: it has no "
                    + String.join(" and no ", missing) + "; pass a directory ./stackbench run wrote (results/<time>"
                    + " or one of its numbered run directories)");
        }
        BenchmarkRun run;
        String specYaml;
        try {
            specYaml = Files.readString(files.spec());
            run = BenchmarkRuns.read(specYaml, files.spec().toString()).getFirst();
            run.setStatus(JSON.readValue(files.status().toFile(), BenchmarkRunStatus.class));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "could not read the run in " + dir + ": " + e.getMessage()
                            + "; its benchmarkrun.yaml and status.json must be the files ./stackbench run wrote",
                    e);
        }
        // A sweep's figures are those of its kept step, whose files are in the step's own directory.
        ResultsLayout.RunFiles load = keptStep(dir, run.getStatus()).orElse(files);
        List<GaugePoint> threads = new ArrayList<>();
        List<GaugePoint> targetCpu = new ArrayList<>();
        List<GaugePoint> k6Cpu = new ArrayList<>();
        for (Map<String, String> row : CsvTable.read(load.metrics())) {
            double second = CsvTable.number(row, "second");
            addGauge(targetCpu, second, row, "target_cpu_cores");
            addGauge(k6Cpu, second, row, "k6_cpu_cores");
            addGauge(threads, second, row, "live_threads");
        }
        Double k6Cores = k6Cpu.isEmpty()
                ? null
                : k6Cpu.stream().mapToDouble(GaugePoint::value).average().orElseThrow();
        Optional<LocalManifest> manifest = readJson(files.environment(), LocalManifest.class);
        Provenance provenance = readJson(files.provenance(), Provenance.class).orElse(null);
        Map<String, Object> environment = manifest.map(LocalManifest::rows)
                .orElseGet(() -> JSON.convertValue(run.getStatus().getEnvironment(), LinkedHashMap.class));
        List<String> notes = manifest.map(m -> m.isolationNotes() == null ? List.<String>of() : m.isolationNotes())
                .orElse(List.of());
        double measuredSeconds;
        try {
            measuredSeconds = Durations.seconds(
                    Durations.parse(run.getSpec().getWorkload().getDuration()));
        } catch (RuntimeException e) {
            measuredSeconds = Double.NaN;
        }
        RunDetails details = new RunDetails(
                dir,
                linkedFiles(dir, load),
                timeline(load.warmupTimeline()).stream()
                        .filter(point -> point.second() < 0)
                        .toList(),
                spectrum(load.latencyPercentiles()),
                provenance == null ? Map.of() : provenanceRows(provenance),
                run.getStatus().getSummary() == null
                                || run.getStatus().getSummary().getStatusCodes() == null
                        ? Map.of()
                        : run.getStatus().getSummary().getStatusCodes(),
                K6SummaryFigures.checks(load.k6Summary()),
                requestNames(load),
                run.getStatus().getTimeline());
        ReportRun report = new ReportRun(
                ReportRows.fromStatus(run, k6Cores),
                timeline(load.timeline()),
                threads,
                targetCpu,
                k6Cpu,
                notes,
                environment,
                specYaml,
                measuredSeconds,
                details);
        return new RunResults(run, report, provenance);
    }

    /** The kept step's directory (step-NN-LEVEL) of a sweep or capacity search, if the run has one on disk. */
    /** Per request name: from k6's own time-stamped samples when the run kept them, else from k6's summary. */
    private static List<RunDetails.RequestNameFigures> requestNames(ResultsLayout.RunFiles load) {
        List<RunDetails.RequestNameFigures> fromSamples = RequestNameTotals.readCsv(load.requestsByName());
        return fromSamples.isEmpty() ? K6SummaryFigures.requestNames(load.k6Summary()) : fromSamples;
    }

    private static Optional<ResultsLayout.RunFiles> keptStep(Path dir, BenchmarkRunStatus status) {
        if (status == null || status.getSummary() == null || status.getSummary().getStep() == null) {
            return Optional.empty();
        }
        String prefix =
                String.format(Locale.ROOT, "step-%02d-", status.getSummary().getStep());
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory)
                    .filter(child -> child.getFileName().toString().startsWith(prefix))
                    .findFirst()
                    .map(ResultsLayout.RunFiles::new);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void addGauge(List<GaugePoint> points, double second, Map<String, String> row, String column) {
        double value = CsvTable.number(row, column);
        if (!Double.isNaN(second) && !Double.isNaN(value)) {
            points.add(new GaugePoint(second, value));
        }
    }

    /** A requests-per-second CSV, read by column name: columns added later are ignored. */
    static List<RequestTimeline.Point> timeline(Path csv) {
        List<RequestTimeline.Point> points = new ArrayList<>();
        for (Map<String, String> row : CsvTable.read(csv)) {
            points.add(new RequestTimeline.Point(
                    (long) CsvTable.number(row, "second"),
                    (long) CsvTable.number(row, "requests"),
                    (long) orZero(CsvTable.number(row, "failed")),
                    (long) orZero(CsvTable.number(row, "dropped")),
                    CsvTable.number(row, "p50_ms"),
                    CsvTable.number(row, "p95_ms"),
                    CsvTable.number(row, "p99_ms")));
        }
        return points;
    }

    private static List<LatencyPercentile> spectrum(Path csv) {
        return CsvTable.read(csv).stream()
                .map(row ->
                        new LatencyPercentile(CsvTable.number(row, "percentile"), CsvTable.number(row, "latency_ms")))
                .filter(point -> !Double.isNaN(point.percentile()) && !Double.isNaN(point.latencyMs()))
                .toList();
    }

    private static double orZero(double value) {
        return Double.isNaN(value) ? 0 : value;
    }

    /** The raw files the report links to, relative to the run's directory (a sweep's kept step's under its own). */
    private static List<String> linkedFiles(Path dir, ResultsLayout.RunFiles load) {
        List<String> files = new ArrayList<>();
        for (String name : LINKED) {
            if (Files.isRegularFile(dir.resolve(name))) {
                files.add(name);
            } else if (Files.isRegularFile(load.dir().resolve(name))) {
                files.add(dir.relativize(load.dir().resolve(name)).toString());
            }
        }
        return files;
    }

    static Map<String, Object> provenanceRows(Provenance provenance) {
        Map<String, Object> rows = new LinkedHashMap<>();
        rows.put("stackbench", provenance.stackbenchVersion());
        rows.put(
                "stackbench commit",
                provenance.stackbenchCommit() + (provenance.stackbenchDirty() ? " (with uncommitted changes)" : ""));
        rows.put("k6", provenance.k6Version());
        rows.put("host", provenance.host());
        rows.put("CPU model", provenance.cpuModel());
        rows.put("CPUs", provenance.cpus());
        rows.put("kernel", provenance.kernel());
        rows.put("JDK", provenance.jdk());
        rows.put("target jar", provenance.targetJar());
        rows.put("target jar SHA-256", provenance.targetJarSha256());
        rows.values().removeIf(java.util.Objects::isNull);
        return rows;
    }

    private static <T> Optional<T> readJson(Path file, Class<T> type) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not read " + file + ": " + e.getMessage()
                            + "; it must be the file ./stackbench run wrote (or remove it to render without it)",
                    e);
        }
    }

    /** The k6 summary as JSON, or null when there is none or it cannot be read. */
    static JsonNode json(Path file) {
        try {
            return Files.isRegularFile(file) ? JSON.readTree(file.toFile()) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
