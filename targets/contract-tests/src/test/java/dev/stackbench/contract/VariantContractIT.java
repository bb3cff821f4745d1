package dev.stackbench.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.stackbench.contract.Http.Response;
import dev.stackbench.postgres.LocalPostgres;
import io.rsocket.exceptions.ApplicationErrorException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.util.MimeTypeUtils;
import tools.jackson.databind.JsonNode;

/**
 * Every variant of targets/variants.yaml, started once as a real process against a real PostgreSQL and the real
 * delay service, answers the HTTP contract: same paths, payloads and status codes, on the threads its stack implies.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VariantContractIT {

    private static final Catalogue CATALOGUE = Catalogue.load();
    private static final Path LOGS = Path.of(System.getProperty("stackbench.logs", "target/it-logs"));
    /** Small pools: all variants share one PostgreSQL on a small machine; the contract does not depend on size. */
    private static final String POOL_SIZE = "5";
    /** Fan-out of 4 calls of 200 ms: about 200 ms in parallel, at least 800 ms one after another. */
    private static final int FANOUT_DELAY_MS = 200;

    private static final int FANOUT_CALLS = 4;
    /** Parallel must stay well clear of the sequential time; the margin is for a slow, busy build machine. */
    private static final int FANOUT_PARALLEL_LIMIT_MS = 700;
    /** How long a test transaction keeps holding an order's row lock once a status change waits for it. */
    private static final long LOCK_HOLD_MS = 500;

    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(15);

    private final Http http = new Http();
    private final List<AutoCloseable> started = new ArrayList<>();
    private final Map<String, ServiceProcess> variants = new LinkedHashMap<>();
    private final Thread stopOnExit = new Thread(this::stopEverything, "stop-contract-test-processes");
    private LocalPostgres postgres;
    private ServiceProcess delayService;

    static Stream<String> variantNames() {
        return CATALOGUE.variants().stream().map(Catalogue.Variant::name);
    }

    @BeforeAll
    void startPostgresTheDelayServiceAndEveryVariant() throws IOException {
        // Also stop everything if the test JVM is asked to exit before @AfterAll (for example on Ctrl-C).
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        postgres = LocalPostgres.builder().maxConnections(100).start();
        started.add(postgres);
        delayService = ServiceProcess.start("delay-service", CATALOGUE.jar("delay-service"), List.of(), Map.of(), LOGS);
        started.add(delayService);
        // Healthy before the variants start: they are told its URL, so its port must be final.
        delayService.awaitHealthy(http.client());
        Map<String, String> env = Map.of(
                "DB_HOST", postgres.host(),
                "DB_PORT", String.valueOf(postgres.port()),
                "DB_NAME", postgres.database(),
                "DB_USER", postgres.user(),
                "DB_PASSWORD", postgres.password(),
                "DB_POOL_SIZE", POOL_SIZE,
                "DELAY_SERVICE_URL", delayService.baseUrl());
        // All variants start at once: on a small machine that is quicker than one after the other.
        for (Catalogue.Variant variant : CATALOGUE.variants()) {
            ServiceProcess process = ServiceProcess.start(
                    variant.name(),
                    CATALOGUE.jar(variant.app()),
                    List.of("--spring.profiles.active=" + variant.profile()),
                    env,
                    LOGS);
            started.add(process);
            variants.put(variant.name(), process);
        }
        variants.values().forEach(process -> process.awaitHealthy(http.client()));
        recordStartupTimes();
    }

    @AfterAll
    void stopEverythingAndForgetTheExitHook() {
        stopEverything();
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
    }

    private synchronized void stopEverything() {
        List<AutoCloseable> newestFirst = new ArrayList<>(started);
        Collections.reverse(newestFirst);
        for (AutoCloseable process : newestFirst) {
            try {
                process.close();
            } catch (Exception e) {
                System.err.println("Could not stop " + process + ": " + e);
            }
        }
        started.clear();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void upstreamWaitsForTheDelayService(String variant) {
        JsonNode body = ok(variant, http.get(api(variant, "/api/upstream?delayMs=50")), 200, "upstream");
        assertThat(body.get("delayMs").asInt()).isEqualTo(50);
        assertThat(body.get("protocol").asString())
                .as("HTTP when protocol is left out")
                .isEqualTo("http");
        JsonNode explicit =
                ok(variant, http.get(api(variant, "/api/upstream?delayMs=1&protocol=http")), 200, "upstream");
        assertThat(explicit.get("protocol").asString()).isEqualTo("http");
    }

    /**
     * Over RSocket the request still waits for the whole delay, on the thread the variant uses for HTTP: the blocking
     * variants block their request thread (Tomcat's, or a virtual one) on the RSocket client.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void upstreamOverRSocketWaitsForTheDelayService(String variant) {
        ok(variant, http.get(api(variant, "/api/upstream?delayMs=0&protocol=rsocket")), 200, "upstream");
        long start = System.nanoTime();
        JsonNode body =
                ok(variant, http.get(api(variant, "/api/upstream?delayMs=100&protocol=rsocket")), 200, "upstream");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(body.get("delayMs").asInt()).isEqualTo(100);
        assertThat(body.get("protocol").asString()).isEqualTo("rsocket");
        assertThat(elapsedMs).as("answered after the delay").isGreaterThanOrEqualTo(100);
        switch (variant) {
            case "mvc-jdbc" -> {
                assertThat(body.get("thread").asString())
                        .as("blocked on the Tomcat thread")
                        .startsWith("http-nio-");
                assertThat(body.get("virtual").asBoolean()).isFalse();
            }
            case "mvc-virtual-threads" ->
                assertThat(body.get("virtual").asBoolean())
                        .as(
                                "blocked on a virtual thread (%s)",
                                body.get("thread").asString())
                        .isTrue();
            default -> assertThat(body.get("virtual").asBoolean()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void mixedOverRSocketCallsTheDelayServiceThenPostgres(String variant) {
        long start = System.nanoTime();
        JsonNode body =
                ok(variant, http.get(api(variant, "/api/mixed?delayMs=30&sleepMs=20&protocol=rsocket")), 200, "mixed");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(body.get("delayMs").asInt()).isEqualTo(30);
        assertThat(body.get("sleepMs").asInt()).isEqualTo(20);
        assertThat(body.get("protocol").asString()).isEqualTo("rsocket");
        assertThat(elapsedMs).as("the delay, then the database's sleep").isGreaterThanOrEqualTo(50);
    }

    static Stream<Arguments> operationsThatCallTheDelayService() {
        return variantNames().flatMap(variant -> Stream.of(
                        "/api/upstream?delayMs=1", "/api/mixed?delayMs=1&sleepMs=1", "/api/fanout?delayMs=1&calls=2")
                .map(path -> Arguments.of(variant, path)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("operationsThatCallTheDelayService")
    void refusesAProtocolItDoesNotSpeakNamingTheProtocols(String variant, String path) {
        Response response = http.get(api(variant, path + "&protocol=bogus"));
        assertError(response, 400);
        assertThat(response.json().get("error").asString()).startsWith("protocol must be http or rsocket, got 'bogus'");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void fanoutRunsTheVariantsDefaultModeWhenTheRequestNamesNone(String variant) {
        assertFanout(variant, "", CATALOGUE.variant(variant).defaultFanoutMode(), "http");
    }

    static Stream<Arguments> fanoutModesTheCatalogueLists() {
        return CATALOGUE.variants().stream()
                .flatMap(variant -> variant.fanoutModes().stream().map(mode -> Arguments.of(variant.name(), mode)));
    }

    @ParameterizedTest(name = "{0}: mode={1}")
    @MethodSource("fanoutModesTheCatalogueLists")
    void fanoutRunsEveryModeTheCatalogueLists(String variant, String mode) {
        assertFanout(variant, "&mode=" + mode, mode, "http");
    }

    @ParameterizedTest(name = "{0}: mode={1}")
    @MethodSource("fanoutModesTheCatalogueLists")
    void fanoutOverRSocketRunsEveryModeTheCatalogueLists(String variant, String mode) {
        assertFanout(variant, "&mode=" + mode + "&protocol=rsocket", mode, "rsocket");
    }

    static Stream<Arguments> fanoutModesTheCatalogueLeavesOut() {
        return CATALOGUE.variants().stream().flatMap(variant -> Stream.of("parallel", "sequential")
                .filter(mode -> !variant.fanoutModes().contains(mode))
                .map(mode -> Arguments.of(variant.name(), mode)));
    }

    @ParameterizedTest(name = "{0}: mode={1}", allowZeroInvocations = true)
    @MethodSource("fanoutModesTheCatalogueLeavesOut")
    void fanoutRefusesAModeTheVariantCannotRunSayingWhatToUse(String variant, String mode) {
        Response response = http.get(api(variant, "/api/fanout?delayMs=1&calls=2&mode=" + mode));
        assertError(response, 400);
        assertThat(response.json().get("error").asString())
                .contains("variant " + variant)
                .contains("cannot run")
                .contains("mode=" + CATALOGUE.variant(variant).defaultFanoutMode())
                .contains("leave mode out");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void fanoutRefusesAWordThatIsNotAModeNamingTheModes(String variant) {
        Response response = http.get(api(variant, "/api/fanout?delayMs=1&calls=2&mode=bogus"));
        assertError(response, 400);
        assertThat(response.json().get("error").asString())
                .startsWith("mode must be parallel or sequential, got 'bogus'")
                .contains("variant " + variant + " runs "
                        + CATALOGUE.variant(variant).defaultFanoutMode() + " (its default");
    }

    /**
     * One fan-out of {@link #FANOUT_CALLS} calls of {@link #FANOUT_DELAY_MS}, timed from here. A first fan-out without
     * delay warms the path up (classes, compiled code, the client's connections), so the time shows the mode alone.
     */
    private void assertFanout(String variant, String modeParameter, String expectedMode, String expectedProtocol) {
        String fanout = "/api/fanout?calls=" + FANOUT_CALLS + modeParameter + "&delayMs=";
        ok(variant, http.get(api(variant, fanout + 0)), 200, "fanout");
        long start = System.nanoTime();
        JsonNode body = ok(variant, http.get(api(variant, fanout + FANOUT_DELAY_MS)), 200, "fanout");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(body.get("mode").asString()).isEqualTo(expectedMode);
        assertThat(body.get("protocol").asString()).isEqualTo(expectedProtocol);
        assertThat(body.get("delayMs").asInt()).isEqualTo(FANOUT_DELAY_MS);
        assertThat(body.get("count").asInt()).isEqualTo(FANOUT_CALLS);
        if (expectedMode.equals("sequential")) {
            assertThat(elapsedMs)
                    .as("%s: %d calls one after another over %s", variant, FANOUT_CALLS, expectedProtocol)
                    .isGreaterThanOrEqualTo((long) FANOUT_DELAY_MS * FANOUT_CALLS);
        } else {
            assertThat(elapsedMs)
                    .as("%s: %d calls in parallel over %s", variant, FANOUT_CALLS, expectedProtocol)
                    .isGreaterThanOrEqualTo(FANOUT_DELAY_MS)
                    .isLessThan(FANOUT_PARALLEL_LIMIT_MS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void dbSleepsInPostgres(String variant) {
        JsonNode body = ok(variant, http.get(api(variant, "/api/db?sleepMs=20")), 200, "db");
        assertThat(body.get("sleepMs").asInt()).isEqualTo(20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void sleepWaitsInsideTheTargetForTheWholeSleep(String variant) {
        long start = System.nanoTime();
        JsonNode body = ok(variant, http.get(api(variant, "/api/sleep?sleepMs=80")), 200, "sleep");
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(body.get("sleepMs").asInt()).isEqualTo(80);
        assertThat(elapsedMs).as("answered after the sleep").isGreaterThanOrEqualTo(80);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void mixedCallsTheDelayServiceThenPostgres(String variant) {
        JsonNode body = ok(variant, http.get(api(variant, "/api/mixed?delayMs=30&sleepMs=20")), 200, "mixed");
        assertThat(body.get("delayMs").asInt()).isEqualTo(30);
        assertThat(body.get("sleepMs").asInt()).isEqualTo(20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void rowsReturnsTheSeededItemsInIdOrder(String variant) throws SQLException {
        JsonNode body = ok(variant, http.get(api(variant, "/api/rows?count=100")), 200, "rows");
        assertThat(body.get("count").asInt()).isEqualTo(100);
        List<String> served = new ArrayList<>();
        body.get("items")
                .forEach(item -> served.add(
                        item.get("id").asLong() + "|" + item.get("name").asString() + "|"
                                + item.get("priceCents").asInt()));
        assertThat(served)
                .containsExactlyElementsOf(
                        query("select id || '|' || name || '|' || price_cents from items order by id limit 100"));
        assertThat(served.getFirst()).startsWith("1|item-1|");

        JsonNode all = ok(variant, http.get(api(variant, "/api/rows?count=10000")), 200, "rows");
        assertThat(all.get("items").size()).isEqualTo(10_000);
        assertThat(all.get("items").get(9_999).get("id").asLong()).isEqualTo(10_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void createsAnOrderAndMovesItThroughItsLifecycle(String variant) throws SQLException {
        JsonNode created = ok(
                variant, http.post(api(variant, "/api/orders"), "{\"itemId\":42,\"quantity\":2}"), 201, "order-create");
        long orderId = created.get("orderId").asLong();
        assertThat(created.get("status").asString()).isEqualTo("NEW");
        assertThat(query("select o.status || '|' || l.item_id || '|' || l.quantity || '|' "
                        + "|| (l.price_cents = i.price_cents) from orders o join order_lines l on l.order_id = o.id "
                        + "join items i on i.id = l.item_id where o.id = " + orderId))
                .containsExactly("NEW|42|2|true");

        String status = api(variant, "/api/orders/" + orderId + "/status");
        Response paying = http.put(status, "{\"status\":\"PAID\"}");
        JsonNode paid = ok(variant, paying, 200, "order-status");
        assertThat(paid.get("orderId").asLong()).isEqualTo(orderId);
        assertThat(paid.get("status").asString()).isEqualTo("PAID");
        assertLockWait(paying);
        JsonNode shipped = ok(variant, http.put(status, "{\"status\":\"SHIPPED\"}"), 200, "order-status");
        assertThat(shipped.get("status").asString()).isEqualTo("SHIPPED");
        Response cancelling = http.put(status, "{\"status\":\"CANCELLED\"}");
        assertError(cancelling, 409);
        assertLockWait(cancelling);
        assertThat(query("select status from orders where id = " + orderId)).containsExactly("SHIPPED");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void threeConcurrentPaymentsOfOneOrderLetExactlyOneWin(String variant) throws SQLException {
        for (int round = 0; round < 2; round++) {
            long orderId = ok(
                            variant,
                            http.post(api(variant, "/api/orders"), "{\"itemId\":7,\"quantity\":1}"),
                            201,
                            "order-create")
                    .get("orderId")
                    .asLong();
            String status = api(variant, "/api/orders/" + orderId + "/status");
            List<CompletableFuture<Response>> payments = Stream.generate(
                            () -> http.putAsync(status, "{\"status\":\"PAID\"}"))
                    .limit(3)
                    .toList();
            List<Response> responses =
                    payments.stream().map(CompletableFuture::join).toList();
            assertThat(responses)
                    .extracting(Response::status)
                    .as("%s", responses)
                    .containsExactlyInAnyOrder(200, 409, 409);
            responses.stream().filter(r -> r.status() == 409).forEach(r -> assertError(r, 409));
            Response winner = responses.stream()
                    .filter(r -> r.status() == 200)
                    .findFirst()
                    .orElseThrow();
            assertThat(ok(variant, winner, 200, "order-status").get("status").asString())
                    .isEqualTo("PAID");
            responses.forEach(VariantContractIT::assertLockWait);
            assertThat(query("select status from orders where id = " + orderId)).containsExactly("PAID");
        }
    }

    /**
     * A transaction of this test holds the order's row lock; once the target's SELECT ... FOR UPDATE is seen waiting
     * for it, the lock is held {@link #LOCK_HOLD_MS} longer. The change's lockWaitMs must cover at least that, in the
     * 200 of a change that goes through and in the 409 of one the holder made impossible meanwhile.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void lockWaitShowsHowLongAnotherTransactionHeldTheOrder(String variant) throws SQLException {
        long orderId = ok(
                        variant,
                        http.post(api(variant, "/api/orders"), "{\"itemId\":11,\"quantity\":1}"),
                        201,
                        "order-create")
                .get("orderId")
                .asLong();
        String status = api(variant, "/api/orders/" + orderId + "/status");

        Response paid =
                whileAnotherTransactionLocks(orderId, null, () -> http.putAsync(status, "{\"status\":\"PAID\"}"));
        assertThat(ok(variant, paid, 200, "order-status").get("status").asString())
                .isEqualTo("PAID");
        assertThat(paid.json().get("lockWaitMs").asDouble()).as("%s", paid).isGreaterThanOrEqualTo(LOCK_HOLD_MS);

        Response refused = whileAnotherTransactionLocks(
                orderId, "CANCELLED", () -> http.putAsync(status, "{\"status\":\"SHIPPED\"}"));
        assertError(refused, 409);
        assertThat(refused.json().get("error").asString()).contains("is CANCELLED");
        assertThat(refused.json().get("lockWaitMs").asDouble())
                .as("%s", refused)
                .isGreaterThanOrEqualTo(LOCK_HOLD_MS);
    }

    /**
     * Locks the order's row in a transaction of its own (setting {@code newStatus} too, unless null), sends the
     * request, waits until PostgreSQL shows the target's statement blocked by this transaction, holds the lock
     * {@link #LOCK_HOLD_MS} more and commits; returns the answer.
     */
    private Response whileAnotherTransactionLocks(
            long orderId, String newStatus, Supplier<CompletableFuture<Response>> request) throws SQLException {
        try (Connection holder =
                DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password())) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock =
                    holder.prepareStatement("select status from orders where id = ? for update")) {
                lock.setLong(1, orderId);
                lock.executeQuery().close();
            }
            if (newStatus != null) {
                try (PreparedStatement update = holder.prepareStatement("update orders set status = ? where id = ?")) {
                    update.setString(1, newStatus);
                    update.setLong(2, orderId);
                    update.executeUpdate();
                }
            }
            int holderPid;
            try (Statement statement = holder.createStatement();
                    ResultSet pid = statement.executeQuery("select pg_backend_pid()")) {
                pid.next();
                holderPid = pid.getInt(1);
            }
            CompletableFuture<Response> response = request.get();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> response.isDone() || !blockedBy(holderPid).isEmpty());
            assertThat(response.isDone())
                    .as("answered without waiting for the row lock: %s", response.getNow(null))
                    .isFalse();
            holdFor(LOCK_HOLD_MS);
            holder.commit();
            return response.join();
        }
    }

    /** The backends whose statements wait for a lock the given backend holds. */
    private List<String> blockedBy(int holderPid) throws SQLException {
        return query("select pid from pg_stat_activity where " + holderPid + " = any(pg_blocking_pids(pid))");
    }

    /** The lock is held on purpose here: this is the time the target's lockWaitMs has to show. */
    private static void holdFor(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertLockWait(Response response) {
        JsonNode lockWaitMs = response.json().get("lockWaitMs");
        assertThat(lockWaitMs).as("lockWaitMs of %s", response).isNotNull();
        assertThat(lockWaitMs.isNumber())
                .as("lockWaitMs of %s is a number", response)
                .isTrue();
        assertThat(lockWaitMs.asDouble()).as("%s", response).isGreaterThanOrEqualTo(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void reportsTheThreadTheStackRanTheWorkOn(String variant) {
        JsonNode db = ok(variant, http.get(api(variant, "/api/db?sleepMs=1")), 200, "db");
        String dbThread = db.get("thread").asString();
        boolean dbVirtual = db.get("virtual").asBoolean();
        JsonNode upstream = ok(variant, http.get(api(variant, "/api/upstream?delayMs=1")), 200, "upstream");
        JsonNode mixed = ok(variant, http.get(api(variant, "/api/mixed?delayMs=1&sleepMs=1")), 200, "mixed");
        JsonNode sleep = ok(variant, http.get(api(variant, "/api/sleep?sleepMs=1")), 200, "sleep");
        String sleepThread = sleep.get("thread").asString();
        JsonNode fanout = ok(variant, http.get(api(variant, "/api/fanout?delayMs=1&calls=3")), 200, "fanout");
        String fanoutThread = fanout.get("thread").asString();
        switch (variant) {
            case "mvc-jdbc" -> {
                assertThat(dbThread).startsWith("http-nio-");
                assertThat(dbVirtual).isFalse();
                assertThat(upstream.get("thread").asString()).startsWith("http-nio-");
                assertThat(sleepThread).as("Thread.sleep on the Tomcat thread").startsWith("http-nio-");
                assertThat(fanoutThread)
                        .as("blocking calls on the Tomcat thread")
                        .startsWith("http-nio-");
                assertThat(fanout.get("virtual").asBoolean()).isFalse();
            }
            case "mvc-virtual-threads" -> {
                assertThat(dbVirtual)
                        .as("db served on a virtual thread (%s)", dbThread)
                        .isTrue();
                assertThat(upstream.get("virtual").asBoolean()).isTrue();
                assertThat(sleep.get("virtual").asBoolean())
                        .as("slept on a virtual thread (%s)", sleepThread)
                        .isTrue();
                assertThat(fanout.get("virtual").asBoolean())
                        .as("fanned out from a virtual thread (%s)", fanoutThread)
                        .isTrue();
            }
            case "mvc-webclient" -> {
                assertThat(dbThread).startsWith("http-nio-");
                assertThat(upstream.get("thread").asString()).startsWith("reactor-http-");
                assertThat(mixed.get("thread").asString()).startsWith("boundedElastic-");
                assertThat(sleepThread).as("Mono.delay on Reactor's timer").startsWith("parallel-");
                assertThat(fanoutThread).as("completed by WebClient").startsWith("reactor-http-");
            }
            case "webflux-r2dbc" -> {
                assertThat(dbThread).startsWith("reactor-").doesNotStartWith("reactor-http-");
                assertThat(dbVirtual).isFalse();
                assertThat(sleepThread).as("Mono.delay on Reactor's timer").startsWith("parallel-");
                assertThat(fanoutThread).as("completed by WebClient").startsWith("reactor-http-");
            }
            case "webflux-jdbc-blocking" -> {
                assertThat(dbThread).as("JDBC on the event loop").startsWith("reactor-http-");
                assertThat(mixed.get("thread").asString()).startsWith("reactor-http-");
                assertThat(sleepThread).as("Thread.sleep on the event loop").startsWith("reactor-http-");
                assertThat(fanoutThread).as("completed by WebClient").startsWith("reactor-http-");
            }
            case "webflux-jdbc-elastic" -> {
                assertThat(dbThread).startsWith("boundedElastic-");
                assertThat(mixed.get("thread").asString()).startsWith("boundedElastic-");
                assertThat(sleepThread).startsWith("boundedElastic-");
                assertThat(fanoutThread).as("completed by WebClient").startsWith("reactor-http-");
            }
            case "webflux-coroutines" -> {
                assertThat(dbThread).as("JDBC in withContext(Dispatchers.IO)").startsWith("DefaultDispatcher-worker-");
                assertThat(upstream.get("thread").asString())
                        .as("resumed where WebClient's answer arrived")
                        .startsWith("reactor-http-");
                assertThat(mixed.get("thread").asString()).startsWith("DefaultDispatcher-worker-");
                assertThat(sleepThread).as("Thread.sleep on Dispatchers.IO").startsWith("DefaultDispatcher-worker-");
                JsonNode rows = ok(variant, http.get(api(variant, "/api/rows?count=1")), 200, "rows");
                assertThat(rows.get("thread").asString()).startsWith("DefaultDispatcher-worker-");
                JsonNode order = ok(
                        variant,
                        http.post(api(variant, "/api/orders"), "{\"itemId\":5,\"quantity\":1}"),
                        201,
                        "order-create");
                assertThat(order.get("thread").asString()).startsWith("DefaultDispatcher-worker-");
            }
            default -> fail("No thread expectation for variant " + variant + ": add one to this test");
        }
    }

    /**
     * Dispatchers.IO is a bounded pool, like boundedElastic, not a non-blocking driver: of 80 concurrent 300 ms sleeps
     * 64 run at once (its default parallelism) and 16 wait for a thread, so all 80 take two rounds, about 600 ms; an
     * unbounded pool would answer in one round, a single thread in 80.
     */
    @Test
    void coroutinesSleepOnAtMost64ThreadsOfDispatchersIo() {
        String variant = "webflux-coroutines";
        String sleep = api(variant, "/api/sleep?sleepMs=300");
        // Untimed first round: the pool's threads and the client's 80 connections exist before the timed one.
        concurrently(80, sleep);
        long start = System.nanoTime();
        List<Response> responses = concurrently(80, sleep);
        long makespanMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: 80 concurrent 300 ms sleeps answered in %d ms%n", variant, makespanMs);
        responses.forEach(response -> ok(variant, response, 200, "sleep"));
        assertThat(makespanMs)
                .as("80 concurrent 300 ms sleeps on 64 threads: two rounds")
                .isBetween(550L, 1500L);
    }

    private List<Response> concurrently(int requests, String url) {
        List<CompletableFuture<Response>> calls =
                Stream.generate(() -> http.getAsync(url)).limit(requests).toList();
        return calls.stream().map(CompletableFuture::join).toList();
    }

    /** The offloading pools publish their live threads, tagged with the pool's name in the catalogue. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"webflux-jdbc-elastic", "webflux-coroutines"})
    void publishesTheLiveThreadsOfItsOffloadingPool(String variant) {
        for (int request = 0; request < 3; request++) {
            ok(variant, http.get(api(variant, "/api/db?sleepMs=1")), 200, "db");
        }
        String pool = CATALOGUE.variant(variant).threadPool().name();
        assertThat(poolThreads(variant)).as("%s live threads", pool).isGreaterThanOrEqualTo(1);
    }

    /**
     * The variants whose pool is the event loop publish a thread-state sample of it, and serve it on a management
     * server with an event loop of its own: while eight 3 s sleeps block webflux-jdbc-blocking's event loop (its 4
     * threads take the connections in turn), a scrape is answered at once and finds the loop's threads blocked (the
     * gauge averages the last second's samples, all taken during the sleeps). On webflux-r2dbc, asleep on Reactor's
     * timer, no event-loop thread ever is.
     */
    @Test
    void theEventLoopsThreadSampleIsServedWhileTheLoopIsBlockedAndFindsItBlocked() throws Exception {
        List<CompletableFuture<Response>> asleep = Stream.generate(
                        () -> http.getAsync(api("webflux-jdbc-blocking", "/api/sleep?sleepMs=3000")))
                .limit(8)
                .toList();
        Thread.sleep(1500);
        long start = System.nanoTime();
        double blocked = poolThreads("webflux-jdbc-blocking");
        long scrapeMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf(
                "webflux-jdbc-blocking: %.2f event-loop threads found blocked, scrape answered in %d ms%n",
                blocked, scrapeMs);
        assertThat(scrapeMs)
                .as("the scrape's answer while the event loop sleeps")
                .isLessThan(1000);
        assertThat(blocked).as("event-loop threads found blocked").isGreaterThanOrEqualTo(2);
        asleep.forEach(call -> ok("webflux-jdbc-blocking", call.join(), 200, "sleep"));

        CompletableFuture<Response> onTimer = http.getAsync(api("webflux-r2dbc", "/api/sleep?sleepMs=3000"));
        Thread.sleep(1500);
        assertThat(poolThreads("webflux-r2dbc"))
                .as("webflux-r2dbc event-loop threads found blocked")
                .isZero();
        ok("webflux-r2dbc", onTimer.join(), 200, "sleep");
    }

    /**
     * The variant's stackbench_pool_threads gauge, tagged with its pool's name in the catalogue, from a scrape on a
     * connection of its own (scrapes on the shared client's kept-alive connections went unanswered three times while
     * every other request was answered). A scrape unanswered in 15 s still leaves a thread dump of the variant and is
     * asked again once.
     */
    private double poolThreads(String variant) {
        String tag = "pool=\"" + CATALOGUE.variant(variant).threadPool().name() + "\"";
        ServiceProcess process = variants.get(variant);
        String url = process.managementUrl() + "/actuator/prometheus";
        String metrics;
        try {
            metrics = Http.getOnNewConnection(url, SCRAPE_TIMEOUT).body();
        } catch (UncheckedIOException e) {
            if (!(e.getCause() instanceof java.net.http.HttpTimeoutException)) {
                throw e;
            }
            String dump = process.dumpThreads();
            System.err.printf(
                    "%s: %s unanswered after %d s; threads in %s; asking again on a new connection%n",
                    variant, url, SCRAPE_TIMEOUT.toSeconds(), dump);
            metrics = Http.getOnNewConnection(url, SCRAPE_TIMEOUT).body();
        }
        return metrics.lines()
                .filter(line -> line.startsWith("stackbench_pool_threads{") && line.contains(tag))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(variant + " exports no stackbench_pool_threads{" + tag + "}"));
    }

    static Stream<Arguments> badRequests() {
        List<Arguments> requests = List.of(
                Arguments.of("GET", "/api/upstream?delayMs=-1", null, 400),
                Arguments.of("GET", "/api/upstream?delayMs=60001", null, 400),
                Arguments.of("GET", "/api/upstream?delayMs=abc", null, 400),
                Arguments.of("GET", "/api/upstream", null, 400),
                Arguments.of("GET", "/api/db?sleepMs=-5", null, 400),
                Arguments.of("GET", "/api/db?sleepMs=1.5", null, 400),
                Arguments.of("GET", "/api/mixed?delayMs=1&sleepMs=70000", null, 400),
                Arguments.of("GET", "/api/sleep?sleepMs=-1", null, 400),
                Arguments.of("GET", "/api/sleep?sleepMs=60001", null, 400),
                Arguments.of("GET", "/api/sleep", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=10&calls=0", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=10&calls=101", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=10&calls=two", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=60001&calls=1", null, 400),
                Arguments.of("GET", "/api/fanout?calls=2", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=10", null, 400),
                Arguments.of("GET", "/api/fanout?delayMs=10&calls=2&mode=bogus", null, 400),
                Arguments.of("GET", "/api/rows?count=0", null, 400),
                Arguments.of("GET", "/api/rows?count=20000", null, 400),
                Arguments.of("GET", "/api/rows?count=ten", null, 400),
                Arguments.of("POST", "/api/orders", "{\"itemId\":99999,\"quantity\":1}", 404),
                Arguments.of("POST", "/api/orders", "{\"itemId\":1,\"quantity\":0}", 400),
                Arguments.of("POST", "/api/orders", "{\"itemId\":1,\"quantity\":1001}", 400),
                Arguments.of("POST", "/api/orders", "{\"itemId\":1}", 400),
                Arguments.of("POST", "/api/orders", "{\"itemId\":\"one\",\"quantity\":1}", 400),
                Arguments.of("POST", "/api/orders", "{\"itemId\":", 400),
                Arguments.of("POST", "/api/orders", "", 400),
                Arguments.of("PUT", "/api/orders/999999999/status", "{\"status\":\"PAID\"}", 404),
                Arguments.of("PUT", "/api/orders/abc/status", "{\"status\":\"PAID\"}", 400),
                Arguments.of("PUT", "/api/orders/1/status", "{\"status\":\"LOST\"}", 400),
                Arguments.of("PUT", "/api/orders/1/status", "{}", 400),
                Arguments.of("PUT", "/api/orders/1/status", "{", 400));
        return variantNames().flatMap(variant -> requests.stream().map(request -> {
            Object[] values = request.get();
            return Arguments.of(variant, values[0], values[1], values[2], values[3]);
        }));
    }

    @ParameterizedTest(name = "{0}: {1} {2} {3} -> {4}")
    @MethodSource("badRequests")
    void refusesBadInputWithA4xxThatSaysWhatToSend(
            String variant, String method, String path, String body, int expectedStatus) {
        String url = api(variant, path);
        Response response =
                switch (method) {
                    case "GET" -> http.get(url);
                    case "POST" -> http.post(url, body);
                    case "PUT" -> http.put(url, body);
                    default -> throw new IllegalArgumentException(method);
                };
        assertError(response, expectedStatus);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void exposesHealthInfoAndPrometheusOnTheManagementPortOnly(String variant) {
        ServiceProcess process = variants.get(variant);
        assertThat(http.get(process.managementUrl() + "/actuator/health").body())
                .contains("\"UP\"");

        JsonNode info = http.get(process.managementUrl() + "/actuator/info").json();
        assertThat(info.get("variant").asString()).isEqualTo(variant);
        assertThat(info.get("javaVersion").asString())
                .isEqualTo(Runtime.version().toString());
        assertThat(info.get("springBootVersion").asString()).startsWith("4.");

        http.get(api(variant, "/api/db?sleepMs=1"));
        String metrics = scrapeAfterFirstGc(variant, process);
        List<String> expected = new ArrayList<>(List.of(
                "jvm_threads_live_threads",
                "process_cpu_usage",
                "process_cpu_time_ns_total",
                "jvm_memory_used_bytes{area=\"heap\"",
                "jvm_gc_pause_seconds_count",
                // The machine's CPU ticks, from which a cluster run takes the share its node's hypervisor took.
                "stackbench_host_cpu_ticks_total{mode=\"steal\"",
                "stackbench_host_cpu_ticks_total{mode=\"all\""));
        expected.addAll(
                variant.contains("r2dbc")
                        ? List.of("r2dbc_pool_acquired_connections", "r2dbc_pool_pending_connections")
                        : List.of("hikaricp_connections_active", "hikaricp_connections_pending"));
        for (String metric : expected) {
            assertThat(metrics.lines().anyMatch(line -> line.startsWith(metric)))
                    .as("%s exports %s", variant, metric)
                    .isTrue();
        }

        // The latency buckets a dashboard's histogram_quantile needs, the short fixed set and not hundreds.
        List<String> dbBuckets = metrics.lines()
                .filter(line ->
                        line.startsWith("http_server_requests_seconds_bucket{") && line.contains("uri=\"/api/db\""))
                .toList();
        assertThat(dbBuckets)
                .as("%s buckets of /api/db", variant)
                .anyMatch(line -> line.contains("le=\"0.3\""))
                .hasSizeBetween(10, 20);
        assertThat(http.get(process.managementUrl() + "/actuator/env").status()).isEqualTo(404);
        assertThat(http.get(process.baseUrl() + "/actuator/health").status()).isEqualTo(404);
    }

    /**
     * Micrometer registers jvm.gc.pause on the first GC notification, so a freshly started, idle JVM does not
     * export it yet. Large row reads make garbage until a collection has happened (bounded: at most 100 reads).
     */
    private String scrapeAfterFirstGc(String variant, ServiceProcess process) {
        String metrics = Http.getOnNewConnection(
                        process.managementUrl() + "/actuator/prometheus", Duration.ofSeconds(60))
                .body();
        for (int read = 0; read < 100 && !metrics.contains("jvm_gc_pause_seconds_count"); read++) {
            assertThat(http.get(api(variant, "/api/rows?count=10000")).status()).isEqualTo(200);
            metrics = Http.getOnNewConnection(process.managementUrl() + "/actuator/prometheus", Duration.ofSeconds(60))
                    .body();
        }
        return metrics;
    }

    /** Read from the kernel's socket table, so checking this sends no traffic anywhere but 127.0.0.1. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("variantNames")
    void listensOnLoopbackOnly(String variant) throws IOException {
        ServiceProcess process = variants.get(variant);
        for (int port : List.of(process.port(), process.managementPort())) {
            List<String> addresses = listeningAddresses(port);
            assertThat(addresses)
                    .as("%s listening sockets on port %d", variant, port)
                    .isNotEmpty()
                    .allMatch(address -> address.equals(IPV4_LOOPBACK) || address.equals(IPV4_LOOPBACK_IN_IPV6));
        }
    }

    @Test
    void delayServiceAnswersAfterTheDelayAndRefusesBadDelays() {
        Response ok = http.get(delayService.baseUrl() + "/delay?ms=20");
        assertThat(ok.status()).isEqualTo(200);
        assertThat(ok.json().get("delayMs").asInt()).isEqualTo(20);
        for (String bad : List.of("-1", "60001", "abc", "")) {
            assertError(http.get(delayService.baseUrl() + "/delay?ms=" + bad), 400);
        }
        assertThat(http.get(delayService.managementUrl() + "/actuator/prometheus")
                        .body())
                .contains("jvm_threads_live_threads")
                // The backend node's CPU ticks, from which a cluster run takes the share its hypervisor took.
                .contains(
                        "stackbench_host_cpu_ticks_total{mode=\"steal\"",
                        "stackbench_host_cpu_ticks_total{mode=\"all\"");
    }

    /** Three seeded items, each 100 ms after the previous one, over RSocket on the delay service's HTTP port. */
    @Test
    void delayServiceStreamsSeededItemsOverRSocket() {
        RSocketRequester requester = delayServiceOverRSocket();
        try {
            requester
                    .route("delay.items")
                    .data("{\"ms\":0,\"count\":1}")
                    .retrieveFlux(String.class)
                    .blockLast();
            long start = System.nanoTime();
            List<String> items = requester
                    .route("delay.items")
                    .data("{\"ms\":100,\"count\":3}")
                    .retrieveFlux(String.class)
                    .collectList()
                    .block(Duration.ofSeconds(30));
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(items).hasSize(3);
            for (int k = 1; k <= 3; k++) {
                JsonNode item = Http.JSON.readTree(items.get(k - 1));
                assertThat(item.get("id").asLong()).isEqualTo(k);
                assertThat(item.get("name").asString()).isEqualTo("item-" + k);
                assertThat(item.get("priceCents").asInt())
                        .as("the seed's price formula")
                        .isEqualTo(100 + (k * 23) % 9900);
            }
            assertThat(elapsedMs).as("3 items 100 ms apart").isGreaterThanOrEqualTo(300);
        } finally {
            requester.dispose();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "{\"ms\":10,\"count\":0}",
                "{\"ms\":10,\"count\":101}",
                "{\"ms\":-1,\"count\":1}",
                "{\"ms\":10}",
                "not json"
            })
    void delayServiceRefusesABadStreamRequestSayingWhatToSend(String payload) {
        RSocketRequester requester = delayServiceOverRSocket();
        try {
            assertThatThrownBy(() -> requester
                            .route("delay.items")
                            .data(payload)
                            .retrieveFlux(String.class)
                            .blockLast(Duration.ofSeconds(30)))
                    .isInstanceOf(ApplicationErrorException.class)
                    .hasMessageContaining("send {\"ms\":D,\"count\":N} to route delay.items")
                    .hasMessageContaining("1 <= N <= 100");
        } finally {
            requester.dispose();
        }
    }

    private RSocketRequester delayServiceOverRSocket() {
        return RSocketRequester.builder()
                .dataMimeType(MimeTypeUtils.APPLICATION_JSON)
                .websocket(URI.create(delayService.baseUrl().replaceFirst("^http", "ws") + "/rsocket"));
    }

    private static final String IPV4_LOOPBACK = "0100007F";
    private static final String IPV4_LOOPBACK_IN_IPV6 = "0000000000000000FFFF00000100007F";

    /** Local addresses (hex, as /proc/net/tcp* shows them) of the sockets listening on this port. */
    private static List<String> listeningAddresses(int port) throws IOException {
        String hexPort = String.format("%04X", port);
        List<String> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            for (String line :
                    Files.readAllLines(Path.of(table)).stream().skip(1).toList()) {
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                if (fields[3].equals("0A") && local[1].equals(hexPort)) {
                    addresses.add(local[0]);
                }
            }
        }
        return addresses;
    }

    private String api(String variant, String path) {
        return variants.get(variant).baseUrl() + path;
    }

    private static JsonNode ok(String variant, Response response, int status, String operation) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        JsonNode body = response.json();
        assertThat(body).as("JSON body of %s", response).isNotNull();
        assertThat(body.get("variant").asString()).isEqualTo(variant);
        assertThat(body.get("operation").asString()).isEqualTo(operation);
        assertThat(body.get("thread").asString()).isNotBlank();
        assertThat(body.get("virtual").isBoolean()).isTrue();
        return body;
    }

    private static void assertError(Response response, int status) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        assertThat(response.json()).as("JSON error body of %s", response).isNotNull();
        assertThat(response.json().get("error").asString()).as("%s", response).isNotBlank();
        assertThat(response.json().get("status").asInt()).isEqualTo(status);
    }

    private List<String> query(String sql) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
                PreparedStatement statement = connection.prepareStatement(sql);
                ResultSet rows = statement.executeQuery()) {
            List<String> values = new ArrayList<>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values;
        }
    }

    private void recordStartupTimes() throws IOException {
        StringBuilder report = new StringBuilder("# time from java -jar to healthy, all variants starting at once\n");
        report.append(delayService.name())
                .append(' ')
                .append(delayService.startupTime().toMillis())
                .append(" ms\n");
        variants.values().forEach(process -> report.append(process.name())
                .append(' ')
                .append(process.startupTime().toMillis())
                .append(" ms\n"));
        Files.writeString(LOGS.resolve("startup-times.txt"), report);
        System.out.print(report);
    }
}
