package dev.stackbench.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster run fetched into a results directory, with kubectl stood in by the JSON it would print (the real kubectl
 * against a real cluster: MonitoringE2E's report of a cleaned-up run).
 */
class ClusterResultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FIXTURE = Path.of("src/test/resources/results/plain/01-fx-mvc-jdbc");

    @TempDir
    Path dir;

    @Test
    void theRunnersSecondsAddUpAndTheDirectoryReadsLikeALocalRun() throws IOException {
        String runJson = runJson();
        // Two runners' streams, one gzip member each, as the operator keeps them: the seconds they share add up.
        ByteArrayOutputStream perSecond = new ByteArrayOutputStream();
        perSecond.writeBytes(gzip(seconds(1_800_000_000L, 3, 10)));
        perSecond.writeBytes(gzip(seconds(1_800_000_000L, 3, 20)));
        ObjectNode configMap = JSON.createObjectNode();
        ObjectNode binary = configMap.putObject("binaryData");
        binary.put("k6-summary-1.json", encode(gzip(Files.readString(FIXTURE.resolve("k6-summary.json")))));
        binary.put("k6-per-second.ndjson", encode(perSecond.toByteArray()));
        binary.put("k6-script.js", encode(gzip("export default function () {}")));
        configMap
                .putObject("data")
                .put(
                        "index.txt",
                        "kept k6-script.js: 40 bytes compressed\nleft out pod-cpu.txt: 2000000"
                                + " bytes compressed, more than the 10 left of the ConfigMap's 921600\n");
        ClusterResults.Kubectl kubectl = arguments -> {
            if (arguments.contains("benchmarkrun")) {
                return runJson;
            }
            if (arguments.contains("configmap")) {
                return configMap.toString();
            }
            throw new IllegalArgumentException("unexpected kubectl " + arguments);
        };

        List<String> warnings = ClusterResults.fetch(kubectl, "team-a", "fx-mvc-jdbc", dir);

        assertThat(warnings).singleElement().asString().contains("left out pod-cpu.txt");
        List<String> csv = Files.readAllLines(dir.resolve("requests-per-second.csv"));
        assertThat(csv.getFirst()).isEqualTo("second,requests,failed,dropped,p50_ms,p95_ms,p99_ms");
        assertThat(csv.subList(1, csv.size())).hasSize(3).allSatisfy(line -> {
            String[] f = line.split(",");
            assertThat(f[1]).as(line).isEqualTo("30");
            // The bucket of 12 ms, read as its middle: within its 1/64 width.
            assertThat(Double.parseDouble(f[4])).as(line).isCloseTo(12.0, org.assertj.core.data.Offset.offset(0.2));
        });
        assertThat(dir.resolve("k6-summary.json")).isNotEmptyFile();
        // Per request name over the window: both runners' three seconds, 6 failed of 90.
        List<String> byName = Files.readAllLines(dir.resolve("requests-by-name.csv"));
        assertThat(byName.get(0)).isEqualTo(RequestNameTotals.HEADER);
        assertThat(byName.get(1)).startsWith("orders; by id,90,6,0.066667,");
        assertThat(RequestNameTotals.readCsv(dir.resolve("requests-by-name.csv")))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.requests()).isEqualTo(90);
                    assertThat(row.p95Ms()).isCloseTo(12.0, org.assertj.core.data.Offset.offset(0.2));
                });
        assertThat(dir.resolve("k6-script.js")).hasContent("export default function () {}");
        assertThat(Files.readString(dir.resolve("benchmarkrun.yaml"))).contains("namespace: \"team-a\"");
        RunResults read = RunResults.read(dir);
        assertThat(read).isNotNull();
    }

    @Test
    void aRunWithoutKeptResultsStillReadsFromItsStatusAndSaysSo() throws IOException {
        String runJson = runJson();
        ClusterResults.Kubectl kubectl = arguments -> {
            if (arguments.contains("benchmarkrun")) {
                return runJson;
            }
            throw new IllegalArgumentException(
                    "Error from server (NotFound): configmaps \"fx-mvc-jdbc-results\" not" + " found");
        };
        List<String> warnings = ClusterResults.fetch(kubectl, "team-a", "fx-mvc-jdbc", dir);
        assertThat(warnings).singleElement().asString().contains("no results kept after cleanup");
        assertThat(RunResults.isRunDirectory(dir)).isTrue();
        // What made it, from its status' environment.
        assertThat(dir.resolve("provenance.json")).isNotEmptyFile();
    }

    @Test
    void whatMadeAClusterRunIsTakenFromItsEnvironment() throws IOException {
        ObjectNode environment = (ObjectNode) JSON.readTree("""
                {"operatorVersion": "0.1.0", "operatorImage": "stackbench/operator:0.1.0", "k6Version": "k6 v1.8.1",
                 "javaVersion": "25.0.3", "images": {"target": "stackbench/mvc-app:0.1.0"},
                 "imageDigests": {"target": "sha256:abc"},
                 "nodes": [{"name": "backend-0", "roles": ["database"], "cpuAllocatable": "4"},
                           {"name": "target-0", "roles": ["target"], "cpuAllocatable": "1500m",
                            "kernelVersion": "6.1.0"}]}
                """);
        Provenance provenance = JSON.treeToValue(ClusterResults.provenance(environment), Provenance.class);
        assertThat(provenance.host()).isEqualTo("target-0");
        assertThat(provenance.cpus()).isEqualTo(1);
        assertThat(provenance.kernel()).isEqualTo("6.1.0");
        assertThat(provenance.targetJarSha256()).isEqualTo("sha256:abc");
        assertThat(provenance.k6Version()).isEqualTo("k6 v1.8.1");
    }

    @Test
    void aKeptFileThatInflatesBeyondItsBoundIsRefused() {
        byte[] bomb = gzip("0".repeat(ClusterResults.INFLATED_LIMIT + 1));
        assertThatThrownBy(() -> ClusterResults.gunzip(bomb, "k6-per-second.ndjson"))
                .hasMessageContaining("inflates beyond");
    }

    /** The fixture's run as kubectl prints it: the resource with its status. */
    private static String runJson() throws IOException {
        ObjectNode run = (ObjectNode)
                new ObjectMapper(new YAMLFactory()).readTree(Files.readString(FIXTURE.resolve("benchmarkrun.yaml")));
        run.set("status", JSON.readTree(FIXTURE.resolve("status.json").toFile()));
        return run.toString();
    }

    /** {@code count} seconds of one runner, {@code perSecond} requests of 12 ms each in the measure scenario. */
    private static String seconds(long first, int count, int perSecond) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < count; i++) {
            // Bucket 12000 µs: 12000 = (64+29) << 7, bucket (7+1)*64-64+... as the Go output numbers it.
            lines.append("{\"second\":")
                    .append(first + i)
                    .append(",\"scenarios\":{\"measure\":{\"requests\":")
                    .append(perSecond)
                    .append(",\"failed\":0,\"dropped\":0,\"latency\":{\"")
                    .append(bucket(12_000))
                    .append("\":")
                    .append(perSecond)
                    .append("},\"names\":{\"orders, by id\":{\"requests\":")
                    .append(perSecond)
                    .append(",\"failed\":1,\"dropped\":0,\"latency\":{\"")
                    .append(bucket(12_000))
                    .append("\":")
                    .append(perSecond)
                    .append("}}}}}}\n");
        }
        return lines.toString();
    }

    /** The Go output's bucket of a latency in microseconds (hack/k6/persecond/bins.go). */
    private static int bucket(long micros) {
        int shift = 63 - Long.numberOfLeadingZeros(micros) - 6;
        return shift * 64 + (int) (micros >> shift);
    }

    private static String encode(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static byte[] gzip(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
