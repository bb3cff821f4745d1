package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stackbench.report.ReportRun;
import dev.stackbench.report.RequestTimeline;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs read back from results directories real local runs wrote (src/test/resources/results). */
class RunResultsTest {

    @TempDir
    Path dir;

    private static Path fixture(String path) throws Exception {
        return ResultsFixtures.of(path);
    }

    @Test
    void aRunIsReadBackWithEverythingTheReportShows() throws Exception {
        RunResults read = RunResults.read(fixture("plain/01-fx-mvc-jdbc"));
        ReportRun report = read.report();

        assertThat(report.row().name()).isEqualTo("fx-mvc-jdbc");
        assertThat(report.row().rps())
                .isEqualTo(read.run().getStatus().getSummary().getRps());
        assertThat(report.row().loadGeneratorCpuCores()).isNotNull();
        assertThat(report.requests()).hasSizeGreaterThan(3);
        assertThat(report.details().warmup()).isNotEmpty().allMatch(point -> point.second() < 0);
        assertThat(report.details().spectrum()).hasSize(29);
        assertThat(report.details().spectrum().getLast().percentile()).isEqualTo(100.0);
        assertThat(report.targetCpuCores()).isNotEmpty();
        assertThat(report.environment()).containsKey("CPU model");
        assertThat(read.provenance().stackbenchCommit()).matches("[0-9a-f]{40}");
        assertThat(report.details().checks()).extracting(check -> check.name()).contains("upstream: status 200");
        assertThat(report.details().files()).contains("requests-per-second.csv", "provenance.json");
    }

    @Test
    void aSweepShowsItsKeptStepFromTheStepsDirectory() throws Exception {
        ReportRun report =
                RunResults.read(fixture("sweep/01-fx-sweep-mvc-jdbc")).report();

        assertThat(report.row().steps()).hasSize(2);
        assertThat(report.requests()).isNotEmpty();
        assertThat(report.details().files()).anyMatch(file -> file.startsWith("step-0"));
    }

    @Test
    void columnsAreReadByNameSoAddedOrMovedColumnsChangeNothing() throws Exception {
        List<RequestTimeline.Point> original =
                RunResults.timeline(fixture("plain/01-fx-mvc-jdbc").resolve("requests-per-second.csv"));
        StringBuilder reordered = new StringBuilder("k6_time,p99_ms,second,requests,failed,dropped,p50_ms,p95_ms\n");
        for (RequestTimeline.Point point : original) {
            reordered
                    .append("1795790998.5,")
                    .append(point.p99Ms())
                    .append(',')
                    .append(point.second())
                    .append(',')
                    .append(point.requests())
                    .append(',')
                    .append(point.failed())
                    .append(',')
                    .append(point.dropped())
                    .append(',')
                    .append(point.p50Ms())
                    .append(',')
                    .append(point.p95Ms())
                    .append('\n');
        }
        Path csv = Files.writeString(dir.resolve("requests-per-second.csv"), reordered);

        assertThat(RunResults.timeline(csv)).isEqualTo(original);
    }

    @Test
    void aDirectoryWithoutTheRunsFilesIsRefusedNamingThem() throws Exception {
        Files.writeString(dir.resolve("benchmarkrun.yaml"), "kind: BenchmarkRun\n");

        assertThatThrownBy(() -> RunResults.read(dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("it has no status.json")
                .hasMessageContaining("pass a directory ./stackbench run wrote");
    }

    @Test
    void aRunWrittenBeforeTheOptionalFilesExistedIsStillRead() throws Exception {
        Path run = ResultsFixtures.copy("plain", dir).resolve("01-fx-mvc-jdbc");
        for (String optional : List.of(
                "provenance.json",
                "latency-percentiles.csv",
                "warmup-requests-per-second.csv",
                "environment.json",
                "k6-summary.json")) {
            Files.delete(run.resolve(optional));
        }

        RunResults read = RunResults.read(run);

        assertThat(read.provenance()).isNull();
        assertThat(read.report().details().spectrum()).isEmpty();
        assertThat(read.report().details().checks()).isEmpty();
        assertThat(read.report().requests()).isNotEmpty();
        // The environment then comes from the status, as a cluster run's would.
        assertThat(read.report().environment()).containsEntry("mode", "local");
    }
}
