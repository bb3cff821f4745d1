package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.status.BenchmarkRunStatus;
import dev.stackbench.api.status.CapacityLimit;
import dev.stackbench.api.status.CapacityResult;
import dev.stackbench.api.status.Phase;
import dev.stackbench.api.status.RunSummary;
import dev.stackbench.api.status.StepOutcome;
import dev.stackbench.api.status.StepResult;
import dev.stackbench.local.ReportRows;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Circle;

class StepChartsTest {

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** A run as the status leaves it, through the same path the CLI takes from status to row. */
    static ReportRun run(String name, String variant, Integer kept, CapacityResult capacity, StepResult... steps) {
        BenchmarkRun run =
                BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: %s}
                spec:
                  target: {variant: %s}
                  workload:
                    scenario: upstream
                    upstreamDelay: 50ms
                    load: {executor: constant-arrival-rate, rate: 100}
                """.formatted(name, variant), "test").get(0);
        BenchmarkRunStatus status = new BenchmarkRunStatus();
        status.setPhase(Phase.Succeeded);
        RunSummary summary = new RunSummary();
        summary.setStep(kept);
        status.setSummary(summary);
        status.setSteps(List.of(steps));
        status.setCapacity(capacity);
        run.setStatus(status);
        return new ReportRun(
                ReportRows.of(run, null), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), "", 10.0);
    }

    static StepResult step(int step, int level, String unit, StepOutcome outcome, Double rps, Double p95Ms) {
        return new StepResult()
                .withStep(step)
                .withLevel(level)
                .withUnit(unit)
                .withOutcome(outcome)
                .withRps(rps)
                .withP95Ms(p95Ms);
    }

    static final String RATE = "iterations/s";

    /** A sweep of a thread-bound variant, with its Little's-law cap; step 3 has no throughput. */
    static ReportRun sweep() {
        return run(
                "sweep",
                "mvc-jdbc",
                2,
                null,
                step(1, 100, RATE, StepOutcome.Passed, 99.9, 10.1).withLittleLawRps(266.7),
                step(2, 200, RATE, StepOutcome.Passed, 199.8, 12.3).withLittleLawRps(266.7),
                step(3, 300, RATE, StepOutcome.Failed, null, 80.0),
                step(4, 400, RATE, StepOutcome.Broken, 251.2, 1900.0).withLittleLawRps(266.7));
    }

    /** A capacity search: probes out of order, the last one k6 could not deliver. */
    static ReportRun search() {
        return run(
                "search-webflux-r2dbc",
                "webflux-r2dbc",
                3,
                new CapacityResult()
                        .withRate(340)
                        .withLowerBound(340)
                        .withUpperBound(400)
                        .withLimitedBy(CapacityLimit.Target)
                        .withMessage("p95 <= 50ms held at 340/s and broke at 400/s"),
                step(1, 100, RATE, StepOutcome.Passed, 100.0, 11.0),
                step(2, 400, RATE, StepOutcome.Failed, 350.0, 480.0),
                step(3, 340, RATE, StepOutcome.Passed, 339.0, 40.0),
                step(4, 500, RATE, StepOutcome.GeneratorLimited, 310.0, 45.0));
    }

    static ReportRun users() {
        return run(
                "users",
                "mvc-jdbc-virtual",
                null,
                null,
                step(1, 10, "VUs", StepOutcome.Passed, 180.0, 54.0),
                step(2, 50, "VUs", StepOutcome.Failed, 400.0, 120.0));
    }

    private static List<String> legend(XYChart chart) {
        return chart.getSeriesCollection().stream()
                .filter(XYSeries::isShowInLegend)
                .map(XYSeries::getName)
                .toList();
    }

    @Test
    void loadsInIterationsPerSecondAndInVirtualUsersGetChartsOfTheirOwn() {
        List<ReportRun> runs = List.of(sweep(), users(), search());

        assertThat(Charts.stepUnits(runs)).containsExactly(RATE, "VUs");

        XYChart users = Charts.throughputAgainstLoad(runs, "VUs");
        assertThat(legend(users)).containsExactly("users (mvc-jdbc-virtual)");
        assertThat(users.getSeries("users (mvc-jdbc-virtual)").getXData()).containsExactly(10, 50);
        assertThat(users.getXAxisTitle()).startsWith("offered load (VUs)");
        assertThat(Charts.stepUnits(List.of(search()))).containsExactly(RATE);
    }

    @Test
    void throughputHasOneLinePerRunByLevelTheCapDashedAndNoInventedPoints() {
        List<ReportRun> runs = List.of(sweep(), users(), search());

        XYChart chart = Charts.throughputAgainstLoad(runs, RATE);

        assertThat(chart.getTitle()).isEqualTo("Throughput against offered load (iterations/s)");
        assertThat(chart.getXAxisTitle()).isEqualTo("offered load (iterations/s); " + Charts.OUTCOME_KEY);
        assertThat(chart.getYAxisTitle()).isEqualTo("throughput (requests/s)");
        assertThat(legend(chart))
                .containsExactly("sweep (mvc-jdbc)", "sweep (mvc-jdbc): Little's-law cap", "search-webflux-r2dbc");

        XYSeries sweep = chart.getSeries("sweep (mvc-jdbc)");
        // Step 3 has no throughput: left out, not drawn at 0.
        assertThat(sweep.getXData()).containsExactly(100, 200, 400);
        assertThat(sweep.getYData()).containsExactly(99.9, 199.8, 251.2);
        XYSeries cap = chart.getSeries("sweep (mvc-jdbc): Little's-law cap");
        assertThat(cap.getXData()).containsExactly(100, 200, 400);
        assertThat(cap.getYData()).containsExactly(266.7, 266.7, 266.7);
        assertThat(cap.getLineStyle()).isEqualTo(SeriesLines.DASH_DASH);
        assertThat(cap.getLineColor()).isEqualTo(sweep.getLineColor());

        XYSeries search = chart.getSeries("search-webflux-r2dbc");
        assertThat(search.getXData()).containsExactly(100, 340, 400, 500);
        assertThat(search.getYData()).containsExactly(100.0, 339.0, 350.0, 310.0);
        assertThat(search.getLineColor()).isNotEqualTo(sweep.getLineColor());
        assertThat(chart.getSeries("search-webflux-r2dbc: Little's-law cap")).isNull();
    }

    @Test
    void eachStepIsMarkedByItsOutcomeInItsRunsColour() {
        XYChart chart = Charts.throughputAgainstLoad(List.of(sweep(), search()), RATE);

        XYSeries passed = chart.getSeries("sweep (mvc-jdbc): Passed");
        assertThat(passed.getXData()).containsExactly(100, 200);
        assertThat(passed.getMarker()).isInstanceOf(Circle.class);
        assertThat(passed.getMarkerColor())
                .isEqualTo(chart.getSeries("sweep (mvc-jdbc)").getLineColor());
        assertThat(passed.isShowInLegend()).isFalse();
        XYSeries broken = chart.getSeries("sweep (mvc-jdbc): Broken");
        assertThat(broken.getXData()).containsExactly(400);
        assertThat(broken.getYData()).containsExactly(251.2);
        assertThat(((Charts.Hollow) broken.getMarker()).shape()).isEqualTo(Charts.Hollow.Shape.SQUARE);
        // The failed step without a throughput has no marker either.
        assertThat(chart.getSeries("sweep (mvc-jdbc): Failed")).isNull();

        assertThat(((Charts.Hollow)
                                chart.getSeries("search-webflux-r2dbc: Failed").getMarker())
                        .shape())
                .isEqualTo(Charts.Hollow.Shape.CIRCLE);
        XYSeries limited = chart.getSeries("search-webflux-r2dbc: GeneratorLimited");
        assertThat(limited.getXData()).containsExactly(500);
        assertThat(((Charts.Hollow) limited.getMarker()).shape()).isEqualTo(Charts.Hollow.Shape.TRIANGLE);
    }

    @Test
    void latencyHasTheP95OfEveryStepThatHasOne() {
        XYChart chart = Charts.latencyAgainstLoad(List.of(sweep(), search()), RATE);

        assertThat(chart.getYAxisTitle()).isEqualTo("p95 latency (ms)");
        assertThat(legend(chart)).containsExactly("sweep (mvc-jdbc)", "search-webflux-r2dbc");
        assertThat(chart.getSeries("sweep (mvc-jdbc)").getXData()).containsExactly(100, 200, 300, 400);
        assertThat(chart.getSeries("sweep (mvc-jdbc)").getYData()).containsExactly(10.1, 12.3, 80.0, 1900.0);
        assertThat(chart.getSeries("sweep (mvc-jdbc): Failed").getXData()).containsExactly(300);
        assertThat(chart.getSeries("search-webflux-r2dbc").getYData()).containsExactly(11.0, 40.0, 480.0, 45.0);
        assertThat(Charts.toPng(chart)).startsWith("data:image/png;base64,iVBORw0KGgo");
    }

    @Test
    void runsWithoutStepsDrawNoChartAgainstLoad() {
        ReportRun plain = new ReportRun(
                SummaryTableTest.row("plain", "mvc-jdbc", 10.0, null, 0, null),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                "",
                10.0);

        assertThat(Charts.stepUnits(List.of(plain))).isEmpty();
        assertThat(Charts.throughputAgainstLoad(List.of(plain), RATE)).isNull();
    }
}
