package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stackbench.api.status.LimitedBy;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The rules one by one, on the figures of the experiments whose answer is known (the demo, experiment b), and their
 * order where two hold at once.
 */
class LimitingResourceTest {

    /** A run's figures, the demo's mvc-jdbc unless a test changes them; null is "not measured". */
    private static final class Figures {
        String generatorSaturated;
        String generatorContended;
        Double offeredRps = 60.0;
        Integer vus;
        double achievedRps = 32.4;
        long dropped = 412;
        Double p50Ms = 2900.0;
        LimitingResource.Pool pool = new LimitingResource.Pool("tomcat", 10, true, 10 / 0.3, 0.3);
        Integer peakPool = 10;
        Double atPeak = 0.96;
        Double pendingShare;
        Double peakPending;
        Double dbCap;
        Double cores = 0.21;
        Double allowedCores = 1.0;
        Double gcMs = 35.0;
        Double seconds = 20.0;
        Double backendCpusBusy;
        Double targetCpusBusy;
        Double databaseCores;
        Double databaseLimit;
        Double delayServiceCores;
        Double delayServiceLimit;
        boolean callsUpstream = true;
        LimitingResource.Burst burst;

        LimitedBy classify() {
            return LimitingResource.classify(new LimitingResource.Observed(
                    Optional.ofNullable(generatorSaturated),
                    Optional.ofNullable(generatorContended),
                    offeredRps,
                    vus,
                    achievedRps,
                    dropped,
                    p50Ms,
                    pool,
                    peakPool,
                    atPeak,
                    pendingShare,
                    peakPending,
                    dbCap,
                    cores,
                    allowedCores,
                    null,
                    gcMs,
                    seconds,
                    databaseCores,
                    databaseLimit,
                    delayServiceCores,
                    delayServiceLimit,
                    backendCpusBusy,
                    targetCpusBusy,
                    callsUpstream,
                    false,
                    burst));
        }
    }

    /** Experiment b: 100 VUs, 1 s database sleep, no pool gauge unless a test sets one. */
    private static Figures experimentB(String poolName, int threads, double achieved) {
        Figures b = new Figures();
        b.offeredRps = null;
        b.vus = 100;
        b.achievedRps = achieved;
        b.dropped = 0;
        b.p50Ms = 100 / achieved * 1000;
        b.pool = new LimitingResource.Pool(poolName, threads, true, (double) threads, 1.0);
        b.peakPool = null;
        b.atPeak = null;
        b.pendingShare = 0.0;
        b.dbCap = 100.0;
        return b;
    }

    @Test
    void aFullTomcatPoolAtTheCapIsTheRequestPool() {
        LimitedBy verdict = new Figures().classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "10/10 tomcat threads in use in 96% of samples",
                        "32.4 req/s, 97% of the Little's-law cap 33.3 (10 threads / 0.300 s per request; measured"
                                + " 0.309 s per request), 60.0 req/s offered");
    }

    /** The demo's mvc-jdbc on a busy machine: the delay service answered late, each request held its thread longer. */
    @Test
    void aFullPoolWellBelowItsCapWithTheCpuIdleIsStillThePool() {
        Figures slowUpstream = new Figures();
        slowUpstream.achievedRps = 26.3;

        LimitedBy verdict = slowUpstream.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(verdict.getEvidence())
                .last()
                .isEqualTo("26.3 req/s, 79% of the Little's-law cap 33.3 (10 threads / 0.300 s per request; measured"
                        + " 0.380 s per request), 60.0 req/s offered");
    }

    @Test
    void aSaturatedGeneratorOverridesEveryOtherRule() {
        Figures saturated = new Figures();
        saturated.generatorSaturated =
                "k6 could not generate the requested load (k6 used 0.95 of the 1.00 CPU it" + " may use)";

        LimitedBy verdict = saturated.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.LOAD_GENERATOR);
        assertThat(verdict.getEvidence()).singleElement().asString().contains("0.95 of the 1.00 CPU");
    }

    @Test
    void busySharedCpusLeaveTheVerdictToTheTargetAndSaySo() {
        Figures contended = new Figures();
        contended.generatorContended = "k6 could not generate the requested load (the CPUs k6 shares with the delay"
                + " service and PostgreSQL (CPU 0) were 99% busy, k6 itself using 0.06 CPU)";

        LimitedBy verdict = contended.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(verdict.getEvidence())
                .last()
                .asString()
                .startsWith("less trustworthy figures: k6 could not generate")
                .contains("99% busy");
    }

    @Test
    void requestsWaitingForConnectionsComeBeforeTheThreadsTheyHold() {
        Figures pending = new Figures();
        pending.pendingShare = 0.6;
        pending.peakPending = 7.0;
        pending.dbCap = 50.0;

        LimitedBy verdict = pending.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.CONNECTION_POOL);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "requests waited for a database connection in 60% of samples (at most 7 at once)",
                        "32.4 req/s against the connections' Little's-law cap 50.0");
    }

    /** webflux-jdbc-blocking without its thread-state sample (an older target): the cap alone. */
    @Test
    void anEventLoopThreadBoundAtItsCapIsBlocked() {
        LimitedBy verdict = experimentB("reactor-netty event loop", 4, 3.9).classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.EVENT_LOOP_BLOCKED);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "3.9 req/s, 98% of the Little's-law cap 4.0 (4 threads / 1.000 s per request; measured 1.026"
                                + " s per request), 100 requests in flight (VUs)",
                        "no gauge of busy reactor-netty event loop threads: judged from the cap alone");
    }

    /** webflux-jdbc-blocking with its thread-state sample: the 4 event-loop threads found blocked in most scrapes. */
    @Test
    void anEventLoopFoundBlockedAtItsCapIsBlockedWithTheSampleAsEvidence() {
        Figures blocking = experimentB("reactor-netty event loop", 4, 3.9);
        blocking.peakPool = 4;
        blocking.atPeak = 0.93;

        LimitedBy verdict = blocking.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.EVENT_LOOP_BLOCKED);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "4/4 reactor-netty event loop threads found blocked (in JDBC, a sleep or a wait) by the"
                                + " thread-state sample in 93% of samples",
                        "3.9 req/s, 98% of the Little's-law cap 4.0 (4 threads / 1.000 s per request; measured 1.026"
                                + " s per request), 100 requests in flight (VUs)");
    }

    /** An event loop the sample never found blocked is not the limit, whatever the throughput says. */
    @Test
    void anEventLoopTheSampleNeverFoundBlockedIsNotThePool() {
        Figures neverBlocked = experimentB("reactor-netty event loop", 4, 3.9);
        neverBlocked.peakPool = 0;
        neverBlocked.atPeak = 1.0;

        assertThat(neverBlocked.classify().getResource()).isNotEqualTo(LimitingResource.EVENT_LOOP_BLOCKED);
    }

    /**
     * Experiments e and f on real nodes: bursts of 100 one-second database sleeps and 1000 1.5 s sleeps, whose
     * makespans are the pools' rounds; the gauges, over a handful of scrapes, are not full.
     */
    @Test
    void aBurstOfSeveralRoundsOfAPoolWaitedForThePool() {
        Figures onTheLoop = experimentB("reactor-netty event loop", 4, 3.8);
        onTheLoop.vus = null;
        onTheLoop.peakPool = 2;
        onTheLoop.atPeak = 0.4;
        onTheLoop.burst = new LimitingResource.Burst(100, 26_300);
        Figures coroutines = experimentB("Dispatchers.IO", 64, 44.6);
        coroutines.vus = null;
        coroutines.burst = new LimitingResource.Burst(100, 2_200);
        Figures tomcat = experimentB("tomcat", 200, 113.4);
        tomcat.pool = new LimitingResource.Pool("tomcat", 200, true, 200 / 1.5, 1.5);
        tomcat.vus = null;
        tomcat.burst = new LimitingResource.Burst(1000, 8_800);

        LimitedBy loop = onTheLoop.classify();
        assertThat(loop.getResource()).isEqualTo(LimitingResource.EVENT_LOOP_BLOCKED);
        assertThat(loop.getEvidence())
                .containsExactly("a burst of 100 requests on 4 reactor-netty event loop threads: 25 rounds of 1.000 s,"
                        + " 25.0 s as the pool predicts; makespan 26.3 s");
        assertThat(coroutines.classify().getResource()).isEqualTo(LimitingResource.OFFLOAD_POOL);
        assertThat(tomcat.classify().getEvidence())
                .containsExactly("a burst of 1000 requests on 200 tomcat threads: 5 rounds of 1.500 s, 7.5 s as the"
                        + " pool predicts; makespan 8.8 s");
    }

    /** A burst the pool serves in one round, or far faster than its rounds, did not wait for the pool. */
    @Test
    void aBurstOfOneRoundOrFasterThanItsRoundsIsNotThePool() {
        Figures oneRound = experimentB("tomcat", 200, 80.0);
        oneRound.vus = null;
        oneRound.burst = new LimitingResource.Burst(100, 1_250);
        Figures faster = experimentB("boundedElastic", 10, 50.0);
        faster.vus = null;
        faster.burst = new LimitingResource.Burst(100, 2_000);

        assertThat(oneRound.classify().getResource()).isNotEqualTo(LimitingResource.REQUEST_POOL);
        assertThat(faster.classify().getResource()).isNotEqualTo(LimitingResource.OFFLOAD_POOL);
    }

    /** webflux-jdbc-elastic: boundedElastic's 10 threads all live. */
    @Test
    void aFullBoundedElasticAtItsCapIsTheOffloadPool() {
        Figures elastic = experimentB("boundedElastic", 10, 9.8);
        elastic.peakPool = 10;
        elastic.atPeak = 0.97;

        LimitedBy verdict = elastic.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.OFFLOAD_POOL);
        assertThat(verdict.getEvidence()).first().isEqualTo("10/10 boundedElastic threads in use in 97% of samples");
    }

    @Test
    void moreVusThanThreadsButFarBelowTheCapIsNotThePool() {
        Figures slow = experimentB("boundedElastic", 10, 2.0);

        assertThat(slow.classify().getResource()).isEqualTo(LimitingResource.UNKNOWN);
    }

    @Test
    void aFullPoolFarBelowItsCapIsTheCpuWhenTheCpuIsFull() {
        Figures slow = new Figures();
        slow.achievedRps = 12.0;
        slow.cores = 0.97;

        LimitedBy verdict = slow.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.TARGET_CPU);
        assertThat(verdict.getEvidence()).containsExactly("target used 0.97 of 1.00 CPU (97%)");
    }

    @Test
    void aPoolThatWasNotFullIsNotThePoolEvenAtTheCap() {
        Figures idle = new Figures();
        idle.peakPool = 6;
        idle.atPeak = 0.2;

        assertThat(idle.classify().getResource()).isEqualTo(LimitingResource.UNKNOWN);
    }

    @Test
    void longGcPausesAreGc() {
        Figures paused = new Figures();
        paused.peakPool = 4;
        paused.gcMs = 3500.0;

        LimitedBy verdict = paused.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.GC);
        assertThat(verdict.getEvidence()).containsExactly("GC paused the target 3500 ms of 20 s (18%)");
    }

    /** The demo's webflux-r2dbc: 60/s offered and served, the median at the 300 ms upstream delay. */
    @Test
    void aTargetThatKeptUpIsLimitedByNothing() {
        Figures r2dbc = new Figures();
        r2dbc.achievedRps = 59.9;
        r2dbc.dropped = 0;
        r2dbc.p50Ms = 306.0;
        r2dbc.pool = new LimitingResource.Pool("reactor-netty event loop", 4, false, 4 / 0.3, 0.3);
        r2dbc.peakPool = null;
        r2dbc.atPeak = null;

        LimitedBy verdict = r2dbc.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.NONE);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "59.9 of 60.0 req/s offered",
                        "no iterations dropped",
                        "median 306 ms against the nominal 300 ms");
    }

    /** Experiment g's parallel fan-out locally, 1000 VUs, 5 parallel calls of 200 ms, the target on one CPU. */
    private static Figures parallelFanout() {
        Figures fanout = new Figures();
        fanout.offeredRps = null;
        fanout.vus = 1000;
        fanout.achievedRps = 107.8;
        fanout.dropped = 0;
        fanout.p50Ms = 13169.0;
        fanout.pool = new LimitingResource.Pool("reactor-netty event loop", 4, false, 4 / 0.2, 0.2);
        fanout.peakPool = null;
        fanout.atPeak = null;
        fanout.cores = 0.39;
        fanout.gcMs = 1038.0;
        fanout.seconds = 12.0;
        fanout.backendCpusBusy = 1.0;
        return fanout;
    }

    /** The delay service starved on the CPU it shares, the target's own CPU half idle. */
    @Test
    void busyBackendCpusWhileTheTargetFellBehindAreTheUpstream() {
        Figures fanout = parallelFanout();

        LimitedBy verdict = fanout.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.UPSTREAM);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "the CPUs the delay service and PostgreSQL run on were 100% busy while the target fell behind",
                        "median 13169 ms against the nominal 200 ms", "target used 0.39 of 1.00 CPU");

        fanout.p50Ms = 230.0;
        assertThat(fanout.classify().getResource())
                .as("a target that kept up is limited by nothing, however busy the backend's CPUs")
                .isEqualTo(LimitingResource.NONE);
    }

    /** The target's CPU busy all the time, partly by other processes, while it fell behind: the CPU, before GC. */
    @Test
    void aTargetWhoseCpusWereBusyWhileItFellBehindIsLimitedByCpu() {
        Figures fanout = parallelFanout();
        fanout.targetCpusBusy = 0.98;
        fanout.cores = 0.6;
        fanout.gcMs = 1995.0;

        LimitedBy verdict = fanout.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.TARGET_CPU);
        assertThat(verdict.getEvidence())
                .containsExactly("the target's CPUs were 98% busy while it fell behind, the target itself using 0.60 of"
                        + " 1.00 CPU: other processes took the rest");

        fanout.p50Ms = 230.0;
        fanout.gcMs = 100.0;
        assertThat(fanout.classify().getResource())
                .as("busy CPUs around a target that kept up limit nothing")
                .isEqualTo(LimitingResource.NONE);
    }

    /** Cluster mode: the kubelets' figures for the database and delay service pods against their limits. */
    @Test
    void aBackendPodAtItsCpuLimitIsTheDatabaseOrTheUpstream() {
        Figures cluster = new Figures();
        cluster.peakPool = 3;
        cluster.databaseCores = 0.5;
        cluster.databaseLimit = 1.0;
        cluster.delayServiceCores = 0.97;
        cluster.delayServiceLimit = 1.0;

        LimitedBy upstream = cluster.classify();
        assertThat(upstream.getResource()).isEqualTo(LimitingResource.UPSTREAM);
        assertThat(upstream.getEvidence()).containsExactly("delay service used 0.97 of 1.00 CPU (97%)");

        cluster.databaseCores = 1.96;
        cluster.databaseLimit = 2.0;
        assertThat(cluster.classify().getEvidence()).containsExactly("database used 1.96 of 2.00 CPU (98%)");
    }

    @Test
    void aClosedModelWithoutAFixedWaitIsUnknownAndSaysWhatIsMissing() {
        Figures rows = new Figures();
        rows.offeredRps = null;
        rows.vus = 50;
        rows.achievedRps = 800.0;
        rows.dropped = 0;
        rows.pool = new LimitingResource.Pool("tomcat", 200, true, null, null);
        rows.peakPool = null;
        rows.atPeak = null;
        rows.cores = null;

        LimitedBy verdict = rows.classify();

        assertThat(verdict.getResource()).isEqualTo(LimitingResource.UNKNOWN);
        assertThat(verdict.getEvidence())
                .containsExactly(
                        "no rule held at 800.0 req/s",
                        "missing: the tomcat threads' gauge and a fixed wait for the Little's-law cap, the target's CPU,"
                                + " an offered rate or a nominal wait to compare the latency with");
    }
}
