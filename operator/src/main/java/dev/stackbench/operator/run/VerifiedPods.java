package dev.stackbench.operator.run;

import dev.stackbench.api.run.BenchmarkRun;
import dev.stackbench.api.run.BenchmarkRunDefaults;
import dev.stackbench.operator.RunLabels;
import dev.stackbench.operator.objects.VerificationPod;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The target and delay-service pods as the work verification sees them: their addresses once they have one or are
 * Ready, the pods a verification pod was made for, and the target's image ID the counts were taken on.
 */
final class VerifiedPods {

    private VerifiedPods() {}

    /** Whether the pod was made for other target or delay-service pods than the Ready ones (known once they are). */
    static boolean madeForOtherPods(RunContext pass, Pod verifier) {
        String madeFor = Optional.ofNullable(verifier.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(VerificationPod.ADDRESSES_ANNOTATION))
                .orElse(null);
        Optional<String> target =
                readyAddresses(pass.pods(RunLabels.ROLE_TARGET)).stream().findFirst();
        List<String> delay = readyAddresses(pass.pods(RunLabels.ROLE_DELAY_SERVICE));
        return madeFor != null
                && target.isPresent()
                && delay.size() == delayReplicas(pass.run())
                && !madeFor.equals(VerificationPod.addresses(target.get(), delay));
    }

    static int delayReplicas(BenchmarkRun run) {
        var backend = run.getSpec().getBackend();
        Integer replicas = backend == null || backend.getDelayService() == null
                ? null
                : backend.getDelayService().getReplicas();
        return Objects.requireNonNullElse(replicas, BenchmarkRunDefaults.REPLICAS);
    }

    /** The pods not being deleted, by name (the order {@link #readyAddresses} keeps too). */
    static List<Pod> live(List<Pod> pods) {
        return pods.stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null)
                .sorted(java.util.Comparator.comparing(pod -> pod.getMetadata().getName()))
                .toList();
    }

    static String address(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    }

    /** The image ID of the first Ready target pod, once the kubelet reports it. */
    static Optional<String> readyTargetImage(RunContext pass) {
        return live(pass.pods(RunLabels.ROLE_TARGET)).stream()
                .filter(pod -> readyAddresses(List.of(pod)).size() == 1)
                .findFirst()
                .flatMap(VerifiedPods::imageOf);
    }

    /** The image ID of the target pod the verification pod sent its requests to. */
    static Optional<String> countedTargetImage(RunContext pass, Pod verifier) {
        String madeFor = Optional.ofNullable(verifier.getMetadata().getAnnotations())
                .map(annotations -> annotations.get(VerificationPod.ADDRESSES_ANNOTATION))
                .orElse("");
        String address = madeFor.contains(" ") ? madeFor.substring(0, madeFor.indexOf(' ')) : madeFor;
        return live(pass.pods(RunLabels.ROLE_TARGET)).stream()
                .filter(pod -> address.equals(address(pod)))
                .findFirst()
                .flatMap(VerifiedPods::imageOf);
    }

    /** The image IDs of a pod's containers (one for a target), as the kubelet reports them. */
    static Optional<String> imageOf(Pod pod) {
        List<String> images =
                Optional.ofNullable(pod.getStatus())
                        .map(status -> status.getContainerStatuses())
                        .orElse(List.of())
                        .stream()
                        .sorted(java.util.Comparator.comparing(ContainerStatus::getName))
                        .map(ContainerStatus::getImageID)
                        .toList();
        return images.isEmpty() || images.stream().anyMatch(id -> id == null || id.isBlank())
                ? Optional.empty()
                : Optional.of(String.join(",", images));
    }

    /** The addresses of the Ready pods among {@code pods}. */
    static List<String> readyAddresses(List<Pod> pods) {
        return pods.stream()
                .filter(pod -> pod.getMetadata().getDeletionTimestamp() == null
                        && pod.getStatus() != null
                        && pod.getStatus().getPodIP() != null
                        && pod.getStatus().getConditions() != null
                        && pod.getStatus().getConditions().stream()
                                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())))
                .sorted(java.util.Comparator.comparing(pod -> pod.getMetadata().getName()))
                .map(pod -> pod.getStatus().getPodIP())
                .toList();
    }
}
