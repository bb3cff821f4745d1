package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.LimitedBy;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTableTest {

    static RunRow row(String name, String variant, double rps, Double cap, long dropped, String alarm) {
        return new RunRow(
                name,
                variant,
                "Succeeded",
                6000,
                rps,
                300.4,
                310.25,
                350.0,
                400.0,
                0.0012,
                dropped,
                231,
                0.85,
                0.4,
                cap,
                true,
                alarm,
                List.of());
    }

    @Test
    void startsWithTheKubectlColumnsAndAlignsNumbersRight() {
        String table = SummaryTable.render(List.of(
                row("mvc-jdbc", "mvc-jdbc", 66.6, 66.7, 0, null),
                row("webflux-r2dbc", "webflux-r2dbc", 150.0, null, 0, null)));

        List<String> lines = table.lines().toList();
        assertThat(lines.get(0).split("\\s+"))
                .containsExactly(
                        "NAME",
                        "VARIANT",
                        "PHASE",
                        "RPS",
                        "P95(ms)",
                        "ERRORS",
                        "THREADS",
                        "CAPACITY",
                        "LIMITED",
                        "BY",
                        "P50(ms)",
                        "P99(ms)",
                        "REQUESTS",
                        "DROPPED",
                        "CPU",
                        "K6",
                        "CPU",
                        "LITTLE-CAP",
                        "RPS/CAP");
        assertThat(lines.get(1))
                .contains(" 66.6")
                .contains("0.12%")
                .contains("310.3")
                .contains("100%");
        assertThat(lines.get(2)).contains("150.0").endsWith("-");

        RunRow limited = row("mvc-jdbc", "mvc-jdbc", 66.6, 66.7, 0, null)
                .withLimitedBy(new LimitedBy("request-pool", List.of("busy 200/200 threads in 96% of samples")));
        assertThat(SummaryTable.render(List.of(limited)).lines().toList().get(1))
                .as("the resource alone in the table; its evidence is a detail line")
                .contains("  request-pool  ")
                .doesNotContain("busy 200/200");
        assertThat(lines.get(1).indexOf("66.6") + 4).isEqualTo(lines.get(2).indexOf("150.0") + 5);
    }

    @Test
    void aSaturatedLoadGeneratorIsSaidLoudly() {
        String table = SummaryTable.render(List.of(row(
                "fast",
                "webflux-r2dbc",
                900,
                null,
                1234,
                "k6 could not offer the requested rate: this row measures k6, not the target")));

        assertThat(table)
                .contains("1234 !!")
                .contains("!! fast: K6 COULD NOT OFFER THE REQUESTED RATE: THIS ROW MEASURES K6, NOT THE TARGET");
    }

    static StepResult step(int step, int level, String unit, StepOutcome outcome, Double rps, Double p95) {
        return new StepResult()
                .withStep(step)
                .withLevel(level)
                .withUnit(unit)
                .withOutcome(outcome)
                .withRps(rps)
                .withP95Ms(p95)
                .withErrorRate(0.0)
                .withDroppedIterations(0L)
                .withPeakThreads(200 + step)
                .withTargetCpuCores(0.4 * step)
                .withGeneratorCpuCores(0.11 * step);
    }

    @Test
    void aSweepPrintsOneLinePerStepUnderItsRowAndMarksTheKeptStep() {
        RunRow sweep = row("sweep", "mvc-jdbc", 199.8, null, 0, null)
                .withSteps(
                        List.of(
                                step(1, 100, "iterations/s", StepOutcome.Passed, 99.9, 10.1)
                                        .withReason("every threshold held"),
                                step(2, 200, "iterations/s", StepOutcome.Passed, 199.8, 12.3)
                                        .withLittleLawRps(266.7),
                                step(3, 1000, "iterations/s", StepOutcome.Broken, 240.0, 900.0)
                                        .withErrorRate(0.031)
                                        .withPeakThreads(null)
                                        .withLimitedBy(new LimitedBy(
                                                "request-pool", List.of("busy 200/200 threads in 96% of samples")))
                                        .withReason("3.1% of its requests failed (more than 2%)")),
                        2,
                        null);
        RunRow plain = row("plain", "webflux-r2dbc", 150.0, null, 0, null);

        List<String> lines = SummaryTable.render(List.of(sweep, plain)).lines().toList();

        assertThat(lines.get(1)).startsWith("sweep ");
        assertThat(lines.get(2).split("\\s+"))
                .containsExactly(
                        "",
                        "step",
                        "1",
                        "100/s",
                        "99.9",
                        "rps",
                        "p95",
                        "10.1",
                        "ms",
                        "err",
                        "0.00%",
                        "dropped",
                        "0",
                        "threads",
                        "201",
                        "cpu",
                        "0.40",
                        "k6",
                        "0.11",
                        "cap",
                        "-",
                        "limited",
                        "by",
                        "-",
                        "Passed",
                        "every",
                        "threshold",
                        "held");
        assertThat(lines.get(3))
                .contains("step 2")
                .contains("200/s")
                .contains("199.8 rps")
                .contains("p95  12.3 ms")
                .contains("cap 266.7")
                .endsWith("Passed  (kept)");
        assertThat(lines.get(4))
                .contains(" 1000/s")
                .contains("p95 900.0 ms")
                .contains("err 3.10%")
                .contains("threads   -")
                .contains("limited by request-pool")
                .contains("Broken          3.1% of its requests failed (more than 2%)")
                .doesNotContain("(kept)");
        // The steps' columns line up with each other.
        assertThat(lines.get(2).indexOf(" rps")).isEqualTo(lines.get(4).indexOf(" rps"));
        assertThat(lines.get(2).indexOf("Passed")).isEqualTo(lines.get(4).indexOf("Broken"));
        assertThat(lines.get(5)).startsWith("plain ");
        assertThat(lines).hasSize(6);
    }

    @Test
    void aCapacitySearchFillsTheCapacityColumnAndSaysWhatLimitedIt() {
        RunRow search = row("search", "mvc-jdbc", 340.0, null, 0, null)
                .withSteps(
                        List.of(
                                step(1, 100, "iterations/s", StepOutcome.Passed, 100.0, 11.0),
                                step(2, 400, "iterations/s", StepOutcome.Failed, 350.0, 480.0),
                                step(3, 340, "iterations/s", StepOutcome.Passed, 339.0, 40.0)),
                        3,
                        new CapacityResult()
                                .withRate(340)
                                .withLowerBound(340)
                                .withUpperBound(400)
                                .withLimitedBy(CapacityLimit.Target)
                                .withMessage("p95 held up to 340/s and broke at 400/s"));
        RunRow open = row("open", "webflux-r2dbc", 500.0, null, 0, null)
                .withSteps(
                        List.of(),
                        null,
                        new CapacityResult().withLowerBound(500).withLimitedBy(CapacityLimit.Generator));

        List<String> lines = SummaryTable.render(List.of(search, open)).lines().toList();

        int capacity = lines.get(0).indexOf("CAPACITY") + "CAPACITY".length();
        assertThat(lines.get(1).substring(0, capacity)).endsWith(" 340");
        assertThat(lines.get(3)).contains(" 400/s").contains("Failed");
        assertThat(lines.get(4)).endsWith("(kept)");
        assertThat(lines.get(5))
                .isEqualTo("  capacity 340/s  in [340/s, 400/s)  limited by Target: p95 held up to 340/s and broke at"
                        + " 400/s");
        assertThat(lines.get(6).substring(0, capacity)).endsWith(" -");
        assertThat(lines.get(7)).isEqualTo("  capacity -  in [500/s, -)  limited by Generator");
    }

    @Test
    void stepsInVirtualUsersSayVus() {
        assertThat(SummaryTable.level(new StepResult().withLevel(50).withUnit("VUs")))
                .isEqualTo("50 VUs");
        assertThat(SummaryTable.level(new StepResult().withLevel(200).withUnit("iterations/s")))
                .isEqualTo("200/s");
        assertThat(SummaryTable.level(new StepResult())).isEqualTo("-");
    }
}
