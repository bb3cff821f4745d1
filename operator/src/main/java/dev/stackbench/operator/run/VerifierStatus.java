package dev.stackbench.operator.run;

import dev.stackbench.operator.objects.VerificationPod;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** What the kubelet and the scheduler say about the verification pod ({@link WorkVerification}) and its containers. */
final class VerifierStatus {

    private VerifierStatus() {}

    /** Why the scheduler has not placed the pod, when it said. */
    static String unscheduled(Pod verifier) {
        return Optional.ofNullable(verifier.getStatus())
                .map(status -> status.getConditions())
                .orElse(List.of())
                .stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                .map(PodCondition::getMessage)
                .filter(Objects::nonNull)
                .findFirst()
                .map(message -> " (" + message + ")")
                .orElse("");
    }

    /** Where a pod whose steps do not run (yet, or any more) is: starting, copying k6, or ending. */
    static String currentStep(Pod verifier) {
        if (ended(verifier, VerificationPod.RUN_STEPS)) {
            return "ending";
        }
        return statuses(verifier).isEmpty() ? "starting" : "copying k6 into the pod";
    }

    static boolean running(Pod verifier, String container) {
        return state(verifier, container).map(ContainerState::getRunning).isPresent();
    }

    static boolean ended(Pod verifier, String container) {
        return state(verifier, container).map(ContainerState::getTerminated).isPresent();
    }

    static boolean endedWell(Pod verifier, String container) {
        return state(verifier, container)
                .map(ContainerState::getTerminated)
                .filter(terminated -> Integer.valueOf(0).equals(terminated.getExitCode()))
                .isPresent();
    }

    /** The kubelet's last word on {@code container} of the pod, if it said one. */
    static Optional<ContainerState> state(Pod verifier, String container) {
        return statuses(verifier).stream()
                .filter(status -> container.equals(status.getName()))
                .map(ContainerStatus::getState)
                .filter(Objects::nonNull)
                .findFirst();
    }

    static List<ContainerStatus> statuses(Pod verifier) {
        if (verifier.getStatus() == null) {
            return List.of();
        }
        return Stream.concat(
                        Optional.ofNullable(verifier.getStatus().getInitContainerStatuses()).orElse(List.of()).stream(),
                        Optional.ofNullable(verifier.getStatus().getContainerStatuses()).orElse(List.of()).stream())
                .toList();
    }
}
