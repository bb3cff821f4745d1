package dev.stackbench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodCpuCountersTest {

    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    /** Lines as a kubelet's /metrics/cadvisor writes them: every sample stamped with the time it was taken. */
    private static String cadvisor(
            String pod, String container, double usage, long periods, long throttled, int second) {
        long at = T0.plusSeconds(second).toEpochMilli();
        String labels = String.format(
                Locale.ROOT,
                "container=\"%s\",cpu=\"total\",id=\"/kubepods/pod1/%s\",image=\"img\",name=\"abc\",namespace=\"ns\","
                        + "pod=\"%s\"",
                container,
                container,
                pod);
        String cfs = labels.replace("cpu=\"total\",", "");
        return String.format(Locale.ROOT, "container_cpu_usage_seconds_total{%s} %.6f %d%n", labels, usage, at)
                + String.format(Locale.ROOT, "container_cpu_cfs_periods_total{%s} %d %d%n", cfs, periods, at)
                + String.format(
                        Locale.ROOT, "container_cpu_cfs_throttled_periods_total{%s} %d %d%n", cfs, throttled, at);
    }

    private static PodCpuCounters.PodRef ref(String name) {
        return new PodCpuCounters.PodRef("ns", name, "uid-" + name, Map.of());
    }

    private static String header() {
        return "# HELP container_cpu_usage_seconds_total Cumulative cpu time consumed in seconds.\n"
                + "# TYPE container_cpu_usage_seconds_total counter\n";
    }

    @Test
    void usesTheKubeletsOwnTimeStampsAndTheReadingsInsideTheWindow() {
        PodCpuCounters counters = new PodCpuCounters();
        // Readings at 0 s (warmup), 10 s and 20 s (inside the window 5..25 s), 30 s (after the load), each asked for
        // twice: the kubelet answers the same stamped reading until it refreshes.
        int[] seconds = {0, 10, 20, 30};
        double[] usage = {1.0, 8.0, 16.0, 16.5};
        long[] periods = {0, 1000, 2000, 2100};
        long[] throttled = {0, 100, 300, 300};
        for (int i = 0; i < seconds.length; i++) {
            String text = header() + cadvisor("target-1", "target", usage[i], periods[i], throttled[i], seconds[i]);
            counters.add(List.of(ref("target-1")), text, T0.plusSeconds(seconds[i] + 1));
            counters.add(List.of(ref("target-1")), text, T0.plusSeconds(seconds[i] + 3));
        }

        PodCpuCounters.Usage usage10to20 = counters.usage("target-1", T0.plusSeconds(5), T0.plusSeconds(25))
                .orElseThrow();

        assertThat(usage10to20.insideWindow()).isTrue();
        assertThat(usage10to20.seconds()).isEqualTo(10.0);
        assertThat(usage10to20.cores()).isCloseTo(0.8, within(1e-9)); // 8 CPU-seconds in 10 s
        assertThat(usage10to20.throttledRatio()).isCloseTo(0.2, within(1e-9)); // 200 of 1000 periods
        assertThat(counters.readings("target-1"))
                .as("8 reads, 4 distinct stamped readings")
                .isEqualTo(4);
        assertThat(counters.readings("never-seen")).isZero();
    }

    @Test
    void readingsSurviveAJournalAndGiveTheSameUsage() {
        PodCpuCounters counters = new PodCpuCounters();
        int[] seconds = {0, 10, 20, 30};
        double[] usage = {1.0, 8.0, 16.0, 16.5};
        for (int i = 0; i < seconds.length; i++) {
            counters.add(
                    List.of(ref("target-1"), ref("runner-1")),
                    header()
                            + cadvisor("target-1", "target", usage[i], 1000L * i, 100L * i, seconds[i])
                            + cadvisor("runner-1", "k6", usage[i] / 2, 1000L * i, 0, seconds[i]),
                    T0.plusSeconds(seconds[i] + 1));
        }

        PodCpuCounters restored = new PodCpuCounters();
        int loaded = restored.load(counters.journal() + "a damaged line\n");

        assertThat(loaded).isEqualTo(8);
        assertThat(restored.pods()).containsExactly("target-1", "runner-1");
        assertThat(restored.usages(T0.plusSeconds(5), T0.plusSeconds(25)))
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(counters.usages(T0.plusSeconds(5), T0.plusSeconds(25)));
    }

    @Test
    void aWindowWithFewerThanTwoReadingsUsesTheReadingsAroundItAndSaysSo() {
        PodCpuCounters counters = new PodCpuCounters();
        counters.add(List.of(ref("k6-1")), cadvisor("k6-1", "k6", 2.0, 0, 0, 0), T0);
        counters.add(List.of(ref("k6-1")), cadvisor("k6-1", "k6", 5.0, 0, 0, 12), T0.plusSeconds(12));

        PodCpuCounters.Usage usage =
                counters.usage("k6-1", T0.plusSeconds(2), T0.plusSeconds(10)).orElseThrow();

        assertThat(usage.insideWindow()).isFalse();
        assertThat(usage.cores()).isCloseTo(0.25, within(1e-9));
        assertThat(usage.throttledRatio()).as("no CFS period: no limit").isNull();
    }

    @Test
    void sumsAPodsContainersAndLeavesOutOtherPodsTheSandboxAndThePodTotal() {
        PodCpuCounters counters = new PodCpuCounters();
        String first = cadvisor("p", "app", 1.0, 100, 0, 0)
                + cadvisor("p", "sidecar", 0.5, 100, 10, 0)
                + cadvisor("p", "POD", 0.01, 0, 0, 0)
                + cadvisor("p", "", 1.51, 200, 10, 0)
                + cadvisor("other", "app", 7.0, 0, 0, 0)
                + "container_cpu_usage_seconds_total{container=\"app\",cpu=\"cpu00\",namespace=\"ns\",pod=\"p\"} 99 "
                + T0.toEpochMilli() + "\n"
                // The machine's root cgroup and a pod's own cgroup, as a kubelet reports them.
                + "container_cpu_usage_seconds_total{container=\"\",cpu=\"total\",id=\"/\",namespace=\"\",pod=\"\"}"
                + " 27505.0 " + T0.toEpochMilli() + "\n"
                + "container_cpu_usage_seconds_total{container=\"\",cpu=\"total\",id=\"/kubepods/podx\",namespace=\"\","
                + "pod=\"\"} 3.0 " + T0.toEpochMilli() + "\n";
        String second = cadvisor("p", "app", 3.0, 300, 0, 4)
                + cadvisor("p", "sidecar", 1.5, 300, 110, 4)
                + cadvisor("p", "POD", 0.02, 0, 0, 4)
                + cadvisor("p", "", 4.52, 600, 110, 4)
                + cadvisor("other", "app", 9.0, 0, 0, 4);
        counters.add(List.of(ref("p")), first, T0);
        counters.add(List.of(ref("p")), second, T0.plusSeconds(4));

        PodCpuCounters.Usage usage = counters.usage("p", T0, T0.plusSeconds(4)).orElseThrow();

        assertThat(counters.pods()).containsExactly("p");
        assertThat(usage.cores()).isCloseTo((2.0 + 1.0) / 4, within(1e-9));
        assertThat(usage.throttledRatio()).isCloseTo(100.0 / 400, within(1e-9));
    }

    @Test
    void withoutPodLabelsASeriesIsFoundByThePodUidAndContainerIdInItsCgroupPath() {
        // A kubelet whose cAdvisor cannot reach the container runtime reports bare cgroups, with only their path.
        String uid = "0d3c6a4e-5b1f-4c8e-9a77-2f64b1d0c9aa";
        String containerId = "a".repeat(64);
        String cgroupfs = "/stackbench-target-0/kubepods/pod" + uid + "/" + containerId;
        String systemd = "/kubepods.slice/kubepods-pod" + uid.replace('-', '_') + ".slice/cri-containerd-" + containerId
                + ".scope";
        PodCpuCounters.PodRef target = new PodCpuCounters.PodRef("ns", "target-1", uid, Map.of(containerId, "target"));
        for (String id : List.of(cgroupfs, systemd)) {
            PodCpuCounters counters = new PodCpuCounters();
            for (int second : new int[] {0, 10}) {
                long at = T0.plusSeconds(second).toEpochMilli();
                counters.add(
                        List.of(target),
                        "container_cpu_usage_seconds_total{cpu=\"total\",id=\"" + id + "\"} " + (second * 0.5) + " "
                                + at + "\n"
                                + "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/stackbench-target-0/"
                                + "kubepods/pod" + uid + "\"} 99 " + at + "\n",
                        T0);
            }

            PodCpuCounters.Usage usage =
                    counters.usage("target-1", T0, T0.plusSeconds(10)).orElseThrow();
            assertThat(usage.cores()).as(id).isCloseTo(0.5, within(1e-9));
        }
    }

    @Test
    void aCounterThatWentDownBelongsToARestartedContainerAndIsNotUsed() {
        PodCpuCounters counters = new PodCpuCounters();
        counters.add(List.of(ref("p")), cadvisor("p", "app", 50.0, 0, 0, 0), T0);
        counters.add(List.of(ref("p")), cadvisor("p", "app", 2.0, 0, 0, 10), T0.plusSeconds(10));

        assertThat(counters.usage("p", T0, T0.plusSeconds(10))).isEmpty();
        assertThat(counters.usage("unknown", T0, T0.plusSeconds(10))).isEmpty();
    }
}
