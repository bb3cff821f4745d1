package dev.stackbench.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The runner pods whose summaries make a load's results: exactly one per runner id. k6-operator creates one Job per
 * runner, {@code <testrun>-<n>} for n in 1..parallelism, controlled by the TestRun, and the Job controller one pod (one
 * more per retry) controlled by the Job. Labels alone say neither which runner a pod is nor which TestRun of that name
 * made it: a BenchmarkRun deleted and created again under the same name could otherwise count the pods of the old one.
 * So a pod counts only through its owners: its Job is the TestRun's (by uid), and its name gives the runner id.
 */
public final class RunnerPods {

    /**
     * @param runners the pod of each runner id that has one, by id
     * @param missing the runner ids in 1..parallelism without a pod
     */
    public record Selection(SortedMap<Integer, Pod> runners, List<Integer> missing) {

        /** The selected pods in runner id order. */
        public List<Pod> pods() {
            return List.copyOf(runners.values());
        }
    }

    private RunnerPods() {}

    /**
     * @param testRunName the load's TestRun
     * @param testRunUid its uid: Jobs controlled by another object of that name do not count
     * @param jobs the Jobs labelled with the TestRun's name (any of them may be left from an older one)
     * @param pods the pods labelled as its runners
     */
    public static Selection select(
            String testRunName, String testRunUid, List<Job> jobs, List<Pod> pods, int parallelism) {
        Map<String, Integer> runnerOfJobUid = new HashMap<>();
        for (Job job : jobs) {
            runnerId(testRunName, job.getMetadata().getName())
                    .filter(id -> id <= parallelism)
                    .filter(id -> controller(job).map(testRunUid::equals).orElse(false))
                    .ifPresent(id -> runnerOfJobUid.put(job.getMetadata().getUid(), id));
        }
        Map<Integer, List<Pod>> candidates = new TreeMap<>();
        for (Pod pod : pods) {
            controller(pod).map(runnerOfJobUid::get).ifPresent(id -> candidates
                    .computeIfAbsent(id, k -> new ArrayList<>())
                    .add(pod));
        }
        SortedMap<Integer, Pod> runners = new TreeMap<>();
        candidates.forEach((id, podsOfRunner) -> runners.put(id, chosen(podsOfRunner)));
        List<Integer> missing = new ArrayList<>();
        for (int id = 1; id <= parallelism; id++) {
            if (!runners.containsKey(id)) {
                missing.add(id);
            }
        }
        return new Selection(runners, missing);
    }

    /** The runner id of one of the TestRun's Jobs ({@code <testrun>-<n>}); empty for any other name. */
    public static Optional<Integer> runnerId(String testRunName, String jobName) {
        String prefix = testRunName + "-";
        if (jobName == null || !jobName.startsWith(prefix)) {
            return Optional.empty();
        }
        String number = jobName.substring(prefix.length());
        if (number.isEmpty() || number.length() > 6 || !number.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        int id = Integer.parseInt(number);
        return id >= 1 ? Optional.of(id) : Optional.empty();
    }

    /**
     * Of a runner's pods (a retried Job has several), the one whose log holds its result: one that succeeded, else
     * the latest.
     */
    private static Pod chosen(List<Pod> pods) {
        Comparator<Pod> order = Comparator.comparing((Pod pod) -> succeeded(pod))
                .thenComparing(pod -> String.valueOf(pod.getMetadata().getCreationTimestamp()))
                .thenComparing(pod -> pod.getMetadata().getName());
        return pods.stream().max(order).orElseThrow();
    }

    private static boolean succeeded(Pod pod) {
        return pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase());
    }

    /** The uid of the object's controller, from its owner references. */
    private static Optional<String> controller(HasMetadata object) {
        List<OwnerReference> owners = object.getMetadata().getOwnerReferences();
        if (owners == null) {
            return Optional.empty();
        }
        return owners.stream()
                .filter(owner -> Boolean.TRUE.equals(owner.getController()))
                .map(OwnerReference::getUid)
                .findFirst();
    }
}
