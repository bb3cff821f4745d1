package dev.stackbench.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.comparison.BenchmarkComparisonSpec;
import dev.stackbench.api.comparison.BenchmarkComparisonStatus;
import dev.stackbench.api.comparison.ComparisonDefaults;
import dev.stackbench.api.comparison.ComparisonVariant;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.RunEnvironment;
import dev.stackbench.comparison.ComparisonResults;
import dev.stackbench.comparison.ComparisonTable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The comparison statistics of runs that were made separately (different invocations, other days): the runs are
 * grouped by variant and by the parameters that shape a result (workload, resources, JVM options, environment), each
 * group is one side of the comparison with its runs as repetitions, the first group being the baseline, and the same
 * statistics and table as `./stackbench run --repetitions` give are computed. Runs made apart may not have run in the
 * same conditions: every difference in what made them is listed.
 *
 * @param status the concluded comparison (Failed when a side has too few valid runs)
 * @param table the statistics table, as local mode prints it
 * @param groups each side's label and the names of its runs
 * @param differences what differs between the runs' environments, one line each; empty when nothing does
 */
public record SeparateRunsComparison(
        BenchmarkComparisonStatus status, String table, Map<String, List<String>> groups, List<String> differences) {

    static final String SHARED = "nothing: runs made separately, each with its own processes";

    /**
     * How the runs are compared.
     *
     * @param baseline the variant whose side is the baseline, or null for the side of the first run
     * @param includeFlaggedRuns count runs whose load generator could not keep up
     */
    public record Options(double confidence, String baseline, boolean includeFlaggedRuns) {}

    /**
     * Compares the runs of every directory, in the order given.
     *
     * @throws IllegalArgumentException when the baseline names no variant of the runs
     */
    public static SeparateRunsComparison of(List<ResultsDirectories.Invocation> invocations, Options options) {
        Map<String, Group> groups = new LinkedHashMap<>();
        boolean several = invocations.size() > 1;
        for (ResultsDirectories.Invocation invocation : invocations) {
            for (RunResults run : invocation.runs()) {
                String name = (several ? invocation.name() + "/" : "")
                        + run.run().getMetadata().getName();
                groups.computeIfAbsent(parameters(run.run()), key -> new Group(run.run()))
                        .runs()
                        .add(new Named(name, run, comparisonLabel(invocation, run)));
            }
        }
        List<Group> sides = new ArrayList<>(groups.values());
        if (options.baseline() != null) {
            List<Group> baseline = sides.stream()
                    .filter(side -> options.baseline()
                            .equals(side.first().getSpec().getTarget().getVariant()))
                    .toList();
            if (baseline.isEmpty()) {
                throw new IllegalArgumentException("--baseline " + options.baseline() + " is not a variant of these"
                        + " runs; they are of "
                        + String.join(
                                ", ",
                                sides.stream()
                                        .map(side -> side.first()
                                                .getSpec()
                                                .getTarget()
                                                .getVariant())
                                        .distinct()
                                        .toList()));
            }
            sides.removeAll(baseline);
            sides.addAll(0, baseline);
        }
        Map<String, List<String>> labelled = new LinkedHashMap<>();
        List<ComparisonVariant> variants = new ArrayList<>();
        for (Group side : sides) {
            String variant = side.first().getSpec().getTarget().getVariant();
            boolean shared = sides.stream()
                            .filter(other -> variant.equals(
                                    other.first().getSpec().getTarget().getVariant()))
                            .count()
                    > 1;
            // A variant run with different parameters is a side of its own, named as its comparison named it, else
            // after its first run.
            String label = !shared
                    ? variant
                    : side.runs().stream()
                            .map(Named::comparisonLabel)
                            .filter(java.util.Objects::nonNull)
                            .filter(candidate -> !candidate.equals(variant))
                            .findFirst()
                            .orElse(variant + " ("
                                    + side.runs().getFirst().name().replace('/', '_') + ")");
            if (labelled.containsKey(label)) {
                label = label + " (" + side.runs().getFirst().name().replace('/', '_') + ")";
            }
            labelled.put(label, side.runs().stream().map(Named::name).toList());
            variants.add(new ComparisonVariant().withVariant(variant).withName(label));
        }
        int repetitions =
                sides.stream().mapToInt(side -> side.runs().size()).max().orElse(0);
        BenchmarkComparisonSpec spec = new BenchmarkComparisonSpec()
                .withVariants(variants)
                .withRepetitions(Math.max(1, repetitions))
                .withConfidence(options.confidence())
                .withIncludeFlaggedRuns(options.includeFlaggedRuns());
        ComparisonDefaults.apply(spec);
        BenchmarkComparisonStatus status = ComparisonResults.start(spec, 0, SHARED, Instant.now());
        List<String> labels = new ArrayList<>(labelled.keySet());
        for (int i = 0; i < sides.size(); i++) {
            List<Named> runs = sides.get(i).runs();
            for (int round = 0; round < runs.size(); round++) {
                ComparisonResults.put(
                        status,
                        ComparisonResults.record(
                                runs.get(round).name(),
                                labels.get(i),
                                round,
                                runs.get(round).run().run().getStatus()));
            }
        }
        if (sides.size() >= 2) {
            ComparisonResults.conclude(spec, status);
        }
        String table = sides.size() >= 2
                ? ComparisonTable.render(status, ComparisonResults.metrics(spec), spec.getConfidence())
                : "";
        List<Named> all = sides.stream().flatMap(side -> side.runs().stream()).toList();
        return new SeparateRunsComparison(status, table, labelled, differences(sides, all));
    }

    /** A run under the name the output gives it, with the side its own comparison put it on, if any. */
    private record Named(String name, RunResults run, String comparisonLabel) {}

    /** The variant name a comparison's status gives the run (a BenchmarkComparison's spec.variants[].name). */
    private static String comparisonLabel(ResultsDirectories.Invocation invocation, RunResults run) {
        if (invocation.comparison() == null) {
            return null;
        }
        return ComparisonResults.find(
                        invocation.comparison(), run.run().getMetadata().getName())
                .map(record -> record.getVariant())
                .orElse(null);
    }

    private record Group(BenchmarkRun first, List<Named> runs) {
        Group(BenchmarkRun first) {
            this(first, new ArrayList<>());
        }
    }

    /**
     * What decides which side a run is on: its spec without names, placement (ignored by local mode) and cleanup,
     * i.e. the variant, its resources, JVM options and environment, the backend and the workload.
     */
    static String parameters(BenchmarkRun run) {
        JsonNode spec = BenchmarkRuns.yamlMapper().valueToTree(run.getSpec());
        if (spec instanceof ObjectNode object) {
            object.remove(List.of("placement", "cleanup", "timeout"));
        }
        return spec.toString();
    }

    /** Every fact that should be the same for a fair comparison and is not, naming which runs have which value. */
    private static List<String> differences(List<Group> sides, List<Named> all) {
        List<String> lines = new ArrayList<>();
        List<String> unknown = all.stream()
                .filter(run -> run.run().provenance() == null)
                .map(Named::name)
                .toList();
        if (!unknown.isEmpty()) {
            lines.add("no provenance.json (written by older versions), so their stackbench commit, machine and JDK"
                    + " cannot be checked: " + String.join(", ", unknown));
        }
        differ(lines, "stackbench commit", all, p -> p.stackbenchCommit() + (p.stackbenchDirty() ? "+changes" : ""));
        differ(lines, "machine", all, Provenance::host);
        differ(lines, "CPU model", all, Provenance::cpuModel);
        differ(lines, "CPU count", all, p -> Integer.toString(p.cpus()));
        differ(lines, "kernel", all, Provenance::kernel);
        differ(lines, "JDK", all, Provenance::jdk);
        differ(lines, "k6", all, Provenance::k6Version);
        // The target's build may differ between variants (another app); within a side it must not.
        for (Group side : sides) {
            differ(
                    lines,
                    side.first().getSpec().getTarget().getVariant() + " jar digest",
                    side.runs(),
                    Provenance::targetJarSha256);
            differEnvironment(
                    lines,
                    side.first().getSpec().getTarget().getVariant() + " image digests",
                    side.runs(),
                    environment -> environment.getImageDigests() == null
                            ? null
                            : environment.getImageDigests().toString());
            differEnvironment(
                    lines,
                    side.first().getSpec().getTarget().getVariant() + " target Java",
                    side.runs(),
                    RunEnvironment::getJavaVersion);
        }
        return lines;
    }

    private static void differ(List<String> lines, String what, List<Named> runs, Function<Provenance, String> value) {
        Map<String, List<String>> byValue = new LinkedHashMap<>();
        for (Named run : runs) {
            Provenance provenance = run.run().provenance();
            if (provenance != null) {
                byValue.computeIfAbsent(Objects.toString(value.apply(provenance), "unknown"), v -> new ArrayList<>())
                        .add(run.name());
            }
        }
        describe(lines, what, byValue);
    }

    private static void differEnvironment(
            List<String> lines, String what, List<Named> runs, Function<RunEnvironment, String> value) {
        Map<String, List<String>> byValue = new LinkedHashMap<>();
        for (Named run : runs) {
            RunEnvironment environment = run.run().run().getStatus().getEnvironment();
            String text = environment == null ? null : value.apply(environment);
            if (text != null) {
                byValue.computeIfAbsent(text, v -> new ArrayList<>()).add(run.name());
            }
        }
        describe(lines, what, byValue);
    }

    private static void describe(List<String> lines, String what, Map<String, List<String>> byValue) {
        if (byValue.size() < 2) {
            return;
        }
        Set<String> parts = new LinkedHashSet<>();
        byValue.forEach((value, names) -> parts.add(value + " (" + String.join(", ", names) + ")"));
        lines.add(what + " differs: " + String.join("; ", parts));
    }
}
