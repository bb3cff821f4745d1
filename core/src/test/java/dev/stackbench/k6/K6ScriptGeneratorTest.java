package dev.stackbench.k6;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stackbench.api.BenchmarkRuns;
import dev.stackbench.api.run.BenchmarkRunSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class K6ScriptGeneratorTest {

    private final K6ScriptGenerator generator = new K6ScriptGenerator();

    private static BenchmarkRunSpec spec(String workload) {
        return BenchmarkRuns.read("""
                apiVersion: stackbench.dev/v1alpha1
                kind: BenchmarkRun
                metadata: {name: test}
                spec:
                  target: {variant: mvc-jdbc}
                  workload:
                """ + workload.indent(4), "test.yaml").get(0).getSpec();
    }

    private static JsonNode options(K6Script script) throws Exception {
        String text = script.text();
        String declaration = "export const options = __VU === 0 ? ";
        int start = text.indexOf(declaration) + declaration.length();
        int end = text.indexOf("};\n", start) + 1;
        return new ObjectMapper().readTree(text.substring(start, end));
    }

    @Test
    void warmupAndMeasureUseTheSameArrivalRate() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: db
                dbSleep: 100ms
                load: {rate: 300}
                """));
        JsonNode scenarios = options(script).path("scenarios");

        assertThat(scenarios.path("warmup").path("rate").asInt()).isEqualTo(300);
        assertThat(scenarios.path("warmup").path("duration").asText()).isEqualTo("20s");
        assertThat(scenarios.path("measure").path("executor").asText()).isEqualTo("constant-arrival-rate");
        assertThat(scenarios.path("measure").path("startTime").asText()).isEqualTo("20s");
        assertThat(scenarios.path("measure").path("duration").asText()).isEqualTo("1m");
        assertThat(script.measured()).isEqualTo(Duration.ofSeconds(60));
        // 300/s at 150 ms each needs 45 concurrent VUs; the plan leaves room above that.
        assertThat(script.preAllocatedVUs()).isGreaterThanOrEqualTo(45);
        assertThat(script.maxVUs()).isGreaterThan(script.preAllocatedVUs());
        assertThat(script.text()).contains("/api/db?sleepMs=").contains("\"dbSleepMs\" : 100");
        assertThat(script.text()).contains("\"requestTimeout\" : \"1m\"");
        // Each scenario runs its own function, which tells the VU what it runs without asking k6 per request.
        assertThat(scenarios.path("warmup").path("exec").asText()).isEqualTo("warmup");
        assertThat(scenarios.path("measure").path("exec").asText()).isEqualTo("measure");
        assertThat(script.text())
                .contains("export function warmup() {")
                .contains("export function measure() {")
                .doesNotContain("export default function");
    }

    @Test
    void noWarmupScenarioWhenWarmupIsZero() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: rows
                rowCount: 25
                load: {executor: constant-vus, vus: 5}
                warmup: 0s
                """));

        assertThat(options(script).path("scenarios").has("warmup")).isFalse();
        assertThat(options(script).path("scenarios").path("measure").path("vus").asInt())
                .isEqualTo(5);
        assertThat(script.text()).contains("/api/rows?count=").contains("\"rowCount\" : 25");
    }

    @Test
    void rampingStagesAreHeldUntilTheDuration() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: upstream
                upstreamDelay: 300ms
                load:
                  executor: ramping-vus
                  vus: 2
                  stages: [{duration: 10s, target: 20}]
                duration: 30s
                """));
        JsonNode scenarios = options(script).path("scenarios");

        assertThat(scenarios.path("warmup").path("executor").asText()).isEqualTo("constant-vus");
        assertThat(scenarios.path("warmup").path("vus").asInt()).isEqualTo(2);
        assertThat(scenarios.path("measure").path("startVUs").asInt()).isEqualTo(2);
        assertThat(scenarios
                        .path("measure")
                        .path("stages")
                        .get(1)
                        .path("duration")
                        .asText())
                .isEqualTo("20s");
        assertThat(scenarios
                        .path("measure")
                        .path("stages")
                        .get(1)
                        .path("target")
                        .asInt())
                .isEqualTo(20);
        assertThat(script.measured()).isEqualTo(Duration.ofSeconds(30));
        assertThat(script.maxVUs()).isEqualTo(20);
    }

    @Test
    void userThresholdsApplyToTheMeasureScenario() {
        JsonNode thresholds = K6ScriptGenerator.thresholds(Map.of(
                "http_req_duration", List.of("p(95)<500"),
                "http_req_duration{name:upstream}", List.of("p(99)<900")));

        assertThat(thresholds.path("http_req_duration{scenario:measure}").toString())
                .isEqualTo("[\"max>=0\",\"p(95)<500\"]");
        assertThat(thresholds.has("http_req_duration{name:upstream,scenario:measure}"))
                .isTrue();
        assertThat(thresholds.has("dropped_iterations{scenario:measure}")).isTrue();
        assertThat(thresholds.has("http_req_duration")).isFalse();
    }

    @Test
    void ordersCreateThenPayAndCountTwoRequestsPerIteration() {
        K6Script script = generator.generate(spec("""
                scenario: orders
                load: {rate: 10}
                """));

        assertThat(script.requestsPerIteration()).isEqualTo(2);
        assertThat(script.text()).contains("'/api/orders'").contains("/status").contains("status: 'PAID'");
    }

    @Test
    void sleepAsksTheTargetToWaitInProcess() {
        K6Script script = generator.generate(spec("""
                scenario: sleep
                sleep: 1500ms
                load: {rate: 10}
                """));

        assertThat(script.requestsPerIteration()).isEqualTo(1);
        assertThat(script.text())
                .contains("'/api/sleep?sleepMs=' + WORKLOAD.sleepMs")
                .contains("\"sleepMs\" : 1500")
                .contains("verifySample(http.get(URL, PARAMS), 200, 'sleep')");
    }

    @Test
    void aBurstWarmsUpWithATenthOfItsUsersAndMeasuresOneRequestPerUser() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: sleep
                sleep: 1500ms
                load: {executor: per-vu-iterations, vus: 1000}
                warmup: 10s
                duration: 2m
                """));
        JsonNode scenarios = options(script).path("scenarios");

        assertThat(scenarios.path("warmup").path("executor").asText()).isEqualTo("per-vu-iterations");
        assertThat(scenarios.path("warmup").path("vus").asInt()).isEqualTo(100);
        assertThat(scenarios.path("warmup").path("iterations").asInt()).isEqualTo(1);
        assertThat(scenarios.path("warmup").path("maxDuration").asText()).isEqualTo("10s");
        assertThat(scenarios.path("measure").path("executor").asText()).isEqualTo("per-vu-iterations");
        assertThat(scenarios.path("measure").path("vus").asInt()).isEqualTo(1000);
        assertThat(scenarios.path("measure").path("iterations").asInt()).isEqualTo(1);
        assertThat(scenarios.path("measure").path("maxDuration").asText()).isEqualTo("2m");
        assertThat(scenarios.path("measure").path("startTime").asText()).isEqualTo("10s");
        assertThat(script.maxVUs()).isEqualTo(1000);
        assertThat(script.text()).contains("\"burst\" : true").contains("\"plannedIterations\" : 1000");
        // The last of a burst's requests queue behind the others: they may wait the burst's whole time limit.
        assertThat(script.text())
                .contains("\"requestTimeout\" : \"2m\"")
                .contains("{ timeout: WORKLOAD.requestTimeout }")
                .contains("verifySample(http.get(URL, PARAMS), 200, 'sleep')");
    }

    @Test
    void aScenarioOfOneRequestNamesItThroughTheScenarioTagsAndOrdersNameEachRequest() throws Exception {
        JsonNode scenarios = options(generator.generate(spec("""
                        scenario: upstream
                        upstreamDelay: 10ms
                        load: {rate: 10}
                        warmup: 5s
                        """))).path("scenarios");
        assertThat(scenarios.path("warmup").path("tags").path("name").asText()).isEqualTo("upstream");
        assertThat(scenarios.path("measure").path("tags").path("name").asText()).isEqualTo("upstream");

        K6Script orders = generator.generate(spec("""
                scenario: orders
                load: {rate: 10}
                """));
        assertThat(options(orders).path("scenarios").path("measure").has("tags"))
                .isFalse();
        assertThat(orders.text()).contains("tags: { name: 'order-create' }").contains("tags: { name: 'order-status' }");
    }

    @Test
    void sharedIterationsDefaultToOnePerUser() throws Exception {
        JsonNode measure =
                options(generator.generate(spec("""
                        scenario: upstream
                        upstreamDelay: 10ms
                        load: {executor: shared-iterations, vus: 30}
                        """))).path("scenarios").path("measure");

        assertThat(measure.path("executor").asText()).isEqualTo("shared-iterations");
        assertThat(measure.path("iterations").asInt()).isEqualTo(30);
    }

    @Test
    void everyCountedStatusHasAReportingThreshold() throws Exception {
        JsonNode thresholds = options(generator.generate(spec("""
                        scenario: rows
                        load: {rate: 10}
                        """))).path("thresholds");

        for (int status : K6Metrics.COUNTED_STATUSES) {
            assertThat(thresholds
                            .path("http_reqs{scenario:measure,status:" + status + "}")
                            .get(0)
                            .asText())
                    .isEqualTo("count>=0");
        }
    }

    @Test
    void everyLatencyBucketIsAReportedSubMetricOfItsGroupsCounter() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: rows
                load: {rate: 10}
                """));
        JsonNode thresholds = options(script).path("thresholds");

        for (int bucket = 0; bucket < LatencyBuckets.COUNT; bucket++) {
            assertThat(thresholds.path(LatencyBuckets.metricName(bucket)).get(0).asText())
                    .isEqualTo("count>=0");
        }
        assertThat(LatencyBuckets.GROUP_SIZE).isEqualTo(19);
        assertThat(LatencyBuckets.GROUPS).isEqualTo(19);
        assertThat(LatencyBuckets.metricName(7)).isEqualTo("stackbench_latency_bucket_00{bucket:0007}");
        assertThat(LatencyBuckets.metricName(123)).isEqualTo("stackbench_latency_bucket_06{bucket:0123}");
        assertThat(script.text())
                .contains("BUCKET_GROUPS.push(new Counter(BUCKETS.metric + '_' + String(group).padStart(2, '0')));")
                .contains("\"metric\" : \"stackbench_latency_bucket\"")
                .contains("\"groupSize\" : 19")
                .contains("\"tag\" : \"bucket\"");
    }

    @Test
    void forTheK6WithStackbenchsOutputTheOutputCountsTheBucketsExceptForACustomModule() throws Exception {
        K6ScriptGenerator forOutput = new K6ScriptGenerator().withLatencyCountedByTheOutput();
        K6Script rows = forOutput.generate(spec("""
                scenario: rows
                load: {rate: 10}
                thresholds: {http_req_duration: ["p(95)<500"]}
                """));
        JsonNode thresholds = options(rows).path("thresholds");

        assertThat(thresholds.has(LatencyBuckets.metricName(0))).isFalse();
        assertThat(thresholds.has("http_reqs{scenario:measure}")).isTrue();
        assertThat(thresholds.path("http_req_duration{scenario:measure}").toString())
                .contains("p(95)<500");
        assertThat(rows.text())
                .contains("import { countLatencies, latencyBuckets } from 'k6/x/stackbench';")
                .contains("countLatencies(MEASURE, BUCKETS.minMs, BUCKETS.growth, BUCKETS.count);")
                .contains("latencyBuckets: latencyBuckets(),")
                .doesNotContain("BUCKET_GROUPS")
                .doesNotContainPattern("__[A-Z0-9_]+__");
        // The same load otherwise: the options differ only in the buckets' thresholds.
        K6Script plain = generator.generate(spec("""
                scenario: rows
                load: {rate: 10}
                thresholds: {http_req_duration: ["p(95)<500"]}
                """));
        com.fasterxml.jackson.databind.node.ObjectNode plainOptions =
                (com.fasterxml.jackson.databind.node.ObjectNode) options(plain);
        com.fasterxml.jackson.databind.node.ObjectNode plainThresholds =
                (com.fasterxml.jackson.databind.node.ObjectNode) plainOptions.path("thresholds");
        for (int bucket = 0; bucket < LatencyBuckets.COUNT; bucket++) {
            plainThresholds.remove(LatencyBuckets.metricName(bucket));
        }
        assertThat(options(rows)).isEqualTo(plainOptions);
        assertThat(plain.text()).doesNotContain("k6/x/stackbench").doesNotContainPattern("__[A-Z0-9_]+__");

        // A custom module chooses the responses that count (context.record): the script counts them itself.
        K6Script custom = forOutput.generate(spec("""
                        scenario: custom
                        script: {file: mine.js}
                        load: {rate: 10}
                        """), "./custom.js");
        assertThat(custom.text()).doesNotContain("k6/x/stackbench").contains("BUCKET_GROUPS[Math.floor(bucket");
        assertThat(options(custom).path("thresholds").has(LatencyBuckets.metricName(0)))
                .isTrue();
    }

    @Test
    void builtInScenariosCheckASampleOfBodiesAndCustomModulesEveryOne() throws Exception {
        K6Script rows = generator.generate(spec("""
                scenario: rows
                load: {rate: 10}
                """));
        assertThat(rows.text())
                .contains("\"verifyEvery\" : " + K6ScriptGenerator.VERIFY_EVERY)
                .contains("verifySample(http.get(URL, PARAMS), 200, 'rows', CHECKS);")
                .contains("if (sampled || response.status !== expectedStatus) {")
                .contains("verifyEvery: SUMMARY.verifyEvery,");
        K6Script custom = generator.generate(spec("""
                        scenario: custom
                        script: {file: mine.js}
                        load: {rate: 10}
                        """), "./custom.js");
        assertThat(custom.text()).contains("customIteration({ baseUrl: BASE_URL, variant: VARIANT, record, verify });");
    }

    @Test
    void fanoutPassesCallsAndTheModeOnlyWhenSet() {
        String withMode = generator.generate(spec("""
                        scenario: fanout
                        upstreamDelay: 100ms
                        calls: 5
                        fanoutMode: sequential
                        load: {rate: 10}
                        """)).text();
        String withoutMode = generator.generate(spec("""
                        scenario: fanout
                        upstreamDelay: 100ms
                        calls: 5
                        load: {rate: 10}
                        """)).text();

        assertThat(withMode)
                .contains("'/api/fanout?delayMs=' + WORKLOAD.upstreamDelayMs")
                .contains("\"calls\" : 5")
                .contains("\"fanoutMode\" : \"sequential\"");
        assertThat(withoutMode).doesNotContain("\"fanoutMode\"");
    }

    @Test
    void rsocketIsAskedForOnlyWhenTheSpecSaysSo() {
        String rsocket = generator.generate(spec("""
                        scenario: fanout
                        upstreamDelay: 100ms
                        calls: 5
                        upstreamProtocol: rsocket
                        load: {rate: 10}
                        """)).text();
        String http = generator.generate(spec("""
                        scenario: upstream
                        upstreamDelay: 100ms
                        upstreamProtocol: http
                        load: {rate: 10}
                        """)).text();

        // Each answer says which protocol served it, and a check compares it with the one asked for.
        assertThat(rsocket)
                .contains("\"protocol\" : \"rsocket\"")
                .contains("'fanout: protocol': (json) => json.protocol === WORKLOAD.protocol")
                .contains("\"protocolParam\" : \"&protocol=rsocket\"")
                .contains("FANOUT_MODE + WORKLOAD.protocolParam");
        assertThat(http).contains("\"protocolParam\" : \"\"").contains("+ WORKLOAD.protocolParam");
    }

    @Test
    void lockSendsItsGroupAsOneBatchAndCountsEveryRequest() throws Exception {
        K6Script script = generator.generate(spec("""
                scenario: lock
                lockGroup: 4
                load: {rate: 10}
                """));

        assertThat(script.requestsPerIteration()).isEqualTo(5);
        assertThat(options(script).path("batchPerHost").asInt()).isEqualTo(4);
        assertThat(script.text()).contains("http.batch(group)").contains("http.expectedStatuses(200, 409)");
        for (String metric : List.of(
                K6Metrics.LOCK_GROUPS,
                K6Metrics.LOCK_GROUPS_CORRECT,
                K6Metrics.LOCK_GROUPS_SEVERAL_WINNERS,
                K6Metrics.LOCK_GROUPS_NO_WINNER,
                K6Metrics.LOCK_GROUPS_WITH_ERRORS,
                K6Metrics.LOCK_WAIT)) {
            assertThat(script.text()).contains("'" + metric + "'");
        }
    }

    @Test
    void customScenarioNeedsTheModule() {
        BenchmarkRunSpec custom = spec("""
                scenario: custom
                script: {file: mine.js}
                load: {rate: 10}
                """);

        assertThatThrownBy(() -> generator.generate(custom)).hasMessageContaining("pass its import path");
        assertThat(generator.generate(custom, "./mine.js").text())
                .contains("import customIteration from \"./mine.js\";");
    }

    @Test
    void generatingLeavesTheCallersSpecUntouched() {
        BenchmarkRunSpec spec = spec("""
                scenario: db
                dbSleep: 1ms
                load: {rate: 1}
                """);

        generator.generate(spec);

        assertThat(spec.getWorkload().getWarmup()).isNull();
        assertThat(spec.getTimeout()).isNull();
    }
}
