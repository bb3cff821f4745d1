package dev.stackbench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.cli.StackbenchCommand;
import dev.stackbench.local.ResultsFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Opens each kind of report as a reader would: `stackbench report` renders it from results directories that real local
 * runs wrote (checked in, trimmed, under src/test/resources/results), and headless Chromium from Debian's package
 * (hack/setup.sh chromium) loads the file offline. Each page must load without a console message or script error,
 * draw every chart it has a placeholder for with every series it planned, and leaves a screenshot in
 * target/report-pages for a person to look at.
 */
class ReportInBrowserIT {

    private static final Path OUT = Path.of("target", "report-pages");
    private static final Pattern STATUS = Pattern.compile("<div id=\"chart-status\"([^>]*)>");
    private static final Pattern CHART = Pattern.compile("<div class=\"ichart\" id=\"(chart-\\d+)\"([^>]*)>");

    /**
     * Where headless Chromium keeps a profile and a cache when it is not told: under the user's home. Each start there
     * used to leave a directory behind; every start now gets a directory of its own, removed after it.
     */
    private static final Path HOME_CACHE = Path.of(System.getProperty("user.home"), ".cache", "chromium-headless");

    private static Path chromium;
    private static List<String> homeCacheBefore;

    @BeforeAll
    static void findChromiumAndResults() throws IOException, URISyntaxException {
        chromium = chromium();
        Files.createDirectories(OUT.resolve("results"));
        homeCacheBefore = entries(HOME_CACHE);
    }

    @AfterAll
    static void chromiumLeftNothingInTheHomeDirectory() throws IOException {
        assertThat(entries(HOME_CACHE))
                .as("entries Chromium left in %s", HOME_CACHE)
                .isSubsetOf(homeCacheBefore);
    }

    private static List<String> entries(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aSingleRunsReportDrawsEveryChart() throws Exception {
        Page page = open("single", "plain");

        assertThat(page.charts())
                .as("charts of two runs over time, spectrum, gauges")
                .isGreaterThanOrEqualTo(9);
        assertThat(page.dom())
                .contains("Throughput (completed requests per second) (warmup shaded)")
                .contains("Latency by percentile (measured window)")
                .contains("Errors by status and check");
    }

    @Test
    void severalInvocationsAreShownSideBySide() throws Exception {
        Page page = open("several", "plain", "again");

        assertThat(page.dom()).contains("plain/fx-mvc-jdbc").contains("again/fx-mvc-jdbc");
        assertThat(page.charts()).isGreaterThanOrEqualTo(10);
    }

    @Test
    void aComparisonOverlaysEveryRepetitionPerMetric() throws Exception {
        Page page = open("comparison", "comparison");

        assertThat(page.dom())
                .contains("rps: every repetition")
                .contains("p95: every repetition")
                .contains("errorRate: every repetition");
        // Six repetitions of each variant give each median a 95 % interval: one bar per variant and metric.
        assertThat(count(Pattern.compile("data-intervals=\"2\""), page.dom())).isEqualTo(5);
    }

    @Test
    void aSweepDrawsItsCurvesAgainstOfferedLoad() throws Exception {
        Page page = open("sweep", "sweep");

        assertThat(page.dom())
                .contains("Throughput against offered load (VUs)")
                .contains("p95 latency against offered load (VUs)");
    }

    /** A cluster run, fetched after its cleanup into the same layout, draws the charts of a local one. */
    @Test
    void aClusterRunsReportDrawsEveryChart() throws Exception {
        Page page = open("cluster", "cluster");

        assertThat(page.dom())
                .contains("remote-write")
                .contains("Throughput (completed requests per second) (warmup shaded)")
                .contains("Latency by percentile (measured window)");
        assertThat(page.charts()).isGreaterThanOrEqualTo(4);
    }

    /** What Chromium made of a page: its DOM once the scripts ran, and how many charts it drew. */
    private record Page(String dom, int charts) {}

    private Page open(String kind, String... directories) throws Exception {
        Path html = OUT.resolve(kind + ".html").toAbsolutePath();
        List<String> args = new ArrayList<>(List.of("report", "-o", html.toString()));
        for (String directory : directories) {
            args.add(ResultsFixtures.copy(directory, OUT.resolve("results")).toString());
        }
        StringWriter err = new StringWriter();
        int exit = StackbenchCommand.commandLine().setErr(new PrintWriter(err)).execute(args.toArray(String[]::new));
        assertThat(exit).as("stackbench report: %s", err).isZero();
        String source = Files.readString(html);
        assertThat(source)
                .as("one offline file: nothing to fetch when it is opened")
                .doesNotContain("<script src=")
                .doesNotContain("<link ");

        Browser dump = chromium(html, "--dump-dom");
        Path png = OUT.resolve(kind + ".png");
        Browser shot = chromium(html, "--screenshot=" + png.toAbsolutePath(), "--window-size=1200,6000");

        assertThat(dump.console()).as("console messages of %s", kind).isEmpty();
        assertThat(shot.console())
                .as("console messages of %s (screenshot)", kind)
                .isEmpty();
        Map<String, String> status = attributes(STATUS, dump.stdout());
        assertThat(status).as("the charts' script ran to its end").containsEntry("data-done", "yes");
        assertThat(status).doesNotContainKey("data-errors");
        int placeholders = count(CHART, source);
        assertThat(placeholders).isPositive();
        assertThat(status)
                .containsEntry("data-charts", Integer.toString(placeholders))
                .containsEntry("data-series", status.get("data-series-planned"));
        Matcher chart = CHART.matcher(dump.stdout());
        int checked = 0;
        while (chart.find()) {
            Map<String, String> drawn = attributes(chart.group(2));
            assertThat(drawn)
                    .as("chart %s of %s", chart.group(1), kind)
                    .containsEntry("data-canvas", "yes")
                    .containsEntry("data-series-drawn", drawn.get("data-series-planned"));
            assertThat(Integer.parseInt(drawn.get("data-series-drawn"))).isPositive();
            checked++;
        }
        assertThat(checked).isEqualTo(placeholders);
        assertThat(Files.size(png)).as("screenshot %s", png).isGreaterThan(10_000);
        return new Page(dump.stdout(), placeholders);
    }

    private record Browser(String stdout, List<String> console) {}

    private static Browser chromium(Path html, String... what) throws IOException, InterruptedException {
        // Its profile, cache and configuration in a directory of its own, removed after it.
        Path own = Files.createTempDirectory("stackbench-chromium");
        try {
            List<String> command = new ArrayList<>(List.of(
                    chromium.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    "--enable-logging=stderr",
                    "--v=0",
                    "--virtual-time-budget=10000",
                    "--user-data-dir=" + own.resolve("profile")));
            command.addAll(List.of(what));
            command.add(html.toUri().toString());
            Path stdout = own.resolve("stdout");
            Path stderr = own.resolve("stderr");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
            builder.environment().put("XDG_CACHE_HOME", own.resolve("cache").toString());
            builder.environment().put("XDG_CONFIG_HOME", own.resolve("config").toString());
            Process process = builder.start();
            if (!process.waitFor(Duration.ofMinutes(3).toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError(
                        "Chromium did not finish with " + html + " within 3 minutes: " + Files.readString(stderr));
            }
            List<String> console = Files.readAllLines(stderr).stream()
                    .filter(line -> line.contains(":CONSOLE"))
                    .toList();
            String out = Files.readString(stdout);
            assertThat(process.exitValue())
                    .as("Chromium's exit code for %s", html)
                    .isZero();
            return new Browser(out, console);
        } finally {
            deleteTree(own);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Chromium as hack/setup.sh chromium installs it: $STACKBENCH_CHROMIUM, else under the tools directory. */
    private static Path chromium() throws IOException {
        String fromSetup = System.getenv("STACKBENCH_CHROMIUM");
        if (fromSetup != null && Files.isExecutable(Path.of(fromSetup))) {
            return Path.of(fromSetup);
        }
        Path tools = Path.of("..", ".tools").toAbsolutePath().normalize();
        if (Files.isDirectory(tools)) {
            try (Stream<Path> dirs = Files.list(tools)) {
                Path found = dirs.filter(dir -> dir.getFileName().toString().startsWith("chromium-"))
                        .map(dir -> dir.resolve("chromium"))
                        .filter(Files::isExecutable)
                        .findFirst()
                        .orElse(null);
                if (found != null) {
                    return found;
                }
            }
        }
        throw new AssertionError("headless Chromium is not installed: run hack/setup.sh chromium (it unpacks Debian's"
                + " chromium package into .tools and sets STACKBENCH_CHROMIUM in .tools/env.sh)");
    }

    private static Map<String, String> attributes(Pattern element, String html) {
        Matcher matcher = element.matcher(html);
        assertThat(matcher.find()).as("%s in the page", element).isTrue();
        return attributes(matcher.group(1));
    }

    private static Map<String, String> attributes(String text) {
        Map<String, String> attributes = new java.util.LinkedHashMap<>();
        Matcher attribute = Pattern.compile("([a-z-]+)=\"([^\"]*)\"").matcher(text);
        while (attribute.find()) {
            attributes.put(attribute.group(1), attribute.group(2));
        }
        return attributes;
    }

    private static int count(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }
}
