package dev.stackbench.chart;

import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The processes of a pod on a real node of the test cluster, found through the pod's cgroup on this machine (each node
 * has a cgroup root of its own, {@code /<node>/kubepods/...}), so a test can kill them as a crash or the kernel's OOM
 * killer would: at once, without the grace period a pod deletion gives.
 */
final class PodProcesses {

    private static final Path PIDS = Path.of("/sys/fs/cgroup/pids");

    private PodProcesses() {}

    /** Sends SIGKILL to every process of the pod (its containers and sandbox); returns how many there were. */
    static int kill(Pod pod) {
        List<Long> pids = of(pod);
        pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        return pids.size();
    }

    /** The ids of the pod's processes, from its cgroup under its node's cgroup root; empty when it has none. */
    static List<Long> of(Pod pod) {
        Path kubepods = PIDS.resolve(pod.getSpec().getNodeName()).resolve("kubepods");
        String dir = "pod" + pod.getMetadata().getUid();
        List<Long> pids = new ArrayList<>();
        for (Path podCgroup : List.of(
                kubepods.resolve(dir), kubepods.resolve("burstable/" + dir), kubepods.resolve("besteffort/" + dir))) {
            if (!Files.isDirectory(podCgroup)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(podCgroup)) {
                for (Path procs : files.filter(f -> f.endsWith("cgroup.procs")).toList()) {
                    for (String line : Files.readAllLines(procs)) {
                        if (!line.isBlank()) {
                            pids.add(Long.parseLong(line.trim()));
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot read the cgroup of pod " + pod.getMetadata().getName(), e);
            }
        }
        return pids;
    }
}
